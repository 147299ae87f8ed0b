// Links: every internal href, src, srcset candidate and <link> resolves to an output file or
// a redirect rule; every #fragment is an id of its target page. Pure: resolved links in,
// findings out.
import { HOST_FILES } from '../../build/emit/host-files.js';
import { WORKER_PATH } from '../../shared/offline.js';
import { diagnostic } from '../../errors/diagnostic.js';
import { closest } from '../../errors/did-you-mean.js';
import type { RedirectOrigin } from '../../build/graph/model.js';
import { hasBackslash } from './addresses.js';
import type { PageFacts } from './html.js';
import type { Finding, CheckSite } from './model.js';
import { originOf, type Origin } from './origin.js';
import type { ResolvedLink } from './resolve.js';

const hasExtension = (p: string) => /\.[a-z0-9]{2,5}$/i.test(p) && !p.endsWith('.html');

/**
 * Files the build writes for the site's own machinery, not for readers: page records, static
 * queries, scripts, styles and processed image variants (renamed whenever they change), the
 * search index, the offline worker and the redirect tables.
 */
const INTERNAL_FOLDERS = ['page-data/', 'static/', 'search-index/'];
const INTERNAL_FILES = new Set([WORKER_PATH.slice(1), 'redirects.json']);

/** Whether a site path (`/page-data/index/page-data.json`) is one of the build's own files. */
export function isInternalFile(sitePath: string): boolean {
  const rel = sitePath.replace(/^\/+/, '');
  return INTERNAL_FILES.has(rel) || INTERNAL_FOLDERS.some((f) => rel.startsWith(f));
}

const isAnchor = (link: ResolvedLink['link']) => link.tag === 'a' || link.tag === 'area';

/** The page the server shows for an address that does not exist (404.html and its translations). */
const isNotFoundPage = (page: PageFacts) => page.template === 'not-found';

/** A link to a not-found page from another page (the language switcher between them is deliberate). */
const toNotFoundPage = ({ from, link, to }: ResolvedLink) =>
  isAnchor(link) && to.kind === 'page' && !to.wildcard && isNotFoundPage(to.page) && link.hreflang === undefined && to.path !== from;

