// Decides every page: its path per language, template, alternates, listings and data.
// Pure: entries in, routes and diagnostics out. One function per kind of route; the shared
// indexes and helpers are in route-context.ts.
import type { ResolvedConfig } from '../config/resolve.js';
import type { ArticleEntry, BioEntry, PageEntry, ValidSite } from '../content/entries.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import { pathLine } from '../content/field-line.js';
import { localizePath } from '../../shared/paths.js';
import type { ArticleData, DocumentLink, PageData, TemplateId } from '../../shared/types.js';
import type { PublishedFile, Route } from './model.js';
import type { ProcessedImage } from '../../shared/image-data.js';
import { byKey, didYouMean, dirOf, pageOriginalPath, RouteContext } from './route-context.js';
import { listingData, listingOf, listingPageRoutes, sentPageRoutes, sentPathOf } from './listing-routes.js';
import { collatorFor } from '../../shared/order.js';

export { fillTokens, pageOriginalPath } from './route-context.js';

const LATEST_ON_HOME = 6;
const isUrl = (s: string) => /^https?:\/\//i.test(s);

export interface RoutesResult {
  routes: Route[];
  files: PublishedFile[];
  diagnostics: Diagnostic[];
}

export function buildRoutes(site: ValidSite, config: ResolvedConfig, images: ReadonlyMap<string, ProcessedImage> = new Map()): RoutesResult {
  const ctx = new RouteContext(site, config, images);
  // Articles first: listings on pages and bios need their summaries.
  for (const [, group] of byKey(site.articles)) articleRoutes(ctx, group);
  for (const [, group] of ctx.bioGroups) bioRoutes(ctx, group);
  for (const [, group] of byKey(site.pages)) pageRoutes(ctx, group);
  return { routes: ctx.routes, files: ctx.files, diagnostics: ctx.diagnostics };
}

/** Why an author's bio is not published in `locale`: it is in other languages only, or in none (a draft, another identity's). */
function unpublishedBio(ctx: RouteContext, handle: string, locale: string): string {
  const others = [...(ctx.bioGroups.get(handle)?.keys() ?? [])];
  if (others.length > 0) return `has no bio published in ${locale}, only in ${others.join(', ')}`;
  return `has no bio in this build (a draft, or another identity's)`;
}

/** An article's author and sections, checked against the team and the section pages; `authorFound`: its author's bio is published. */
function checkArticleLinks(ctx: RouteContext, a: ArticleEntry, authorFound: boolean): void {
  if (a.fm.author && ctx.site.teamHandles.has(a.fm.author) && !authorFound) {
    ctx.diagnostics.push(
      diagnostic('graph/unpublished-author', {
        file: a.file,
        line: a.fieldLines['author'],
        field: 'author',
        message: `the author "${a.fm.author}" ${unpublishedBio(ctx, a.fm.author, a.locale)}: the article is published without its byline`,
      }),
    );
  }
  if (a.fm.author && !ctx.site.teamHandles.has(a.fm.author)) {
    ctx.diagnostics.push(
      diagnostic('graph/unknown-author', {
        file: a.file,
        line: a.fieldLines['author'],
        field: 'author',
        message: `unknown author "${a.fm.author}": there is no team member with this handle`,
        hint: `authors are folder names under content/team/: ${[...ctx.site.teamHandles].sort().join(', ')}`,
      }),
    );
  }
  a.fm.sections.forEach((section) => {
    if (!ctx.sectionKeys.has(section)) {
      ctx.diagnostics.push(
        diagnostic('graph/unknown-section', {
          file: a.file,
          line: a.fieldLines['sections'],
          field: 'sections',
          message: `unknown section "${section}"`,
          hint: `sections are declared by section pages (front matter section:): ${[...ctx.sectionKeys].sort().join(', ')}`,
        }),
      );
    }
  });
}

/** An article's documents: files next to it (reported when missing) or absolute URLs. */
function documentsOf(ctx: RouteContext, a: ArticleEntry, path: string): DocumentLink[] {
  const assets = ctx.assetsOf(a);
  return a.fm.documents.map((d, i) => {
    if (isUrl(d.file)) return { label: d.label, href: d.file, local: false };
    if (!assets.some((f) => f.name === d.file)) {
      ctx.diagnostics.push(
        diagnostic('content/missing-file', {
          file: a.file,
          line: pathLine(a.fieldLines, ['documents', i, 'file']),
          field: `documents[${i}].file`,
          message: `the document "${d.file}" is not next to this article`,
          hint: didYouMean(d.file, assets) ?? `put the file in ${dirOf(a.file)}/ or give an absolute https:// URL`,
        }),
      );
    }
    // The file's name as one part of the address: a "#", "?" or "%" in it is not the URL's.
    return { label: d.label, href: `${path}${encodeURIComponent(d.file)}`, local: true };
  });
}

