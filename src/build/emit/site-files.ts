// Pure builders for the site-wide files: sitemap, robots, manifests, favicon.
import type { Route } from '../graph/model.js';
import { xDefaultOf } from '../../shared/paths.js';
import type { SiteMetadata } from '../../shared/types.js';
import { escapeHtml as escapeXml } from '../../shared/escape.js';
import { PNG_ICONS } from './icons.js';
import { byText } from '../../shared/order.js';

/** What the sitemap shows of the routes: exactly its input, so a cache can key it (build/emit/index.ts). */
export type SitemapEntry = Pick<Route, 'path' | 'alternates' | 'lastmod'>;

export function sitemapEntries(routes: readonly Route[]): SitemapEntry[] {
  return routes.filter((r) => r.inSitemap).map((r) => ({ path: r.path, alternates: r.alternates, ...(r.lastmod ? { lastmod: r.lastmod } : {}) }));
}

export function sitemapXml(entries: readonly SitemapEntry[], siteUrl: string, defaultLocale: string): string {
  // The sitemap protocol wants URLs percent-encoded (`/fr/%C3%A9t%C3%A9/`), then XML-escaped.
  const url = (path: string) => escapeXml(new URL(siteUrl + path).href);
  const urls = [...entries]
    .sort((a, b) => byText(a.path, b.path))
    .map((r) => {
      const links = r.alternates.map(
        (a) => `    <xhtml:link rel="alternate" hreflang="${escapeXml(a.hrefLang)}" href="${url(a.path)}"/>`,
      );
      const fallback = xDefaultOf(r.alternates, defaultLocale);
      if (fallback) links.push(`    <xhtml:link rel="alternate" hreflang="x-default" href="${url(fallback.path)}"/>`);
      const lastmod = r.lastmod ? [`    <lastmod>${escapeXml(r.lastmod)}</lastmod>`] : [];
      return [`  <url>`, `    <loc>${url(r.path)}</loc>`, ...lastmod, ...links, `  </url>`].join('\n');
    });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

export function robotsTxt(siteUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${siteUrl}/sitemap.xml\n`;
}

export function webManifest(site: SiteMetadata, locale: string): string {
  const name = site.displayName[locale] ?? site.displayName[site.defaultLocale] ?? site.site;
  const lang = site.locales.find((l) => l.code === locale)?.hrefLang ?? locale;
  return `${JSON.stringify(
    {
      name,
      // A home-screen label must be short: the name if it is, else the identity token ("Brightwater").
      short_name: name.length <= 12 ? name : site.site.charAt(0).toUpperCase() + site.site.slice(1),
      lang,
      start_url: locale === site.defaultLocale ? '/' : `/${locale}/`,
      scope: locale === site.defaultLocale ? '/' : `/${locale}/`,
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#0b3d5c',
      icons: [
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ...PNG_ICONS.filter((i) => i.manifest).map((i) => ({ src: `/${i.file}`, sizes: `${i.size}x${i.size}`, type: 'image/png', ...(i.maskable ? { purpose: 'maskable' } : {}) })),
      ],
    },
    null,
    2,
  )}\n`;
}

/** A monogram icon; the templates may ship their own `favicon.svg` instead. */
export function defaultFaviconSvg(letter: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#0b3d5c"/><text x="32" y="44" font-family="Georgia,serif" font-size="38" text-anchor="middle" fill="#ffffff">${escapeXml(letter.toUpperCase())}</text></svg>\n`;
}

/** Wraps a PNG in an ICO container (PNG payloads are valid ICO images since Windows Vista). */
export function pngToIco(png: Uint8Array, size: number): Uint8Array {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(size >= 256 ? 0 : size, 6);
  header.writeUInt8(size >= 256 ? 0 : size, 7);
  header.writeUInt8(0, 8);
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, png]);
}
