// What every kind of route needs while the graph stage decides pages: paths per language,
// alternates, the markdown of an entry, its published files, and the indexes that listings
// read (articles by locale, author and section; bios; section pages). One context per build,
// filled once; routes.ts adds the routes of each kind through it.
import type { ResolvedConfig } from '../config/resolve.js';
import type { ArticleEntry, BioEntry, Entry, PageEntry, ValidSite } from '../content/entries.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import { isOwnName, localizePath } from '../../shared/paths.js';
import type { Alternate, ArticleSummary, BioSummary, CoverImage, PortraitData } from '../../shared/types.js';
import type { MarkdownSource, PublishedFile, Route } from './model.js';
import { imageData, type ProcessedImage } from '../../shared/image-data.js';
import { withBody } from './markdown-source.js';
import { closest } from '../../errors/did-you-mean.js';
import { pathPartsProblem } from '../content/path-shape.js';
import { byText } from '../../shared/order.js';

/** `did you mean "chart.png"?` when a file next to the entry is a likely typo of `name`. */
export function didYouMean(name: string, files: readonly { name: string }[] | undefined): string | undefined {
  const guess = closest(name, (files ?? []).map((f) => f.name));
  return guess ? `did you mean "${guess}"? (the file next to the entry with the closest name)` : undefined;
}

export type Asset = ValidSite['assets'][number];
export type RouteFields = Omit<Route, 'hrefLang' | 'inSitemap' | 'canonicalPath'> & Partial<Pick<Route, 'inSitemap' | 'canonicalPath'>>;
export type SectionLink = { key: string; title: string; path: string };

/** A page path with the identity tokens filled in: `/what-is-{site}/` -> `/what-is-brightwater/`. */
export function fillTokens(path: string, identity: { site: string; name: string }): string {
  return path.replaceAll('{site}', identity.site).replaceAll('{name}', identity.name);
}

export function pageOriginalPath(page: PageEntry, config: ResolvedConfig): string {
  const raw = page.fm.path ?? (page.fm.template === 'home' ? '/' : page.fm.template === 'not-found' ? '/404.html' : `/${page.key}/`);
  return fillTokens(raw, config.identity);
}

function byDateDesc(a: ArticleSummary, b: ArticleSummary): number {
  return byText(b.date, a.date) || byText(a.key, b.key);
}

/** Groups entries of one collection by translation key. */
export function byKey<E extends Entry>(entries: E[]): Map<string, Map<string, E>> {
  const groups = new Map<string, Map<string, E>>();
  for (const e of entries) {
    const group = groups.get(e.key) ?? new Map<string, E>();
    group.set(e.locale, e);
    groups.set(e.key, group);
  }
  return groups;
}

export const dirOf = (file: string) => file.slice(0, file.lastIndexOf('/'));

/** The output of the graph stage's route pass, and the helpers that add to it. */
export class RouteContext {
  readonly diagnostics: Diagnostic[] = [];
  readonly routes: Route[] = [];
  readonly files: PublishedFile[] = [];
  readonly defaultLocale: string;
  readonly hrefLangOf: ReadonlyMap<string, string>;
  private readonly assetsIn = new Map<string, Asset[]>();
  /** Article summaries of one date-sorted pass, by locale, by `locale\0author` and by `locale\0section`. */
  readonly summaries: Map<string, ArticleSummary[]>;
  readonly byAuthor = new Map<string, ArticleSummary[]>();
  readonly bySection = new Map<string, ArticleSummary[]>();
  readonly bioGroups: Map<string, Map<string, BioEntry>>;
  readonly sectionPages: PageEntry[];
  readonly sectionKeys: Set<string>;
  private readonly portraits = new Map<BioEntry, PortraitData | null>();
  private readonly bioSummaries = new Map<BioEntry, BioSummary>();
  private readonly sectionLinks = new Map<string, SectionLink[]>();

  constructor(
    readonly site: ValidSite,
    readonly config: ResolvedConfig,
    private readonly images: ReadonlyMap<string, ProcessedImage>,
  ) {
    this.defaultLocale = config.defaultLocale;
    this.hrefLangOf = new Map(config.locales.map((l) => [l.code, l.hrefLang]));
    for (const a of site.assets) this.assetsIn.set(a.dir, [...(this.assetsIn.get(a.dir) ?? []), a]);
    // Listings are slices of one date-sorted pass, indexed by locale, author and section:
    // no listing page scans every article (that was quadratic at thousands of articles).
    this.summaries = new Map(config.locales.map((l) => [l.code, []]));
    const listIn = (index: Map<string, ArticleSummary[]>, key: string) => index.get(key) ?? index.set(key, []).get(key)!;
    const sorted = site.articles.map((a) => ({ a, summary: this.summaryOf(a) })).sort((x, y) => byDateDesc(x.summary, y.summary));
    for (const { a, summary } of sorted) {
      this.summaries.get(a.locale)?.push(summary);
      if (a.fm.author) listIn(this.byAuthor, `${a.locale}\0${a.fm.author}`).push(summary);
      for (const section of new Set(a.fm.sections)) listIn(this.bySection, `${a.locale}\0${section}`).push(summary);
    }
    this.bioGroups = byKey(site.bios);
    this.sectionPages = site.pages.filter((p) => p.fm.template === 'section' || p.fm.template === 'column');
    this.sectionKeys = new Set(this.sectionPages.map((p) => this.sectionOf(p)));
  }

