// The HTML document around a rendered template: head (title, description, canonical,
// hreflang, manifest, stylesheet) and the body containers the browser runtime uses.
import { xDefaultOf } from '../shared/paths.js';
import type { PageRecord, SiteMetadata } from '../shared/types.js';
import type { StaticQueryResult } from '../shared/props.js';
import { escapeHtml, jsonForScript } from './escape.js';
import { NOT_FOUND_REDIRECT_SCRIPT } from './not-found-redirect.js';

export interface DocumentAssets {
  /** Site path of the stylesheet (content-hashed), or null when the templates ship none. */
  stylesheet: string | null;
}

export interface DocumentInput {
  record: PageRecord;
  queries: StaticQueryResult[];
  site: SiteMetadata;
  bodyHtml: string;
  canonicalPath: string;
  assets: DocumentAssets;
}

export const ROOT_ID = '___gatsby';
export const FOCUS_WRAPPER_ID = 'gatsby-focus-wrapper';
export const ANNOUNCER_ID = 'gatsby-announcer';
export const PAGE_DATA_SCRIPT_ID = '__IR_PAGE_DATA__';
export const STATIC_QUERIES_SCRIPT_ID = '__IR_STATIC_QUERIES__';

const VISUALLY_HIDDEN =
  'position:absolute;top:0;width:1px;height:1px;padding:0;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0';

/** The manifest whose start_url prefixes the path; the longest wins, so `/fr/` beats `/`. */
export function manifestFor(path: string, site: SiteMetadata): string {
  const starts = site.locales
    .map((l) => ({ code: l.code, start: l.code === site.defaultLocale ? '/' : `/${l.code}/` }))
    .filter((m) => path.startsWith(m.start))
    .sort((a, b) => b.start.length - a.start.length);
  return `/manifest_${starts[0]?.code ?? site.defaultLocale}.webmanifest`;
}

export function renderDocument({ record, queries, site, bodyHtml, canonicalPath, assets }: DocumentInput): string {
  const { pageContext, data } = record.result;
  const absolute = (p: string) => `${site.siteUrl}${p}`;
  const siteName = site.displayName[pageContext.locale] ?? site.displayName[site.defaultLocale] ?? '';
  const title = data.title && data.title !== siteName ? `${data.title} | ${siteName}` : siteName || data.title;
  const description = data.description ?? siteName;
  const notFound = data.template === 'not-found';

  const head: string[] = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(description)}">`,
  ];
  if (notFound) {
    head.push('<meta name="robots" content="noindex">', `<script>${NOT_FOUND_REDIRECT_SCRIPT}</script>`);
  } else {
    head.push(`<link rel="canonical" href="${escapeHtml(absolute(canonicalPath))}">`);
    for (const alt of pageContext.alternates) {
      head.push(`<link rel="alternate" hreflang="${escapeHtml(alt.hrefLang)}" href="${escapeHtml(absolute(alt.path))}">`);
    }
    const fallback = xDefaultOf(pageContext.alternates, site.defaultLocale);
    if (fallback) {
      head.push(`<link rel="alternate" hreflang="x-default" href="${escapeHtml(absolute(fallback.path))}">`);
    }
  }
  head.push(
    `<meta property="og:title" content="${escapeHtml(data.title)}">`,
    `<meta property="og:description" content="${escapeHtml(description)}">`,
    `<meta property="og:locale" content="${escapeHtml(pageContext.hrefLang.replace('-', '_'))}">`,
    `<meta property="og:site_name" content="${escapeHtml(siteName)}">`,
    `<link rel="manifest" href="${manifestFor(record.path, site)}">`,
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<link rel="icon" href="/favicon.ico" sizes="32x32">',
    '<meta name="theme-color" content="#0b3d5c">',
  );
  if (assets.stylesheet) head.push(`<link rel="stylesheet" href="${escapeHtml(assets.stylesheet)}">`);

  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeHtml(pageContext.hrefLang)}">`,
    `<head>${head.join('')}</head>`,
    '<body>',
    `<div id="${ROOT_ID}" data-component-chunk="${escapeHtml(record.componentChunkName)}"><div id="${FOCUS_WRAPPER_ID}" tabindex="-1">${bodyHtml}</div></div>`,
    `<div id="${ANNOUNCER_ID}" aria-live="assertive" aria-atomic="true" style="${VISUALLY_HIDDEN}"></div>`,
    `<script type="application/json" id="${PAGE_DATA_SCRIPT_ID}">${jsonForScript(record)}</script>`,
    `<script type="application/json" id="${STATIC_QUERIES_SCRIPT_ID}">${jsonForScript(queries)}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
