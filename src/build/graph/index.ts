// Stage 3: link entries into the site graph. Pure: no IO, nothing rendered.
import type { ResolvedConfig } from '../config/resolve.js';
import type { ValidSite } from '../content/entries.js';
import { duplicateSlugs, pathConflicts } from './conflicts.js';
import type { SiteGraph } from './model.js';
import type { ProcessedImage } from '../../shared/image-data.js';
import { buildStaticQueries } from './queries.js';
import { checkRedirects, generatedRedirects, writtenRedirects } from './redirects.js';
import { offlineRoutes } from './offline-pages.js';
import { buildRoutes, fallbackNotFoundRoutes } from './routes.js';
import { typesetSiteText } from './french-text.js';

export interface GraphOptions {
  /** Drafts are published by `dev` only. */
  includeDrafts: boolean;
  /** What the image stage made of each image file (by absolute path). */
  images?: ReadonlyMap<string, ProcessedImage>;
}

export function buildGraph(input: ValidSite, config: ResolvedConfig, options: GraphOptions): SiteGraph {
  const published = <E extends { fm: { draft: boolean } }>(list: E[]) => (options.includeDrafts ? list : list.filter((e) => !e.fm.draft));
  // The text pages show, as they show it (french-text.ts): every stage below reads it so.
  const shown = config.markdown.frenchTypography ? typesetSiteText(input) : input;
  const site: ValidSite = { ...shown, pages: published(shown.pages), articles: published(shown.articles), bios: published(shown.bios) };

  const built = buildRoutes(site, config, options.images);
  const pages = [...built.routes, ...fallbackNotFoundRoutes(built.routes, site, config)];
  const all = [...pages, ...offlineRoutes(pages, site, config)];
  const { routes, diagnostics: conflicts } = pathConflicts(all);
  const redirects = checkRedirects([...writtenRedirects(site), ...generatedRedirects(routes, site.articles, config)], routes);
  const queries = buildStaticQueries(site, config, shown.pages);

  return {
    routes,
    redirects: redirects.redirects,
    staticQueries: queries.queries,
    queryHashes: queries.hashes,
    files: built.files,
    diagnostics: [...built.diagnostics, ...duplicateSlugs(site.articles), ...conflicts, ...redirects.diagnostics, ...queries.diagnostics],
  };
}