  localize(originalPath: string, locale: string): string {
    return localizePath(originalPath, locale, this.defaultLocale);
  }

  /**
   * Whether an entry may be published at `originalPath` (before its language's prefix), as a
   * folder name, a `path`, a slug or the identity made it; if not, an error at the field that
   * made it. A path under a language's or a legacy prefix would be another language's page, or
   * one every host redirects away from.
   */
  publishable(entry: Entry, originalPath: string, field: string | undefined): boolean {
    const first = originalPath.split('/')[1]?.toLowerCase() ?? '';
    const languages = this.config.locales.filter((l) => l.code !== this.defaultLocale).map((l) => l.code);
    const whose =
      first === entry.locale && languages.includes(first)
        ? `its language's prefix, which the build adds: write the path without it`
        : languages.includes(first)
          ? `the prefix of another language's pages`
          : this.config.legacyPrefixes.includes(first)
            ? 'a legacy prefix that every host redirects away from'
            : isOwnName(first)
              ? 'a name the build writes its own files under (the runtime, records, search indexes, the offline worker, host files)'
              : null;
    const problem = whose ? `it starts with /${first}/, ${whose}` : pathPartsProblem(originalPath, { page: true });
    if (!problem) return true;
    const line = field === undefined ? undefined : entry.fieldLines[field];
    this.diagnostics.push(
      diagnostic('graph/invalid-path', {
        file: entry.file,
        ...(line === undefined ? {} : { line, field }),
        message: `this entry cannot be published at ${originalPath}: ${problem}`,
        ...(field === undefined ? { hint: `the path is made from the folder name ${dirOf(entry.file)}: rename the folder (lower-case letters, digits and dashes)` } : {}),
      }),
    );
    return false;
  }

  assetsOf(entry: Entry): Asset[] {
    return this.assetsIn.get(dirOf(entry.file)) ?? [];
  }

  /** Alternates of a translation group: each existing translation's path, this page's included. */
  alternatesOf<E extends Entry>(group: Map<string, E>, pathOf: (e: E) => string): Alternate[] {
    return this.config.locales
      .filter((l) => group.has(l.code))
      .map((l) => ({ locale: l.code, hrefLang: l.hrefLang, path: pathOf(group.get(l.code)!) }));
  }

  route(fields: RouteFields): Route {
    const r: Route = {
      hrefLang: this.hrefLangOf.get(fields.locale) ?? fields.locale,
      inSitemap: true,
      canonicalPath: fields.path,
      ...fields,
    };
    this.routes.push(r);
    return r;
  }

  /** Files next to an entry are published at its page path, in each language it has; never over one of the build's own (at `/`). */
  publishAssets(entry: Entry, pagePath: string): void {
    for (const asset of this.assetsOf(entry)) {
      const file = `${dirOf(entry.file)}/${asset.name}`;
      const to = `${pagePath}${asset.name}`;
      if (pagePath === '/' && isOwnName(asset.name)) {
        this.diagnostics.push(diagnostic('graph/invalid-path', { file, message: `this file cannot be published at ${to}: the build writes its own ${asset.name} there`, hint: 'rename the file' }));
      } else this.files.push({ from: asset.absPath, file, to });
    }
  }

  /** An article's cover image: a processed raster image next to it, in the layout it names. */
  coverOf(a: ArticleEntry): CoverImage | null {
    const cover = a.fm.cover;
    if (!cover) return null;
    const asset = (this.assetsIn.get(dirOf(a.file)) ?? []).find((f) => f.name === cover.file);
    const processed = asset ? this.images.get(asset.absPath) : undefined;
    if (!asset || !processed) {
      this.diagnostics.push(
        diagnostic('content/missing-file', {
          file: a.file,
          line: a.fieldLines['cover'],
          field: 'cover.file',
          message: asset ? `the cover "${cover.file}" is not an image ir-site can process (JPEG, PNG, WebP or AVIF)` : `the cover "${cover.file}" is not next to this article`,
          hint: `put a JPEG, PNG, WebP or AVIF file in ${dirOf(a.file)}/ and name it in cover.file (names are case-sensitive)`,
        }),
      );
      return null;
    }
    return { image: imageData(processed, cover.layout), alt: cover.alt, share: shareVariant(processed) };
  }

