// Decides every page: its path per language, template, alternates, listings and data.
// Pure: entries in, routes and diagnostics out.
import type { ResolvedConfig } from '../config/resolve.js';
import type { ArticleEntry, BioEntry, Entry, PageEntry, ValidSite } from '../content/entries.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import { localizePath } from '../../shared/paths.js';
import type {
  Alternate,
  ArticleData,
  ArticleSummary,
  BioSummary,
  DocumentLink,
  ImageData,
  PageData,
  PortraitData,
  TemplateId,
} from '../../shared/types.js';
import type { MarkdownSource, PublishedFile, Route } from './model.js';
import { imageData, type ProcessedImage } from '../images/image-data.js';
import { imageReferences } from '../images/references.js';
import { closest } from '../../errors/did-you-mean.js';

/** `did you mean "chart.png"?` when a file next to the entry is a likely typo of `name`. */
function didYouMean(name: string, files: readonly { name: string }[] | undefined): string | undefined {
  const guess = closest(name, (files ?? []).map((f) => f.name));
  return guess ? `did you mean "${guess}"? (the file next to the entry with the closest name)` : undefined;
}

const LATEST_ON_HOME = 6;
const isUrl = (s: string) => /^https?:\/\//i.test(s);

export interface RoutesResult {
  routes: Route[];
  files: PublishedFile[];
  diagnostics: Diagnostic[];
}

/** A page path with the identity tokens filled in: `/what-is-{site}/` -> `/what-is-brightwater/`. */
export function fillTokens(path: string, identity: { site: string; name: string }): string {
  return path.replaceAll('{site}', identity.site).replaceAll('{name}', identity.name);
}

function byDateDesc(a: ArticleSummary, b: ArticleSummary): number {
  return b.date.localeCompare(a.date) || a.key.localeCompare(b.key);
}

/** Groups entries of one collection by translation key. */
function byKey<E extends Entry>(entries: E[]): Map<string, Map<string, E>> {
  const groups = new Map<string, Map<string, E>>();
  for (const e of entries) {
    const group = groups.get(e.key) ?? new Map<string, E>();
    group.set(e.locale, e);
    groups.set(e.key, group);
  }
  return groups;
}

export function pageOriginalPath(page: PageEntry, config: ResolvedConfig): string {
  const raw = page.fm.path ?? (page.fm.template === 'home' ? '/' : page.fm.template === 'not-found' ? '/404.html' : `/${page.key}/`);
  return fillTokens(raw, config.identity);
}

