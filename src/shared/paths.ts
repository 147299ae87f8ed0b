// Path rules shared by the build, the templates and the browser runtime.
import type { Alternate, TemplateId } from './types.js';

/** `/fr/` + originalPath for a non-default locale; originalPath itself for the default one. */
export function localizePath(originalPath: string, locale: string, defaultLocale: string): string {
  if (locale === defaultLocale) return originalPath;
  return `/${locale}${originalPath}`;
}

/**
 * Where a page's record lives: `/page-data/{p}/page-data.json`, `{p}` being the path
 * without its leading and trailing slash, `index` for `/`. Query and hash never count.
 */
export function pageDataUrl(pagePath: string): string {
  const bare = pagePath.split(/[?#]/, 1)[0] ?? '/';
  const trimmed = bare.replace(/^\/+|\/+$/g, '');
  return `/page-data/${trimmed === '' ? 'index' : trimmed}/page-data.json`;
}

export function staticQueryUrl(hash: string): string {
  return `/page-data/sq/d/${hash}.json`;
}

/** Gatsby-style chunk name for a template: `component---templates-article-tsx`. */
export function chunkNameFor(template: TemplateId): string {
  return `component---templates-${template}-tsx`;
}

/** The output file a page path is written to: `{path}index.html`, or the path itself for `*.html`. */
export function htmlFileFor(pagePath: string): string {
  const rel = pagePath.replace(/^\/+/, '');
  return rel.endsWith('.html') ? rel : `${rel}index.html`;
}

/** The `x-default` alternate: the default-language page, else the first translation there is. */
export function xDefaultOf(alternates: readonly Alternate[], defaultLocale: string): Alternate | undefined {
  return alternates.find((a) => a.locale === defaultLocale) ?? alternates[0];
}

/**
 * The names at the top of the output the build writes its own files under: the runtime, its
 * chunks and the processed images (`static/`), the records, the search indexes, the offline
 * worker, the host files. A page or a published file there would meet one of them: a file
 * written over, a folder where a file goes, or, under `/static/`, a page the offline worker
 * keeps for good.
 */
const OWN_NAMES = new Set([
  ...['static', 'page-data', 'search-index', 'sw.js', 'sitemap.xml', 'robots.txt', 'redirects.json'],
  ...['favicon.svg', 'favicon.ico', 'apple-touch-icon.png', 'icon-192.png', 'icon-512.png', 'icon-maskable-512.png'],
  ...['_headers', '_redirects', 'nginx-headers.conf', 'nginx-redirects.conf'],
]);

/** Whether the top name of a site path (`static` of `/static/x/`) is one the build writes its own files under; case aside, as some disks and hosts ignore it. */
export function isOwnName(name: string): boolean {
  const lower = name.toLowerCase();
  return OWN_NAMES.has(lower) || /^manifest_.*\.webmanifest$|^share-.*\.png$/.test(lower);
}