  /** The body, with the files next to it: the renderer resolves its images there (and reports those missing). */
  markdownOf(e: Entry): MarkdownSource {
    const folder = Object.fromEntries(this.assetsOf(e).map((asset) => [asset.name, this.images.get(asset.absPath) ?? null]));
    // With the build cache, an unchanged body is not read (null): the build reads it only if the page is rendered.
    return withBody({ file: e.file, line: e.bodyLine, locale: e.locale, folder }, e);
  }

  articlePath(a: ArticleEntry): string {
    return this.localize(`/article/${a.fm.slug}/`, a.locale);
  }

  private summaryOf(a: ArticleEntry): ArticleSummary {
    return { key: a.key, title: a.fm.title, description: a.fm.description ?? null, date: a.fm.date, type: a.fm.type, path: this.articlePath(a), quarter: a.fm.quarter ?? null };
  }

  bioPath(b: BioEntry): string {
    return this.localize(`/your-team/${b.key}/`, b.locale);
  }

  bioByHandle(handle: string, locale: string): BioEntry | null {
    return this.bioGroups.get(handle)?.get(locale) ?? null;
  }

  portraitOf(bio: BioEntry): PortraitData | null {
    if (!this.portraits.has(bio)) this.portraits.set(bio, this.findPortrait(bio));
    return this.portraits.get(bio)!;
  }

  private findPortrait(bio: BioEntry): PortraitData | null {
    const assets = this.assetsOf(bio);
    const wanted = bio.fm.photo;
    const photo = wanted ? assets.find((a) => a.name === wanted) : assets.find((a) => /^photo\.(jpe?g|png|webp|avif|gif)$/i.test(a.name));
    if (wanted && !photo) {
      this.diagnostics.push(
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
    const processed = this.images.get(photo.absPath);
    return {
      src: `${this.bioPath(bio)}${photo.name}`,
      width: photo.width ?? 0,
      height: photo.height ?? 0,
      alt: bio.fm.name,
      image: processed ? imageData(processed) : null,
    };
  }

  // One summary per bio, and one list of section links per locale and sections, shared by every
  // route that shows it: otherwise every article holds its own copy of its author's summary and
  // portrait data, in memory and in the graph snapshot (incremental/graph-snapshot.ts).
  bioSummaryOf(bio: BioEntry): BioSummary {
    let summary = this.bioSummaries.get(bio);
    if (!summary) this.bioSummaries.set(bio, (summary = { handle: bio.key, name: bio.fm.name, role: bio.fm.role, path: this.bioPath(bio), photo: this.portraitOf(bio) }));
    return summary;
  }

  sectionOf(p: PageEntry): string {
    return p.fm.section ?? p.key;
  }

  sectionLinksOf(sections: string[], locale: string): SectionLink[] {
    const memo = `${locale}\0${sections.join('\0')}`;
    let links = this.sectionLinks.get(memo);
    if (!links) {
      links = sections.flatMap((key) => {
        const page = this.sectionPages.find((p) => p.locale === locale && this.sectionOf(p) === key);
        return page ? [{ key, title: page.fm.navTitle ?? page.fm.title, path: this.localize(pageOriginalPath(page, this.config), locale) }] : [];
      });
      this.sectionLinks.set(memo, links);
    }
    return links;
  }

  /** The search scopes of a language: one per section or column page. */
  subsitesOf(locale: string): SectionLink[] {
    return this.sectionPages
      .filter((p) => p.locale === locale)
      .map((p) => ({ key: this.sectionOf(p), title: p.fm.title, path: this.localize(`/search/${this.sectionOf(p)}/`, locale) }));
  }
}

/** Formats link previews show (X's cards take JPEG, PNG, WebP and GIF; AVIF is not among them). */
const SHAREABLE = ['jpeg', 'png', 'webp', 'gif'];
/** The smallest image a large link preview takes (X's summary_large_image: 300×157). */
const SHARE_MIN = { width: 300, height: 157 };

/**
 * A cover's widest variant in a format previews show, its own format first: the page's og:image.
 * None for a cover too small for a large preview: the page shares the identity's card instead.
 */
function shareVariant(processed: ProcessedImage): CoverImage['share'] {
  const format = [processed.format, 'webp'].find((f) => SHAREABLE.includes(f) && processed.variants.some((v) => v.format === f));
  const widest = processed.variants.filter((v) => v.format === format).sort((x, y) => y.width - x.width)[0];
  if (!widest) return null;
  const height = Math.round((processed.height * widest.width) / processed.width);
  return widest.width >= SHARE_MIN.width && height >= SHARE_MIN.height ? { src: widest.path, width: widest.width, height } : null;
}
