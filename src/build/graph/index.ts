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
import { typesetFrench } from '../../features/markdown/french-typography.js';

export interface GraphOptions {
  /** Drafts are published by `dev` only. */
  includeDrafts: boolean;
  /** What the image stage made of each image file (by absolute path). */
  images?: ReadonlyMap<string, ProcessedImage>;
}

/**
 * The UI strings as pages show them, wherever the graph puts them (page titles of listings, the
 * offline and not-found pages, the strings pages receive): with French typography in French
 * (config.markdown.frenchTypography), before their `{placeholders}` are filled.
 */
function uiStrings(strings: ValidSite['strings'], config: ResolvedConfig): ValidSite['strings'] {
  const french = strings.fr;
  if (!french || !config.markdown.frenchTypography) return strings;
  return { ...strings, fr: Object.fromEntries(Object.entries(french).map(([key, text]) => [key, typesetFrench(text)])) };
}

export function buildGraph(input: ValidSite, config: ResolvedConfig, options: GraphOptions): SiteGraph {
  const published = <E extends { fm: { draft: boolean } }>(list: E[]) => (options.includeDrafts ? list : list.filter((e) => !e.fm.draft));
  const site: ValidSite = { ...input, strings: uiStrings(input.strings, config), pages: published(input.pages), articles: published(input.articles), bios: published(input.bios) };

  const built = buildRoutes(site, config, options.images);
  const pages = [...built.routes, ...fallbackNotFoundRoutes(built.routes, site, config)];
  const all = [...pages, ...offlineRoutes(pages, site, config)];
  const { routes, diagnostics: conflicts } = pathConflicts(all);
  const redirects = checkRedirects([...writtenRedirects(site), ...generatedRedirects(routes, site.articles, config)], routes);
  const queries = buildStaticQueries(site, config, input.pages);

  return {
    routes,
    redirects: redirects.redirects,
    staticQueries: queries.queries,
    queryHashes: queries.hashes,
    files: built.files,
    diagnostics: [...built.diagnostics, ...duplicateSlugs(site.articles), ...conflicts, ...redirects.diagnostics, ...queries.diagnostics],
  };
}
