// UI-string and formatting helpers for the templates. Pure and isomorphic: the same
// output on the server and in the browser (no Intl data that differs between ICU builds,
// no time zone, no clock).
import { localizePath, type ArticleType, type SiteMetadata } from 'ir-site/templates';

export type Strings = Record<string, string>;

/**
 * The UI string `key` of the current locale, with `{name}` placeholders filled from `vars`.
 * A missing key renders as the key itself, so a gap is visible but never crashes a page.
 */
export function t(strings: Strings, key: string, vars?: Record<string, string | number>): string {
  const template = strings[key] ?? key;
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : whole,
  );
}

const MONTHS: Record<string, readonly string[]> = {
  en: [
    'January', 'February', 'March', 'April', 'May', 'June',
    'July', 'August', 'September', 'October', 'November', 'December',
  ],
  fr: [
    'janvier', 'février', 'mars', 'avril', 'mai', 'juin',
    'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre',
  ],
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `2025-10-15` as `October 15, 2025` (en) or `15 octobre 2025` (fr; `1er` for the first).
 * Read from the string itself: no Date parsing, so no time-zone shift. Anything that is not
 * a YYYY-MM-DD date, or a locale without a month table, comes back unchanged.
 */
export function formatDate(iso: string, locale: string): string {
  const match = ISO_DATE.exec(iso);
  const months = MONTHS[locale];
  if (!match || !months) return iso;
  const year = match[1]!;
  const month = months[Number(match[2]) - 1];
  const day = Number(match[3]);
  if (!month || day < 1 || day > 31) return iso;
  if (locale === 'fr') return `${day === 1 ? '1er' : day} ${month} ${year}`;
  return `${month} ${day}, ${year}`;
}

/** `Q2-2025` through the locale's `quarter.format` (`Q{q} {year}`, `T{q} {year}`). */
export function formatQuarter(strings: Strings, quarter: string): string {
  const match = /^Q([1-4])-(\d{4})$/i.exec(quarter);
  if (!match) return quarter;
  return t(strings, 'quarter.format', { q: match[1]!, year: match[2]! });
}

export function articleTypeLabel(strings: Strings, type: ArticleType): string {
  return t(strings, `articleType.${type}`);
}

/** A language's name in that language (`Français`, `English`), for the language switcher. */
export function languageName(strings: Strings, code: string): string {
  const key = `language.${code}`;
  return strings[key] ?? code.toUpperCase();
}

/** The corporation's name in `locale`, falling back to the default locale's. */
export function displayName(site: SiteMetadata, locale: string): string {
  return site.displayName[locale] ?? site.displayName[site.defaultLocale] ?? site.name;
}

export function homePath(site: SiteMetadata, locale: string): string {
  return localizePath('/', locale, site.defaultLocale);
}

/** `financial_reports` / `news-and-events` as `Financial reports` / `News and events`. */
export function humanize(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A navigation path for the current locale. Navigation data is expected to arrive
 * localised already (`/fr/...`); an unprefixed site path on a non-default locale gets the
 * prefix, so either form works. External URLs and already-prefixed paths are kept.
 */
export function localHref(path: string, locale: string, defaultLocale: string): string {
  if (locale === defaultLocale || !path.startsWith('/') || path.startsWith('//')) return path;
  if (path === `/${locale}` || path.startsWith(`/${locale}/`)) return path;
  return localizePath(path, locale, defaultLocale);
}