/** An address read against the page's own (not a site path, an absolute URL, a fragment or a query alone). */
const isRelativePath = (url: string) => url.trim() !== '' && !/^([a-z][a-z0-9+.-]*:|[/\\#?])/i.test(url.trim());

/**
 * Relative links on a not-found page: the page is shown at any missing address (`/fr/x/y/`),
 * and the link is read against that address, not against `/fr/404.html`.
 */
export function checkNotFoundRelativeLinks(site: CheckSite, links: ResolvedLink[]): Finding[] {
  const findings: Finding[] = [];
  for (const { from, link } of links) {
    const page = site.pages.get(from);
    if (!page || !isNotFoundPage(page) || !isAnchor(link) || !isRelativePath(link.url)) continue;
    const { fromTemplate: _, ...at } = originOf(site, from, link);
    const missing = from.replace(/[^/]*$/, 'x/y/');
    const there = new URL(link.url, `http://ir-site.invalid${missing}`);
    const meant = new URL(link.url, `http://ir-site.invalid${from}`);
    findings.push(
      diagnostic('links/relative-on-not-found', {
        ...at,
        page: from,
        message: `the link to ${readable(link.url)} is relative, on the "page not found" page: shown at a missing address such as ${missing}, it leads to ${readable(there.pathname)}`,
        hint: `write it from the site's root: ${readable(meant.pathname + meant.search + meant.hash)}`,
      }),
    );
  }
  return findings;
}

/** An address as a person wrote it: `/insights/%C3%A9t%C3%A9/` is shown `/insights/été/` (escapes of reserved characters stay). */
function readable(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

const chain = (via: RedirectOrigin[]) => via.map((o) => `${o.rule.fromPath} -> ${o.rule.toPath}`).join(', ');

/** `the link`, `the image`...: what a reference is, for messages. */
function what(link: ResolvedLink['link']): string {
  switch (link.tag) {
    case 'a':
    case 'area':
      return 'the link to';
    case 'img':
    case 'source':
      return link.attr === 'srcset' ? 'the srcset image' : 'the image';
    case 'link':
      return `the <link rel="${link.rel ?? ''}"> to`;
    case 'script':
      return 'the script';
    default:
      return `the <${link.tag} ${link.attr}> to`;
  }
}

/** A path alike on screen to a page's, in other characters: an accented letter written as a letter and a combining accent. */
function decomposed(site: CheckSite, path: string): string | undefined {
  const composed = path.normalize('NFC');
  if (composed === path || !site.pages.has(composed)) return undefined;
  return `the address writes an accented letter as two characters (a letter and a combining accent: Unicode NFD), the page's path as one (NFC): retype the address, or copy the page's own (${encodeURI(composed)})`;
}

/** `did you mean /insights/?`: the page whose path is closest to one that leads nowhere. */
function nearPage(site: CheckSite, path: string): string | undefined {
  const near = closest(path.endsWith('/') || hasExtension(path) ? path : `${path}/`, site.pages.keys());
  return near ? `did you mean ${near}?` : undefined;
}

/** The findings of `links`; with `wanted`, only those of the rules it wants (no other is located in its source). */
export function checkLinks(site: CheckSite, links: ResolvedLink[], wanted: (rule: Finding['rule']) => boolean = () => true): Finding[] {
  const findings: Finding[] = [];
  for (const r of links) {
    const { link, to } = r;
    if (to.kind === 'skip') continue;
    // An address of this site that the server sends elsewhere is reported below; any other
    // external link is listed (and fetched with --external).
    if (to.kind === 'external' && (to.via.length === 0 || !isAnchor(link))) continue;
    if (to.kind === 'page' && to.via.length === 0 && (to.fragment === null || to.wildcard || to.page.ids.has(to.fragment)) && !toNotFoundPage(r)) continue;
    if (to.kind === 'file' && !(isAnchor(link) && isInternalFile(to.path))) continue;
    // addresses.ts reports a backslash, and says which address was meant.
    if (link.place === 'body' && hasBackslash(link.url)) continue;
    // Only a problem that is wanted pays for finding where the link is written (it may read the body).
    let located: Origin | undefined;
    const origin = () => (located ??= originOf(site, r.from, link));
    const add = (f: Omit<Finding, 'file' | 'line' | 'column' | 'excerpt' | 'page'>) => {
      if (!wanted(f.rule)) return;
      const { fromTemplate: _, ...at } = origin();
      findings.push({ ...at, ...f, page: r.from, field: f.field ?? at.field });
    };
    const url = readable(link.url);
    const sourceHint = () =>
      link.place === 'head'
        ? `the build writes this reference into every page's <head>: the output folder is incomplete or older than the build; rebuild it`
        : origin().fromTemplate
          ? `the reference comes from ${origin().file}, not from the page's content`
          : undefined;

    if (to.kind === 'missing' && to.via.length === 0 && HOST_FILES.has(to.path)) {
      add(diagnostic('links/broken', { message: `${what(link)} ${url} leads nowhere: it is the host's configuration file, written next to the pages, which no host serves`, hint: 'remove the link' }));
      continue;
    }
    if (to.kind === 'missing' || to.kind === 'loop') {
      const via = to.via.length > 0 ? `, which redirects (${chain(to.via)}) ${to.kind === 'loop' ? 'in a loop' : 'to a path that does not exist'}` : '';
      const file = hasExtension(to.path) && to.via.length === 0;
      const name = to.path.slice(to.path.lastIndexOf('/') + 1);
      const nearFile = file ? closest(to.path.slice(1), [...site.files].filter((f) => !isInternalFile(f) && !HOST_FILES.has(`/${f}`))) : undefined;
      add(
        file
          ? diagnostic('links/missing-file', {
              message: `${what(link)} ${url}: no such file in the output`,
              hint: sourceHint() ?? `${nearFile ? `did you mean /${nearFile}? Otherwise ` : ''}put ${name} next to the entry that links to it (files next to an entry are published at its path), or fix the path`,
            })
          : diagnostic('links/broken', { message: `${what(link)} ${url} leads nowhere${via || ': no page, file or redirect rule has this path'}`, hint: decomposed(site, to.path) ?? sourceHint() ?? nearPage(site, to.path) }),
      );
      continue;
    }

    if (to.kind === 'external') {
      add(
        diagnostic('links/redirected', {
          message: `the link to ${url} leaves the site through a redirect (${chain(to.via)})`,
          hint: `link to ${to.url} directly: readers see where the link goes, and --external can check it`,
        }),
      );
      continue;
    }

    if (to.kind === 'file') {
      add(diagnostic('links/internal-file', { message: `the link to ${url} opens one of the site's internal files, not a page or a document` }));
      continue;
    }

    // First: an anchor on the not-found page is beside the point.
    if (toNotFoundPage(r)) {
      add(diagnostic('links/not-found-page', { message: `the link to ${url} leads to the "page not found" page` }));
      continue;
    }

    if (to.kind === 'page' && to.fragment !== null && !to.wildcard) {
      const fragment = to.fragment;
      const known = to.page.ids.has(fragment) || fragment.toLowerCase() === 'top';
      if (!known) {
        const near = closest(fragment, to.page.ids);
        add(
          diagnostic('links/missing-anchor', {
            // The page named even when it is the link's own: a template's link then reads the same on every page, and is reported once.
            message: `${what(link)} ${url}: ${to.path} has no element with id "${fragment}"`,
            hint: near ? `did you mean #${near}? heading ids are the heading text in lower case, with dashes for spaces` : undefined,
          }),
        );
        continue;
      }
    }

    if (isAnchor(link) && to.via.length > 0 && to.kind === 'page') {
      const end = to.via[to.via.length - 1]!.rule.toPath;
      add(
        diagnostic('links/redirected', {
          message: `the link to ${url} goes through a redirect (${chain(to.via)})`,
          hint: `link to ${end} directly: it saves a round trip and survives the rule being removed`,
        }),
      );
    }
  }
  return findings;
}

/**
 * Pages that other pages link to (an <a> or <area>, directly or through redirect rules).
 * A page's own translations do not count (the language switcher links every translation to
 * the others): a set of translations nothing else links to is orphaned as a whole.
 */
export function inboundLinks(links: ResolvedLink[], site: Pick<CheckSite, 'pages'>): Map<string, Set<string>> {
  const inbound = new Map<string, Set<string>>();
  const translations = new Map<string, Set<string>>();
  const translationsOf = (p: string) => {
    let set = translations.get(p);
    if (!set) {
      set = new Set((site.pages.get(p)?.alternates ?? []).map((a) => a.href.replace(/^[a-z]+:\/\/[^/]+/i, '')));
      translations.set(p, set);
    }
    return set;
  };
  for (const { from, link, to } of links) {
    if ((link.tag !== 'a' && link.tag !== 'area') || to.kind !== 'page' || to.wildcard || to.path === from) continue;
    if (link.hreflang !== undefined || translationsOf(from).has(to.path)) continue;
    let set = inbound.get(to.path);
    if (!set) inbound.set(to.path, (set = new Set()));
    set.add(from);
  }
  return inbound;
}