/** `/article/<slug>/` in each language, and the root copy of a press release (`atRoot`). */
function articleRoutes(ctx: RouteContext, group: Map<string, ArticleEntry>): void {
  const alternates = ctx.alternatesOf(group, (a) => ctx.articlePath(a));
  for (const a of group.values()) {
    const path = ctx.articlePath(a);
    const author = a.fm.author ? ctx.bioByHandle(a.fm.author, a.locale) ?? ctx.bioByHandle(a.fm.author, ctx.defaultLocale) : null;
    checkArticleLinks(ctx, a, author !== null);
    const documents = documentsOf(ctx, a, path);
    const data: ArticleData = {
      template: 'article',
      title: a.fm.title,
      description: a.fm.description ?? null,
      body: null,
      key: a.key,
      slug: a.fm.slug,
      date: a.fm.date,
      updated: a.fm.updated ?? null,
      cover: ctx.coverOf(a),
      type: a.fm.type,
      sections: a.fm.sections,
      sectionLinks: ctx.sectionLinksOf(a.fm.sections, a.locale),
      quarter: a.fm.quarter ?? null,
      author: author ? ctx.bioSummaryOf(author) : null,
      video: a.fm.video ?? null,
      documents,
    };
    const common = { locale: a.locale, template: 'article' as const, file: a.file, data, markdown: ctx.markdownOf(a) };
    ctx.route({ ...common, path, originalPath: `/article/${a.fm.slug}/`, alternates, pathField: 'slug', pathLine: a.fieldLines['slug'], lastmod: a.fm.updated ?? a.fm.date });
    ctx.publishAssets(a, path);
    if (a.fm.atRoot && ctx.publishable(a, `/${a.fm.slug}/`, 'atRoot')) {
      const rootAlternates = ctx.alternatesOf(group, (t) => (t.fm.atRoot ? ctx.localize(`/${t.fm.slug}/`, t.locale) : ctx.articlePath(t)));
      ctx.route({
        ...common,
        path: ctx.localize(`/${a.fm.slug}/`, a.locale),
        originalPath: `/${a.fm.slug}/`,
        alternates: rootAlternates,
        inSitemap: false,
        canonicalPath: path,
        pathField: 'atRoot',
        pathLine: a.fieldLines['atRoot'],
      });
    }
  }
}

/** `/your-team/<handle>/` in each language. */
function bioRoutes(ctx: RouteContext, group: Map<string, BioEntry>): void {
  const alternates = ctx.alternatesOf(group, (b) => ctx.bioPath(b));
  for (const bio of group.values()) {
    if (!ctx.publishable(bio, `/your-team/${bio.key}/`, undefined)) continue;
    const path = ctx.bioPath(bio);
    const summary = ctx.bioSummaryOf(bio);
    ctx.route({
      path,
      locale: bio.locale,
      originalPath: `/your-team/${bio.key}/`,
      template: 'bio',
      file: bio.file,
      alternates,
      markdown: ctx.markdownOf(bio),
      data: {
        template: 'bio',
        title: bio.fm.name,
        description: bio.fm.description ?? `${bio.fm.name}, ${bio.fm.role}`,
        body: null,
        handle: bio.key,
        name: bio.fm.name,
        role: bio.fm.role,
        email: bio.fm.email ?? null,
        linkedin: bio.fm.linkedin ?? null,
        photo: summary.photo,
        articles: ctx.byAuthor.get(`${bio.locale}\0${bio.key}`) ?? [],
      },
    });
    ctx.publishAssets(bio, path);
  }
}

/** The data of a content page, by its template: listings, team, portfolio, search scopes. */
function pageDataOf(ctx: RouteContext, page: PageEntry): PageData {
  const base = { title: page.fm.title, description: page.fm.description ?? null, body: null };
  const locale = page.locale;
  switch (page.fm.template) {
    case 'home':
      return { ...base, template: 'home', latest: ctx.summaries.get(locale)!.slice(0, LATEST_ON_HOME) };
    case 'section':
    case 'column':
      return listingData(ctx, page, listingOf(ctx, page).views[0]!, 1);
    case 'portfolio':
      return { ...base, template: 'portfolio', form: page.fm.form ?? null, series: seriesOf(ctx, locale) };
    case 'team':
      return { ...base, template: 'team', members: teamMembers(ctx, locale) };
    case 'search':
      return { ...base, template: 'search', subsite: null, subsites: ctx.subsitesOf(locale) };
    case 'not-found':
      return { ...base, template: 'not-found' };
    default:
      return { ...base, template: 'page', form: page.fm.form ?? null, ...(sentPathOf(ctx, page) ? { sentPath: sentPathOf(ctx, page)! } : {}) };
  }
}

function teamMembers(ctx: RouteContext, locale: string) {
  const names = collatorFor(ctx.hrefLangOf.get(locale) ?? locale);
  return ctx.site.bios
    .filter((b) => b.locale === locale)
    .sort((a, b) => a.fm.order - b.fm.order || names.compare(a.fm.name, b.fm.name))
    .map((b) => ctx.bioSummaryOf(b));
}

const seriesOf = (ctx: RouteContext, locale: string) =>
  ctx.site.portfolio.map((p) => ({ key: p.key, title: p.title[locale] ?? p.title[ctx.defaultLocale] ?? p.key, order: p.order, holdings: p.holdings, columns: p.columns }));