export function buildRoutes(site: ValidSite, config: ResolvedConfig, images: ReadonlyMap<string, ProcessedImage> = new Map()): RoutesResult {
  const diagnostics: Diagnostic[] = [];
  const routes: Route[] = [];
  const files: PublishedFile[] = [];
  const { defaultLocale } = config;
  const hrefLangOf = new Map(config.locales.map((l) => [l.code, l.hrefLang]));
  const localize = (originalPath: string, locale: string) => localizePath(originalPath, locale, defaultLocale);
  const assetsIn = new Map<string, { name: string; absPath: string; width?: number; height?: number }[]>();
  for (const a of site.assets) assetsIn.set(a.dir, [...(assetsIn.get(a.dir) ?? []), a]);
  const dirOf = (file: string) => file.slice(0, file.lastIndexOf('/'));

  /** Alternates of a translation group: each existing translation's path, this page's included. */
  function alternatesOf<E extends Entry>(group: Map<string, E>, pathOf: (e: E) => string): Alternate[] {
    return config.locales
      .filter((l) => group.has(l.code))
      .map((l) => ({ locale: l.code, hrefLang: l.hrefLang, path: pathOf(group.get(l.code)!) }));
  }

  function route(fields: Omit<Route, 'hrefLang' | 'inSitemap' | 'canonicalPath'> & Partial<Pick<Route, 'inSitemap' | 'canonicalPath'>>): Route {
    const r: Route = {
      hrefLang: hrefLangOf.get(fields.locale) ?? fields.locale,
      inSitemap: true,
      canonicalPath: fields.path,
      ...fields,
    };
    routes.push(r);
    return r;
  }

  /** Files next to an entry are published at its page path, in each language it has. */
  const publishAssets = (entry: Entry, pagePath: string) => {
    for (const asset of assetsIn.get(dirOf(entry.file)) ?? []) files.push({ from: asset.absPath, file: `${dirOf(entry.file)}/${asset.name}`, to: `${pagePath}${asset.name}` });
  };

  /** The body, with its relative image references resolved to processed images (missing ones reported). */
  const markdownOf = (e: Entry): MarkdownSource => {
    const resolved: Record<string, ImageData> = {};
    for (const ref of e.imageRefs ?? imageReferences(e.body)) {
      if (/^([a-z]+:|\/|#|data:)/i.test(ref.src)) continue; // absolute URLs and site paths are not ours to check here
      const name = decodeURIComponent(ref.src.replace(/^\.\//, ''));
      const asset = (assetsIn.get(dirOf(e.file)) ?? []).find((a) => a.name === name);
      if (!asset) {
        diagnostics.push(
          diagnostic('content/missing-image', {
            file: e.file,
            line: e.bodyLine + ref.line - 1,
            message: `the image "${ref.src}" is not next to this entry`,
            hint: didYouMean(name, assetsIn.get(dirOf(e.file))) ?? `put the file in ${dirOf(e.file)}/, or fix the name (names are case-sensitive)`,
          }),
        );
        continue;
      }
      const processed = images.get(asset.absPath);
      // The rendered tree carries the URL-encoded form (`b%20c.png`): resolve both spellings.
      if (processed) resolved[ref.src] = resolved[encodeURI(ref.src)] = imageData(processed);
    }
    // `text` reads through to the entry: with the build cache, an unchanged body is read from its file only if the page is rendered.
    return {
      get text() {
        return e.body;
      },
      file: e.file,
      line: e.bodyLine,
      locale: e.locale,
      images: resolved,
      ...(e.bodyDigest ? { digest: e.bodyDigest } : {}),
    };
  };

  // --- Articles, first: listings on pages and bios need their summaries.
  const articleGroups = byKey(site.articles);
  const articlePath = (a: ArticleEntry) => localize(`/article/${a.fm.slug}/`, a.locale);
  const summaryOf = (a: ArticleEntry): ArticleSummary => ({
    key: a.key,
    title: a.fm.title,
    description: a.fm.description ?? null,
    date: a.fm.date,
    type: a.fm.type,
    path: articlePath(a),
    quarter: a.fm.quarter ?? null,
  });
  // Listings are slices of one date-sorted pass, indexed by locale, author and section:
  // no listing page scans every article (that was quadratic at thousands of articles).
  const summaries = new Map<string, ArticleSummary[]>(config.locales.map((l) => [l.code, []]));
  const byAuthor = new Map<string, ArticleSummary[]>();
  const bySection = new Map<string, ArticleSummary[]>();
  const listIn = (index: Map<string, ArticleSummary[]>, key: string) => index.get(key) ?? index.set(key, []).get(key)!;
  const sorted = site.articles.map((a) => ({ a, summary: summaryOf(a) })).sort((x, y) => byDateDesc(x.summary, y.summary));
  for (const { a, summary } of sorted) {
    summaries.get(a.locale)?.push(summary);
    if (a.fm.author) listIn(byAuthor, `${a.locale}\0${a.fm.author}`).push(summary);
    for (const section of new Set(a.fm.sections)) listIn(bySection, `${a.locale}\0${section}`).push(summary);
  }

  // --- Bios.
  const bioGroups = byKey(site.bios);
  const bioPath = (b: BioEntry) => localize(`/your-team/${b.key}/`, b.locale);
  const bioByHandle = (handle: string, locale: string) => bioGroups.get(handle)?.get(locale) ?? null;

  const portraits = new Map<BioEntry, PortraitData | null>();
  function portraitOf(bio: BioEntry): PortraitData | null {
    if (!portraits.has(bio)) portraits.set(bio, findPortrait(bio));
    return portraits.get(bio)!;
  }
  function findPortrait(bio: BioEntry): PortraitData | null {
    const assets = assetsIn.get(dirOf(bio.file)) ?? [];
    const wanted = bio.fm.photo;
    const photo = wanted ? assets.find((a) => a.name === wanted) : assets.find((a) => /^photo\.(jpe?g|png|webp)$/i.test(a.name));
    if (wanted && !photo) {
      diagnostics.push(
        diagnostic('content/missing-file', {
          file: bio.file,
          line: bio.fieldLines['photo'],
          field: 'photo',
          message: `the photo "${wanted}" is not next to this bio`,
          hint: didYouMean(wanted, assets) ?? `put the file in ${dirOf(bio.file)}/ or remove the field to use photo.jpg`,
        }),
      );
    }
    if (!photo) return null;
    const processed = images.get(photo.absPath);
    return {
      src: `${bioPath(bio)}${photo.name}`,
      width: photo.width ?? 0,
      height: photo.height ?? 0,
      alt: bio.fm.name,
      image: processed ? imageData(processed) : null,
    };
  }

  // One summary per bio, and one list of section links per locale and sections, shared by every
  // route that shows it: an author's summary (with its portrait's image data) is ~1.3 KB, and
  // 8000 articles each had their own copy, in memory and in the graph snapshot (incremental/graph-snapshot.ts).
  const bioSummaries = new Map<BioEntry, BioSummary>();
  const bioSummaryOf = (bio: BioEntry): BioSummary => {
    let summary = bioSummaries.get(bio);
    if (!summary) bioSummaries.set(bio, (summary = { handle: bio.key, name: bio.fm.name, role: bio.fm.role, path: bioPath(bio), photo: portraitOf(bio) }));
    return summary;
  };

  // --- Sections: which section keys exist, per locale, from section and column pages.
  const pageGroups = byKey(site.pages);
  const sectionOf = (p: PageEntry) => p.fm.section ?? p.key;
  const sectionPages = site.pages.filter((p) => p.fm.template === 'section' || p.fm.template === 'column');
  const sectionKeys = new Set(sectionPages.map(sectionOf));
  const sectionLinks = new Map<string, { key: string; title: string; path: string }[]>();
  const sectionLinksOf = (sections: string[], locale: string) => {
    const memo = `${locale}\0${sections.join('\0')}`;
    let links = sectionLinks.get(memo);
    if (!links) {
      links = sections.flatMap((key) => {
        const page = sectionPages.find((p) => p.locale === locale && sectionOf(p) === key);
        return page ? [{ key, title: page.fm.navTitle ?? page.fm.title, path: localize(pageOriginalPath(page, config), locale) }] : [];
      });
      sectionLinks.set(memo, links);
    }
    return links;
  };
  const subsitesOf = (locale: string) =>
    sectionPages
      .filter((p) => p.locale === locale)
      .map((p) => ({ key: sectionOf(p), title: p.fm.title, path: localize(`/search/${sectionOf(p)}/`, locale) }));

  // --- Article routes.
  for (const [, group] of articleGroups) {
    const alternates = alternatesOf(group, articlePath);
    for (const a of group.values()) {
      const path = articlePath(a);
      const author = a.fm.author ? bioByHandle(a.fm.author, a.locale) ?? bioByHandle(a.fm.author, defaultLocale) : null;
      if (a.fm.author && !site.teamHandles.has(a.fm.author)) {
        diagnostics.push(
          diagnostic('graph/unknown-author', {
            file: a.file,
            line: a.fieldLines['author'],
            field: 'author',
            message: `unknown author "${a.fm.author}": there is no team member with this handle`,
            hint: `authors are folder names under content/team/: ${[...site.teamHandles].sort().join(', ')}`,
          }),
        );
      }
      a.fm.sections.forEach((section) => {
        if (!sectionKeys.has(section)) {
          diagnostics.push(
            diagnostic('graph/unknown-section', {
              file: a.file,
              line: a.fieldLines['sections'],
              field: 'sections',
              message: `unknown section "${section}"`,
              hint: `sections are declared by section pages (front matter section:): ${[...sectionKeys].sort().join(', ')}`,
            }),
          );
        }
      });
      const assets = assetsIn.get(dirOf(a.file)) ?? [];
      const documents: DocumentLink[] = a.fm.documents.map((d, i) => {
        if (isUrl(d.file)) return { label: d.label, href: d.file, local: false };
        if (!assets.some((f) => f.name === d.file)) {
          diagnostics.push(
            diagnostic('content/missing-file', {
              file: a.file,
              line: a.fieldLines['documents'],
              field: `documents[${i}].file`,
              message: `the document "${d.file}" is not next to this article`,
              hint: didYouMean(d.file, assets) ?? `put the file in ${dirOf(a.file)}/ or give an absolute https:// URL`,
            }),
          );
        }
        return { label: d.label, href: `${path}${d.file}`, local: true };
      });
      const data: ArticleData = {
        template: 'article',
        title: a.fm.title,
        description: a.fm.description ?? null,
        body: null,
        key: a.key,
        slug: a.fm.slug,
        date: a.fm.date,
        type: a.fm.type,
        sections: a.fm.sections,
        sectionLinks: sectionLinksOf(a.fm.sections, a.locale),
        quarter: a.fm.quarter ?? null,
        author: author ? bioSummaryOf(author) : null,
        video: a.fm.video ?? null,
        documents,
      };
      const common = { locale: a.locale, template: 'article' as const, file: a.file, data, markdown: markdownOf(a) };
      route({ ...common, path, originalPath: `/article/${a.fm.slug}/`, alternates, pathField: 'slug', pathLine: a.fieldLines['slug'] });
      publishAssets(a, path);
      if (a.fm.atRoot) {
        const rootAlternates = alternatesOf(group, (t) => (t.fm.atRoot ? localize(`/${t.fm.slug}/`, t.locale) : articlePath(t)));
        route({
          ...common,
          path: localize(`/${a.fm.slug}/`, a.locale),
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

  // --- Bio routes.
  for (const [, group] of bioGroups) {
    const alternates = alternatesOf(group, bioPath);
    for (const bio of group.values()) {
      const path = bioPath(bio);
      const summary = bioSummaryOf(bio);
      route({
        path,
        locale: bio.locale,
        originalPath: `/your-team/${bio.key}/`,
        template: 'bio',
        file: bio.file,
        alternates,
        markdown: markdownOf(bio),
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
          articles: byAuthor.get(`${bio.locale}\0${bio.key}`) ?? [],
        },
      });
      publishAssets(bio, path);
    }
  }

  // --- Page routes.
  const teamMembers = (locale: string) =>
    site.bios
      .filter((b) => b.locale === locale)
      .sort((a, b) => a.fm.order - b.fm.order || a.fm.name.localeCompare(b.fm.name))
      .map(bioSummaryOf);
  const seriesOf = (locale: string) =>
    site.portfolio.map((p) => ({ key: p.key, title: p.title[locale] ?? p.title[defaultLocale] ?? p.key, order: p.order, holdings: p.holdings }));

  for (const [, group] of pageGroups) {
    const pagePath = (p: PageEntry) => localize(pageOriginalPath(p, config), p.locale);
    const alternates = alternatesOf(group, pagePath);
    for (const page of group.values()) {
      const originalPath = pageOriginalPath(page, config);
      const base = { title: page.fm.title, description: page.fm.description ?? null, body: null };
      const locale = page.locale;
      const data = ((): PageData => {
        switch (page.fm.template) {
          case 'home':
            return { ...base, template: 'home', latest: summaries.get(locale)!.slice(0, LATEST_ON_HOME) };
          case 'section':
          case 'column': {
            const section = sectionOf(page);
            return { ...base, template: page.fm.template, section, articles: bySection.get(`${locale}\0${section}`) ?? [] };
          }
          case 'portfolio':
            return { ...base, template: 'portfolio', form: page.fm.form ?? null, series: seriesOf(locale) };
          case 'team':
            return { ...base, template: 'team', members: teamMembers(locale) };
          case 'search':
            return { ...base, template: 'search', subsite: null, subsites: subsitesOf(locale) };
          case 'not-found':
            return { ...base, template: 'not-found' };
          default:
            return { ...base, template: 'page', form: page.fm.form ?? null };
        }
      })();
      const common = { locale, file: page.file, markdown: markdownOf(page), pathField: 'path', pathLine: page.fieldLines['path'] };
      const template: TemplateId = page.fm.template;
      const notFound = template === 'not-found';
      route({ ...common, path: pagePath(page), originalPath, template, alternates, data, inSitemap: !notFound });
      if (!notFound) publishAssets(page, pagePath(page));

      if (notFound && locale === defaultLocale) {
        // Legacy prefixes get their own not-found page (`/cn/404.html`): hosts serve it for
        // unknown `/cn/...` paths, and its inline script sends legacy links to their page.
        for (const prefix of config.legacyPrefixes) {
          route({ ...common, path: `/${prefix}${originalPath}`, originalPath, template, alternates: [], data, inSitemap: false });
        }
      }
      if (template === 'search') {
        // One page per subsite, so `/search/insights/` exists on a plain static host;
        // matchPath lets the runtime serve any other `/search/...` with the same template.
        for (const subsite of subsitesOf(locale)) {
          route({
            ...common,
            markdown: markdownOf(page),
            path: subsite.path,
            originalPath: `/search/${subsite.key}/`,
            template: 'search-subsite',
            matchPath: `${localize('/search/', locale)}*`,
            alternates: config.locales
              .filter((l) => group.has(l.code) && subsitesOf(l.code).some((s) => s.key === subsite.key))
              .map((l) => ({ locale: l.code, hrefLang: l.hrefLang, path: localize(`/search/${subsite.key}/`, l.code) })),
            data: { ...base, ...scopedSearchText(site.strings[locale] ?? {}, subsite.title), template: 'search-subsite', subsite: subsite.key, subsites: subsitesOf(locale) },
            // The scoped copies are ways into one search, not pages of their own to index.
            inSitemap: false,
          });
        }
      }
    }
  }

  return { routes, files, diagnostics };
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
    const make = (path: string, inSitemap = false): Route => ({
      path,
      locale: l.code,
      hrefLang: l.hrefLang,
      originalPath: '/404.html',
      template: 'not-found',
      file: null,
      alternates: [],
      data: { template: 'not-found', title, description: null, body: null },
      markdown: null,
      inSitemap,
      canonicalPath: path,
    });
    const own = make(localizePath('/404.html', l.code, config.defaultLocale));
    const legacy = l.code === config.defaultLocale ? config.legacyPrefixes.map((p) => make(`/${p}/404.html`)) : [];
    return [own, ...legacy];
  });
}
