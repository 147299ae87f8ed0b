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

export function headFor(record: PageRecord, site: SiteMetadata): Head {
  const { pageContext, data } = record.result;
  const absolute = (p: string) => `${site.siteUrl}${p}`;
  const siteName = site.displayName[pageContext.locale] ?? site.displayName[site.defaultLocale] ?? '';
  const title = data.title && data.title !== siteName ? `${data.title} | ${siteName}` : siteName || data.title;
  const description = data.description ?? siteName;
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
  tags.push(
    { tag: 'meta', attrs: { property: 'og:title', content: data.title } },
    { tag: 'meta', attrs: { property: 'og:description', content: description } },
    { tag: 'meta', attrs: { property: 'og:locale', content: pageContext.hrefLang.replace('-', '_') } },
    { tag: 'meta', attrs: { property: 'og:site_name', content: siteName } },
    { tag: 'link', attrs: { rel: 'manifest', href: manifestFor(record.path, site) } },
  );
  return { title, lang: pageContext.hrefLang, tags };
}
