// What a page's <head> holds, as data: the server writes it into the document, the
// browser runtime applies it after a client navigation. One definition, no drift.
import { xDefaultOf } from './paths.js';
import type { PageRecord, SiteMetadata } from './types.js';

export interface HeadTag {
  tag: 'meta' | 'link';
  attrs: Record<string, string>;
}

export interface Head {
  title: string;
  lang: string;
  tags: HeadTag[];
}

/** The manifest whose start_url prefixes the path; the longest wins, so `/fr/` beats `/`. */
export function manifestFor(path: string, site: SiteMetadata): string {
  const starts = site.locales
    .map((l) => ({ code: l.code, start: l.code === site.defaultLocale ? '/' : `/${l.code}/` }))
    .filter((m) => path.startsWith(m.start))
    .sort((a, b) => b.start.length - a.start.length);
  return `/manifest_${starts[0]?.code ?? site.defaultLocale}.webmanifest`;
}

/** The default share image of a language (made at build time, src/build/emit/icons.ts). */
export const SHARE_IMAGE = { width: 1200, height: 630, path: (locale: string) => `/share-${locale}.png` } as const;

/** What a page shares as its image: an article's cover, else the identity's card for the language. */
function shareImageOf(record: PageRecord, siteName: string): { src: string; width: number; height: number; alt: string } {
  const { pageContext, data } = record.result;
  if (data.template === 'article' && data.cover?.share) return { ...data.cover.share, alt: data.cover.alt };
  return { src: SHARE_IMAGE.path(pageContext.locale), width: SHARE_IMAGE.width, height: SHARE_IMAGE.height, alt: siteName };
}

/**
 * A description as snippets show it: one line (one written as a YAML block keeps its line
 * breaks), or null. Ordinary spaces and line breaks only: the no-break spaces of French
 * typography stay (`\s` would take them too).
 */
const snippetOf = (description: string | null | undefined) => description?.replace(/[ \t\r\n\f\v]+/g, ' ').trim() || null;

const ogType = (template: string) => (template === 'article' ? 'article' : template === 'bio' ? 'profile' : 'website');

export function headFor(record: PageRecord, site: SiteMetadata): Head {
  const { pageContext, data } = record.result;
  const absolute = (p: string) => `${site.siteUrl}${p}`;
  const siteName = site.displayName[pageContext.locale] ?? site.displayName[site.defaultLocale] ?? '';
  const title = data.title && data.title !== siteName ? `${data.title} | ${siteName}` : siteName || data.title;
  const description = snippetOf(data.description) ?? siteName;
  const tags: HeadTag[] = [{ tag: 'meta', attrs: { name: 'description', content: description } }];
  // A form's thank-you page is only where a plain POST lands: not for search engines.
  if (data.template === 'not-found' || (data.template === 'page' && data.form === 'contact-sent')) {
    tags.push({ tag: 'meta', attrs: { name: 'robots', content: 'noindex' } });
  } else {
    tags.push({ tag: 'link', attrs: { rel: 'canonical', href: absolute(pageContext.canonicalPath ?? record.path) } });
    for (const alt of pageContext.alternates) tags.push({ tag: 'link', attrs: { rel: 'alternate', hreflang: alt.hrefLang, href: absolute(alt.path) } });
    const fallback = xDefaultOf(pageContext.alternates, site.defaultLocale);
    if (fallback) tags.push({ tag: 'link', attrs: { rel: 'alternate', hreflang: 'x-default', href: absolute(fallback.path) } });
  }
  const image = shareImageOf(record, siteName);
  tags.push(
    { tag: 'meta', attrs: { property: 'og:title', content: data.title } },
    { tag: 'meta', attrs: { property: 'og:description', content: description } },
    { tag: 'meta', attrs: { property: 'og:type', content: ogType(data.template) } },
    { tag: 'meta', attrs: { property: 'og:url', content: absolute(pageContext.canonicalPath ?? record.path) } },
    { tag: 'meta', attrs: { property: 'og:image', content: absolute(image.src) } },
    { tag: 'meta', attrs: { property: 'og:image:width', content: String(image.width) } },
    { tag: 'meta', attrs: { property: 'og:image:height', content: String(image.height) } },
    { tag: 'meta', attrs: { property: 'og:image:alt', content: image.alt } },
    { tag: 'meta', attrs: { property: 'og:locale', content: pageContext.hrefLang.replace('-', '_') } },
    { tag: 'meta', attrs: { property: 'og:site_name', content: siteName } },
    { tag: 'meta', attrs: { name: 'twitter:card', content: 'summary_large_image' } },
  );
  if (data.template === 'article') {
    tags.push({ tag: 'meta', attrs: { property: 'article:published_time', content: data.date } });
    if (data.updated) tags.push({ tag: 'meta', attrs: { property: 'article:modified_time', content: data.updated } });
  }
  tags.push({ tag: 'link', attrs: { rel: 'manifest', href: manifestFor(record.path, site) } });
  return { title, lang: pageContext.hrefLang, tags };
}

/**
 * schema.org data for search engines (JSON-LD): the Organization on the home page, an Article
 * (a NewsArticle for press releases) with its dates and author on articles, a Person on bios.
 * Null on other pages.
 */
export function structuredDataFor(record: PageRecord, site: SiteMetadata): Record<string, unknown> | null {
  const { pageContext, data } = record.result;
  const absolute = (p: string) => `${site.siteUrl}${p}`;
  const siteName = site.displayName[pageContext.locale] ?? site.displayName[site.defaultLocale] ?? '';
  const url = absolute(pageContext.canonicalPath ?? record.path);
  const organization = { '@type': 'Organization', name: siteName, url: absolute(localeHome(pageContext.locale, site)), logo: absolute('/icon-512.png') };
  switch (data.template) {
    case 'home':
      return { '@context': 'https://schema.org', ...organization };
    case 'article':
      return {
        '@context': 'https://schema.org',
        '@type': data.type === 'press-release' ? 'NewsArticle' : 'Article',
        headline: data.title,
        ...(snippetOf(data.description) ? { description: snippetOf(data.description) } : {}),
        datePublished: data.date,
        dateModified: data.updated ?? data.date,
        inLanguage: pageContext.hrefLang,
        url,
        mainEntityOfPage: url,
        image: [absolute(shareImageOf(record, siteName).src)],
        author: data.author ? { '@type': 'Person', name: data.author.name, url: absolute(data.author.path) } : organization,
        publisher: organization,
      };
    case 'bio':
      return {
        '@context': 'https://schema.org',
        '@type': 'Person',
        name: data.name,
        jobTitle: data.role,
        url,
        ...(data.photo ? { image: absolute(data.photo.src) } : {}),
        ...(data.email ? { email: `mailto:${data.email}` } : {}),
        ...(data.linkedin ? { sameAs: [data.linkedin] } : {}),
        worksFor: organization,
      };
    default:
      return null;
  }
}

const localeHome = (locale: string, site: SiteMetadata) => (locale === site.defaultLocale ? '/' : `/${locale}/`);
