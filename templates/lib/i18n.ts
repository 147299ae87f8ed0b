// UI-string and formatting helpers for the templates. Pure and isomorphic: the same
// output on the server and in the browser (Intl with an explicit locale and options, no
// time zone, no clock; the one spacing difference between ICU builds is evened out).
import { localizePath, type ArticleType, type NumberKind, type SiteMetadata } from 'ir-site/templates';

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

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Node's ICU and the browser's may differ in the no-break space they put in French numbers
 * (U+00A0 or the narrow U+202F): one spelling everywhere keeps the server render and the
 * client's identical, so hydration never sees a difference.
 */
const sameSpaces = (text: string) => text.replace(/\u202f/g, '\u00a0');

// Formatters are costly to make and pure: one per locale and options.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n\0${locale}\0${JSON.stringify(options)}`;
  let f = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}
function dateFormat(locale: string): Intl.DateTimeFormat {
  const key = `d\0${locale}`;
  let f = formatters.get(key) as Intl.DateTimeFormat | undefined;
  // UTC both when formatting and when reading the date: no time zone can shift the day.
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' })));
  return f;
}

/**
 * `2025-10-15` as `October 15, 2025` (en) or `15 octobre 2025` (fr), from the locale's own
 * strings: `date.long` (`{month} {day}, {year}`), `date.firstOfMonth` (French writes the first
 * `1er`) and `date.month.1` to `date.month.12`. Not Intl: the first Intl formatter a page makes
 * loads the browser's locale data, about 25 ms of main thread on a desktop and four times that
 * on a phone, in the middle of hydration. A locale without `date.long` falls back to Intl for
 * `locale` (a BCP 47 tag: the page's hrefLang). Anything that is not a YYYY-MM-DD calendar
 * date comes back unchanged.
 */
export function formatDate(strings: Strings, iso: string, locale: string): string {
  const match = ISO_DATE.exec(iso);
  if (!match) return iso;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return iso;
  if (strings['date.long'] !== undefined) {
    const vars = { day, month: t(strings, `date.month.${month}`), year: String(year) };
    return t(strings, day === 1 ? 'date.firstOfMonth' : 'date.long', vars);
  }
  let text: string;
  try {
    text = sameSpaces(dateFormat(locale).format(date));
  } catch {
    return iso; // an unknown locale tag
  }
  return day === 1 && /^fr\b/i.test(locale) ? text.replace(/^1(?=\s)/, '1er') : text;
}

/**
 * A number for `locale` (the page's hrefLang) through Intl: `1 234,5` / `1,234.5`; a
 * `percent` holds percentage points (4.8 -> `4,8 %` / `4.8%`); `millions` holds millions of
 * dollars, written through the locale's `number.millions` (`1 234,5 M$` / `$1,234.5M`); a
 * `year` is written as it is (`2011`, never `2 011`).
 */
export function formatNumber(strings: Strings, value: number, locale: string, kind: NumberKind = 'number'): string {
  if (!Number.isFinite(value) || kind === 'year') return String(value);
  const digits = { maximumFractionDigits: 2 };
  try {
    if (kind === 'percent') return sameSpaces(numberFormat(locale, { style: 'unit', unit: 'percent', ...digits }).format(value));
    const amount = sameSpaces(numberFormat(locale, digits).format(value));
    return kind === 'millions' ? t(strings, 'number.millions', { amount }) : amount;
  } catch {
    return String(value);
  }
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
