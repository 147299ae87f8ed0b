// Languages: every entry in every language (unless `translation: none`), every UI string in
// every locales/*.json and used somewhere, hreflang alternates reciprocal and
// self-referencing with an x-default, and pages that link to their own language.
import { diagnostic } from '../../errors/diagnostic.js';
import { jsonErrorPlace } from '../../build/content/json-place.js';
import type { Finding, CheckSite } from './model.js';
import { originOf, pageSource } from './origin.js';
import type { ResolvedLink } from './resolve.js';
import { byText } from '../../shared/order.js';

/** `French`, `English`: a locale's name in English, for messages. */
/** `a French`, `an English`. */
const withArticle = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The locale code of a page (`fr`), from its `<html lang>` (`fr-CA`). */
function localeOfLang(site: CheckSite, lang: string | null): string | null {
  if (!lang) return null;
  const exact = site.locales.find((l) => l.hrefLang.toLowerCase() === lang.toLowerCase() || l.code.toLowerCase() === lang.toLowerCase());
  if (exact) return exact.code;
  const primary = lang.split('-')[0]!.toLowerCase();
  return site.locales.find((l) => l.code.split('-')[0]!.toLowerCase() === primary)?.code ?? null;
}

const ENTRY_FILE = /^(.*\/(?:pages|articles|team)\/[^/]+)\/([^/]+)\.md$/;

/** Entries that miss a language: from the published pages, grouped by entry folder. */
export function checkTranslations(site: CheckSite): Finding[] {
  const groups = new Map<string, Map<string, string>>();
  for (const route of site.routes.values()) {
    const m = route.file ? ENTRY_FILE.exec(route.file) : null;
    if (!m) continue;
    const group = groups.get(m[1]!) ?? new Map<string, string>();
    // `en.larkspur.md` is an identity's variant of `en.md`: the same language.
    group.set(m[2]!.split('.')[0]!, route.file!);
    groups.set(m[1]!, group);
  }
  const findings: Finding[] = [];
  const codes = site.locales.map((l) => l.code);
  for (const [dir, group] of [...groups].sort((a, b) => byText(a[0], b[0]))) {
    const missing = codes.filter((c) => !group.has(c));
    if (missing.length === 0) continue;
    const file = group.get(site.defaultLocale) ?? [...group.values()][0]!;
    const marked = [...group.values()].some((f) => site.sources.frontMatter(f)?.data['translation'] === 'none');
    if (marked) continue;
    for (const code of missing) {
      const wanted = `${dir}/${code}.md`;
      const draft = site.sources.frontMatter(wanted);
      const why = draft ? `${wanted} is a draft` : `there is no ${wanted}`;
      findings.push(diagnostic('languages/missing-translation', {
        ...site.sources.field(file, 'title'),
        field: undefined,
        excerpt: undefined,
        column: undefined,
        page: [...site.routes.values()].find((r) => r.file === file)?.path,
        message: `this entry has no ${languageName(code)} version: ${why}`,
        hint: draft
          ? `publish the translation (remove draft: true from ${wanted}), or add "translation: none" to this entry's front matter`
          : `write ${wanted}, or add "translation: none" to this entry's front matter if it exists in one language on purpose`,
      }));
    }
  }
  return findings;
}

export interface StringsFile {
  /** Site-relative: `locales/fr.json`. */
  file: string;
  text: string;
}

export interface CodeFile {
  file: string;
  text: string;
}

/** Line of `"key":` in a JSON text. */
function keyLine(text: string, key: string): number | undefined {
  const at = text.indexOf(`${JSON.stringify(key)}`);
  if (at === -1) return undefined;
  return text.slice(0, at).split('\n').length;
}

/**
 * Which UI-string keys the code uses: every quoted literal (`'article.by'`, `"skipLink"`,
 * `` `nav.main` ``) names a key, and a template literal whose text before an interpolation
 * ends with a dot (`` `articleType.${type}` ``) uses every key with that prefix. The code inside
 * an interpolation (`` ` ${t(strings, 'a.b')}` ``) is read the same way.
 */
