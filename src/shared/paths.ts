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
