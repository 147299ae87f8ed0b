// One HTML page -> the compact facts the checks need (ids, links, images, head), in one
// streaming pass of htmlparser2 (no DOM is built). Pure: text in, facts out.
import { Parser } from 'htmlparser2';
import { CONTENT_ID_PREFIX, PAGE_DATA_SCRIPT_ID, ROOT_ID } from '../../shared/dom-ids.js';

/** Where a reference sits in the page: the page's own markup, or the document head. */
export type LinkPlace = 'body' | 'head';

export interface LinkFact {
  /** `a`, `area`, `img`, `source`, `iframe`, `script`, `link`, `video`, `audio`, `track`. */
  tag: string;
  /** `href`, `src`, `srcset`. */
  attr: string;
  /** The URL as written (one candidate of a srcset). */
  url: string;
  place: LinkPlace;
  /** `rel` of a `<link>`. */
  rel?: string;
  /** `hreflang` (or `lang`) of an `<a>`: a deliberate link to another language. */
  hreflang?: string;
}

export interface ImageFact {
  src: string;
  /** null when the `alt` attribute is absent (empty string when present and empty). */
  alt: string | null;
}

export interface PageFacts {
  /** Site path of the page: `/article/x/`, `/404.html`. */
  path: string;
  /** `<html lang>`. */
  lang: string | null;
  title: string | null;
  /** `<meta name="description">` content; null when absent. */
  description: string | null;
  /** `<meta property="og:site_name">`: the fallback description when an entry has none. */
  siteName: string | null;
  noindex: boolean;
  canonical: string | null;
  /** `<link rel="alternate" hreflang>`, in order. */
  alternates: { hreflang: string; href: string }[];
  /** Every id (and `<a name>`) in the document: fragment targets. */
  ids: Set<string>;
  /** `id` attributes found on more than one element, with how many elements have each. */
  duplicateIds: Map<string, number>;
  /** References in the page's own markup (inside #___gatsby), the head links and script sources. */
  links: LinkFact[];
  /** `<img>` inside #___gatsby. */
  images: ImageFact[];
  /**
   * The text of each `<a>` inside #___gatsby that has no `href` (and no `id` or `name`, which
   * would make it an anchor): a link whose address was removed, most often by the sanitiser.
   */
  linksWithoutHref: string[];
  /** The template that rendered the page (from `data-component-chunk`), e.g. `article`. */
  template: string | null;
  /** The page record's `matchPath`, when the page serves a wildcard (`/search/*`). */
  matchPath: string | null;
}

const URL_ATTRS: Record<string, readonly string[]> = {
  a: ['href'],
  area: ['href'],
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  iframe: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
  embed: ['src'],
};

/** The URLs of a `srcset`: candidates are separated by commas, each URL followed by an optional descriptor. */
export function srcsetUrls(srcset: string): string[] {
  // The HTML spec's algorithm, reduced: a URL runs to the next whitespace (trailing commas
  // end the candidate), then descriptors run to the next comma.
  const urls: string[] = [];
  const n = srcset.length;
  let i = 0;
  while (i < n) {
    while (i < n && /[\s,]/.test(srcset[i]!)) i++;
    const start = i;
    while (i < n && !/\s/.test(srcset[i]!)) i++;
    let url = srcset.slice(start, i);
    if (url.endsWith(',')) url = url.replace(/,+$/, '');
    else while (i < n && srcset[i] !== ',') i++;
    if (url !== '') urls.push(url);
  }
  return urls;
}

const JSON_SCRIPT = '<script type="application/json"';

/**
 * The page without the contents of its inline JSON scripts (the page record and the static
 * queries: most of a page's bytes, and no markup), plus the record's `matchPath`. Parsing
 * then costs what the markup costs.
 */
export function withoutJsonScripts(html: string): { markup: string; matchPath: string | null } {
  let matchPath: string | null = null;
  const parts: string[] = [];
  let from = 0;
  for (let start = html.indexOf(JSON_SCRIPT); start !== -1; start = html.indexOf(JSON_SCRIPT, from)) {
    const open = html.indexOf('>', start);
    const close = html.indexOf('</script', open);
    if (open === -1 || close === -1) break;
    if (html.slice(start, open).includes(`id="${PAGE_DATA_SCRIPT_ID}"`)) {
      // The record's matchPath is set last, so it sits at the end of the JSON; look at both ends.
      const ends = html.slice(open, Math.min(close, open + 400)) + html.slice(Math.max(open, close - 400), close);
      const m = /"matchPath":"((?:[^"\\]|\\.)*)"/.exec(ends);
      if (m) matchPath = JSON.parse(`"${m[1]}"`) as string;
    }
    parts.push(html.slice(from, open + 1));
    from = close;
  }
  parts.push(html.slice(from));
  return { markup: parts.length === 1 ? html : parts.join(''), matchPath };
}

/** A page's facts before its markup is read. */
function emptyFacts(path: string, matchPath: PageFacts['matchPath']): PageFacts {
  return {
    path,
    lang: null,
    title: null,
    description: null,
    siteName: null,
    noindex: false,
    canonical: null,
    alternates: [],
    ids: new Set(),
    duplicateIds: new Map(),
    links: [],
    images: [],
    linksWithoutHref: [],
    template: null,
    matchPath,
  };
}