export function usedKeys(code: readonly CodeFile[]): { literals: Set<string>; prefixes: Set<string> } {
  const literals = new Set<string>();
  const prefixes = new Set<string>();
  const scan = (text: string) => {
    // An escape is part of its literal (`d\0${x}`): stopping at the backslash would pair the
    // quotes of the rest of the file wrongly.
    for (const m of text.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\[^])*)`/g)) {
      const value = m[1] ?? m[2] ?? m[3] ?? '';
      if (m[3] !== undefined && value.includes('${')) {
        // Each run of text before an interpolation that looks like `a.b.` is a key prefix.
        for (const p of value.matchAll(/([A-Za-z][\w-]*(?:\.[\w-]+)*\.)\$\{/g)) prefixes.add(p[1]!);
        for (const inner of interpolations(value)) scan(inner);
      } else {
        literals.add(value);
      }
    }
  };
  for (const { text } of code) scan(text);
  return { literals, prefixes };
}

/** The code inside each `${...}` of a template literal's text. */
function interpolations(value: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    if (depth === 0) {
      if (value[i] === '$' && value[i + 1] === '{') [depth, start, i] = [1, i + 2, i + 1];
    } else if (value[i] === '{') depth++;
    else if (value[i] === '}' && --depth === 0) found.push(value.slice(start, i));
  }
  return found;
}

export function checkStrings(files: readonly StringsFile[], code: readonly CodeFile[], defaultFile: string | null): Finding[] {
  const findings: Finding[] = [];
  // Every file of the folder, not only the configured languages' (which the load stage reads too).
  const parsed = files.flatMap((f) => {
    try {
      const data = JSON.parse(f.text) as unknown;
      return data !== null && typeof data === 'object' && !Array.isArray(data) ? [{ ...f, keys: new Set(Object.keys(data)) }] : [];
    } catch (error) {
      findings.push(diagnostic('locales/invalid-json', { file: f.file, ...jsonErrorPlace(f.text, error as Error), message: `invalid JSON: ${(error as Error).message}` }));
      return [];
    }
  });
  const all = new Set(parsed.flatMap((f) => [...f.keys]));
  for (const f of parsed) {
    for (const key of [...all].sort()) {
      if (f.keys.has(key)) continue;
      const has = parsed.filter((o) => o.keys.has(key));
      const first = has[0]!;
      findings.push(diagnostic('languages/missing-string', {
        file: f.file,
        message: `the UI string "${key}" is missing here (${has.map((o) => `${o.file}:${keyLine(o.text, key)}`).join(', ')} has it)`,
        hint: `add "${key}" to ${f.file}, translated; until then the page shows the key itself (${JSON.stringify(JSON.parse(first.text)[key])} in ${first.file})`,
      }));
    }
  }
  const { literals, prefixes } = usedKeys(code);
  const home = parsed.find((f) => f.file === defaultFile) ?? parsed[0];
  for (const key of [...all].sort()) {
    if (literals.has(key) || [...prefixes].some((p) => key.startsWith(p))) continue;
    const at = parsed.find((f) => f.keys.has(key) && f === home) ?? parsed.find((f) => f.keys.has(key))!;
    findings.push(diagnostic('languages/unused-string', {
      file: at.file,
      line: keyLine(at.text, key),
      message: `the UI string "${key}" is not used by any template or by the browser runtime`,
      hint: `remove it from every locales/*.json, or use it in a template (t(strings, '${key}'))`,
    }));
  }
  return findings;
}

/** hreflang alternates: self-referencing, reciprocal, matching the target's language, with an x-default. */
export function checkHreflang(site: CheckSite): Finding[] {
  const findings: Finding[] = [];
  const origin = site.siteUrl ? new URL(site.siteUrl).origin : null;
  const paths = new Map<string, string | null>();
  const pathOf = (href: string): string | null => {
    let known = paths.get(href);
    if (known !== undefined) return known;
    try {
      const u = new URL(href, origin ?? 'http://ir-site.invalid');
      known = origin === null || u.origin === origin ? decodeURIComponent(u.pathname) : null;
    } catch {
      known = null;
    }
    paths.set(href, known);
    return known;
  };
  const canonicalSelf = (p: { path: string; canonical: string | null }) => p.canonical === null || pathOf(p.canonical) === p.path;

  for (const page of site.pages.values()) {
    if (page.noindex || !canonicalSelf(page)) continue;
    const { file } = pageSource(site, page.path);
    const add = (found: Omit<Finding, 'file' | 'page'>) => findings.push({ ...found, file, page: page.path });
    if (page.alternates.length === 0) {
      add(diagnostic('languages/hreflang-missing', { message: 'the page has no hreflang alternates' }));
      continue;
    }
    const seen = new Set<string>();
    for (const alt of page.alternates) {
      const lang = alt.hreflang.toLowerCase();
      if (seen.has(lang)) add(diagnostic('languages/hreflang-duplicate', { message: `hreflang "${alt.hreflang}" is listed twice` }));
      seen.add(lang);
    }
    if (!seen.has('x-default')) add(diagnostic('languages/hreflang-x-default', { message: 'the hreflang alternates have no x-default' }));
    const self = page.alternates.find((a) => a.hreflang !== 'x-default' && pathOf(a.href) === page.path);
    if (!self) {
      add(diagnostic('languages/hreflang-self', { message: `the hreflang alternates do not include the page itself (${page.lang ?? 'no lang'})` }));
    } else if (page.lang && self.hreflang.toLowerCase() !== page.lang.toLowerCase()) {
      add(
        diagnostic('languages/hreflang-mismatch', {
          message: `the page lists itself as hreflang "${self.hreflang}" but its <html lang> is "${page.lang}"`,
          hint: 'the hreflang of a page and its lang attribute must agree',
        }),
      );
    }
    for (const alt of page.alternates) {
      const target = pathOf(alt.href);
      if (target === null || target === page.path) continue;
      const other = site.pages.get(target);
      if (!other) {
        add(diagnostic('languages/hreflang-broken', { message: `hreflang "${alt.hreflang}" points to ${alt.href}, which is not a page of this site` }));
        continue;
      }
      if (alt.hreflang === 'x-default') continue;
      if (other.lang && other.lang.toLowerCase() !== alt.hreflang.toLowerCase()) {
        add(diagnostic('languages/hreflang-mismatch', { message: `hreflang "${alt.hreflang}" points to ${target}, whose <html lang> is "${other.lang}"` }));
      }
      if (!other.alternates.some((a) => a.hreflang.toLowerCase() !== 'x-default' && pathOf(a.href) === page.path)) {
        add(
          diagnostic('languages/hreflang-not-reciprocal', {
            message: `hreflang "${alt.hreflang}" points to ${target}, which does not point back to this page`,
            hint: `${target} must list ${page.path} among its alternates (Google ignores one-way annotations); check that both entries share one translation key (folder)`,
          }),
        );
      }
    }
  }
  return findings;
}

/** A page that links to another language's page when that page exists in the page's own language. */
export function checkCrossLanguage(site: CheckSite, links: ResolvedLink[]): Finding[] {
  const findings: Finding[] = [];
  const origin = site.siteUrl ? new URL(site.siteUrl).origin : 'http://ir-site.invalid';
  for (const r of links) {
    const { link, to } = r;
    if (link.place !== 'body' || (link.tag !== 'a' && link.tag !== 'area') || link.hreflang !== undefined) continue;
    if (to.kind !== 'page' || to.wildcard || to.page.noindex) continue;
    const from = site.pages.get(r.from)!;
    const mine = localeOfLang(site, from.lang);
    const theirs = localeOfLang(site, to.page.lang);
    if (!mine || !theirs || mine === theirs) continue;
    const hrefLang = site.locales.find((l) => l.code === mine)?.hrefLang ?? mine;
    const version = to.page.alternates.find((a) => a.hreflang.toLowerCase() === hrefLang.toLowerCase());
    if (!version) continue;
    let versionPath = version.href;
    try {
      const u = new URL(version.href, origin);
      if (u.origin === origin) versionPath = decodeURIComponent(u.pathname);
    } catch {
      // keep the href as written
    }
    const at = originOf(site, r.from, link);
    const { fromTemplate: _, ...where } = at;
    findings.push(diagnostic('languages/cross-language-link', {
      ...where,
      page: r.from,
      message: `this ${languageName(mine)} page links to the ${languageName(theirs)} page ${to.path}, which has ${withArticle(languageName(mine))} version: ${versionPath}`,
      hint: `link to ${versionPath}${to.fragment ? ` (the #${to.fragment} anchor may have another id there)` : ''}`,
    }));
  }
  return findings;
}