type PageCommon = { locale: string; file: string; markdown: Route['markdown']; pathField: string; pathLine: number | undefined };

/** A content page in each language, with the legacy not-found pages and the search scopes it brings. */
function pageRoutes(ctx: RouteContext, group: Map<string, PageEntry>): void {
  const pagePath = (p: PageEntry) => ctx.localize(pageOriginalPath(p, ctx.config), p.locale);
  const alternates = ctx.alternatesOf(group, pagePath);
  for (const page of group.values()) {
    const originalPath = pageOriginalPath(page, ctx.config);
    if (!ctx.publishable(page, originalPath, page.fm.path === undefined ? undefined : 'path')) continue;
    const locale = page.locale;
    const data = pageDataOf(ctx, page);
    const common: PageCommon = { locale, file: page.file, markdown: ctx.markdownOf(page), pathField: 'path', pathLine: page.fieldLines['path'] };
    const template: TemplateId = page.fm.template;
    const notFound = template === 'not-found';
    // The search page answers every path under it (`/search/<unknown>/`): it reads its scope from the address.
    const matchPath = template === 'search' ? { matchPath: `${ctx.localize('/search/', locale)}*` } : {};
    ctx.route({ ...common, path: pagePath(page), originalPath, template, alternates, data, inSitemap: !notFound, ...matchPath });
    if (!notFound) ctx.publishAssets(page, pagePath(page));
    if (template === 'section' || template === 'column') listingPageRoutes(ctx, page, group, common);
    sentPageRoutes(ctx, page, group, common, pagePath(page));

    if (notFound && locale === ctx.defaultLocale) {
      // Legacy prefixes get their own not-found page (`/cn/404.html`): hosts serve it for
      // unknown `/cn/...` paths, and its inline script sends legacy links to their page.
      for (const prefix of ctx.config.legacyPrefixes) {
        ctx.route({ ...common, path: `/${prefix}${originalPath}`, originalPath, template, alternates: [], data, inSitemap: false });
      }
    }
    if (template === 'search') searchScopeRoutes(ctx, page, group, common);
  }
}

/**
 * One page per subsite, so `/search/insights/` exists as a file on any host (and for crawlers);
 * any other `/search/...` is the search page's match path.
 */
function searchScopeRoutes(ctx: RouteContext, page: PageEntry, group: Map<string, PageEntry>, common: PageCommon): void {
  const { locale } = page;
  const base = { title: page.fm.title, description: page.fm.description ?? null, body: null };
  for (const subsite of ctx.subsitesOf(locale)) {
    ctx.route({
      ...common,
      markdown: ctx.markdownOf(page),
      path: subsite.path,
      originalPath: `/search/${subsite.key}/`,
      template: 'search-subsite',
      alternates: ctx.config.locales
        .filter((l) => group.has(l.code) && ctx.subsitesOf(l.code).some((s) => s.key === subsite.key))
        .map((l) => ({ locale: l.code, hrefLang: l.hrefLang, path: ctx.localize(`/search/${subsite.key}/`, l.code) })),
      // Its own title ("Search in Insights"), and only /search/ in the sitemap: a scoped copy is no page to index.
      data: { ...base, ...scopedSearchText(ctx.site.strings[locale] ?? {}, subsite.title), template: 'search-subsite', subsite: subsite.key, subsites: ctx.subsitesOf(locale) },
      inSitemap: false,
    });
  }
}

/** A search page scoped to a section has its own title and description ("Search in Insights"), from the UI strings. */
function scopedSearchText(strings: Record<string, string>, subsite: string): { title: string; description: string } {
  const fill = (template: string) => template.replace(/\{subsite\}/g, subsite);
  return {
    title: fill(strings['search.scopedTitle'] ?? 'Search in {subsite}'),
    description: fill(strings['search.scopedDescription'] ?? 'Search the publications of {subsite}'),
  };
}

/** A not-found page for each locale that has no `not-found` page entry, so every locale has its 404. */
export function fallbackNotFoundRoutes(routes: Route[], site: ValidSite, config: ResolvedConfig): Route[] {
  const missing = config.locales.filter((l) => !routes.some((r) => r.template === 'not-found' && r.locale === l.code));
  return missing.flatMap((l) => {
    const title = site.strings[l.code]?.['notFound.title'] ?? 'Page not found';
    const make = (path: string): Route => ({
      path,
      locale: l.code,
      hrefLang: l.hrefLang,
      originalPath: '/404.html',
      template: 'not-found',
      file: null,
      alternates: [],
      data: { template: 'not-found', title, description: null, body: null },
      markdown: null,
      inSitemap: false,
      canonicalPath: path,
    });
    const own = make(localizePath('/404.html', l.code, config.defaultLocale));
    const legacy = l.code === config.defaultLocale ? config.legacyPrefixes.map((p) => make(`/${p}/404.html`)) : [];
    return [own, ...legacy];
  });
}