/** Adds to `ids` a content id (`user-content-foo`) without its prefix (`foo`): the runtime finds it by that too. */
export function addContentAlias(ids: Set<string>, id: string | undefined): void {
  if (id?.startsWith(CONTENT_ID_PREFIX)) ids.add(id.slice(CONTENT_ID_PREFIX.length));
}

export function parsePage(html: string, path: string): PageFacts {
  const stripped = withoutJsonScripts(html);
  const facts = emptyFacts(path, stripped.matchPath);
  let depth = 0;
  /** Depth of the #___gatsby element while inside it, else -1. */
  let rootDepth = -1;
  let inHead = false;
  let inTitle = false;
  let title = '';
  /** How many elements carry each `id` attribute. */
  const idCounts = new Map<string, number>();
  /** The text of the `<a>` without href being read, else null. */
  let hrefless: string | null = null;

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        depth += 1;
        const id = attrs['id'];
        if (id !== undefined) {
          facts.ids.add(id);
          idCounts.set(id, (idCounts.get(id) ?? 0) + 1);
          if (id === ROOT_ID) {
            rootDepth = depth;
            const chunk = attrs['data-component-chunk'];
            const m = chunk ? /^component---templates-(.+)-tsx$/.exec(chunk) : null;
            facts.template = m ? m[1]! : null;
          }
        }
        const inRoot = rootDepth !== -1;
        switch (name) {
          case 'html':
            facts.lang = attrs['lang'] ?? null;
            return;
          case 'head':
            inHead = true;
            return;
          case 'title':
            if (inHead) inTitle = true;
            return;
          case 'meta': {
            if (!inHead) return;
            const key = attrs['name'] ?? attrs['property'];
            if (key === 'description') facts.description = attrs['content'] ?? '';
            else if (key === 'og:site_name') facts.siteName = attrs['content'] ?? null;
            else if (key === 'robots' && /\bnoindex\b/i.test(attrs['content'] ?? '')) facts.noindex = true;
            return;
          }
          case 'link': {
            const href = attrs['href'];
            if (href === undefined) return;
            const rel = (attrs['rel'] ?? '').toLowerCase();
            if (rel === 'canonical') facts.canonical = href;
            if (rel === 'alternate' && attrs['hreflang'] !== undefined) {
              facts.alternates.push({ hreflang: attrs['hreflang'], href });
              return;
            }
            facts.links.push({ tag: 'link', attr: 'href', url: href, place: inRoot ? 'body' : 'head', rel });
            return;
          }
          case 'script': {
            const src = attrs['src'];
            if (src !== undefined) facts.links.push({ tag: 'script', attr: 'src', url: src, place: inRoot ? 'body' : 'head' });
            return;
          }
        }
        if (!inRoot) return;
        if (name === 'a' && attrs['name'] !== undefined) facts.ids.add(attrs['name']);
        // A content id is also found without its prefix, as GitHub finds it (client/own-elements.ts).
        addContentAlias(facts.ids, id);
        if (name === 'a') addContentAlias(facts.ids, attrs['name']);
        if (name === 'a' && attrs['href'] === undefined && attrs['name'] === undefined && id === undefined) hrefless = '';
        if (name === 'img') facts.images.push({ src: attrs['src'] ?? '', alt: attrs['alt'] ?? null });
        const wanted = URL_ATTRS[name];
        if (!wanted) return;
        for (const attr of wanted) {
          const value = attrs[attr];
          if (value === undefined) continue;
          if (attr === 'srcset') {
            for (const url of srcsetUrls(value)) facts.links.push({ tag: name, attr, url, place: 'body' });
            continue;
          }
          const link: LinkFact = { tag: name, attr, url: value.trim(), place: 'body' };
          const hreflang = attrs['hreflang'] ?? attrs['lang'];
          if (name === 'a' && hreflang !== undefined) link.hreflang = hreflang;
          facts.links.push(link);
        }
      },
      ontext(text) {
        if (inTitle) title += text;
        if (hrefless !== null) hrefless += text;
      },
      onclosetag(name) {
        if (depth === rootDepth) rootDepth = -1;
        if (name === 'a' && hrefless !== null) {
          facts.linksWithoutHref.push(hrefless.replace(/\s+/g, ' ').trim());
          hrefless = null;
        }
        depth -= 1;
        if (name === 'head') inHead = false;
        else if (name === 'title' && inTitle) {
          inTitle = false;
          facts.title = title.trim();
        }
      },
    },
    { decodeEntities: true },
  );
  parser.end(stripped.markup);
  for (const [id, count] of idCounts) if (count > 1) facts.duplicateIds.set(id, count);
  return facts;
}

/** The site path of an output HTML file: `article/x/index.html` -> `/article/x/`, `404.html` -> `/404.html`. */
export function pagePathOf(rel: string): string {
  if (rel === 'index.html') return '/';
  if (rel.endsWith('/index.html')) return `/${rel.slice(0, -'index.html'.length)}`;
  return `/${rel}`;
}
