// Every redirect rule, written and generated (CONTENT.md "Redirect rules"), and the
// problems that are certain at build time: missing targets, two rules from one path,
// rules that hide a page, chains and loops. Pure.
import type { ResolvedConfig } from '../config/resolve.js';
import type { ArticleEntry, ValidSite } from '../content/entries.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import { localizePath } from '../../shared/paths.js';
import type { RedirectRule } from '../../shared/types.js';
import { findRedirect, indexRedirects } from '../../shared/redirects.js';
import type { RedirectOrigin, Route } from './model.js';

const isExternal = (to: string) => /^https?:\/\//i.test(to);
const bare = (p: string) => p.split(/[?#]/, 1)[0]!;
/** A wildcard rule (`/cn/*` -> `/:splat`): its target is made per request, so it has none to check. */
export const isWildcard = (r: Pick<RedirectRule, 'fromPath'>) => r.fromPath.endsWith('/*');

export function rule(fromPath: string, toPath: string): RedirectRule {
  return { fromPath, toPath, isPermanent: false, ignoreCase: true, redirectInBrowser: true };
}

/** The rules ir-site writes itself, never by hand. */
export function generatedRedirects(routes: Route[], articles: ArticleEntry[], config: ResolvedConfig): RedirectOrigin[] {
  const out: RedirectOrigin[] = [];
  const pages = new Set(routes.map((r) => r.path));
  const { defaultLocale } = config;

  // Legacy prefixes: one wildcard rule each, `/cn/*` -> `/:splat` (Netlify's spelling), for
  // every path under the prefix, French and unknown ones included: the target decides.
  for (const prefix of config.legacyPrefixes) out.push({ rule: rule(`/${prefix}/*`, '/:splat'), kind: 'legacy-prefix', file: null });

  // Page 1 of a paged listing is the listing's own path; `/insights/1/`, the address people
  // and old links make from `/insights/2/`, goes there.
  for (const r of routes) {
    const pagination = 'pagination' in r.data ? r.data.pagination : null;
    if (pagination && pagination.page === 1 && pagination.pages > 1 && !pages.has(`${r.path}1/`)) {
      out.push({ rule: rule(`${r.path}1/`, r.path), kind: 'first-page', file: r.file });
    }
  }

  const originals = new Map(articles.filter((o) => o.locale === defaultLocale).map((o) => [o.key, o]));
  const translated = new Set(articles.map((o) => `${o.locale}\0${o.key}`));
  for (const a of articles) {
    const path = localizePath(`/article/${a.fm.slug}/`, a.locale, defaultLocale);
    // Commentary slugs carry a capitalised quarter; the lower-case spelling people type redirects to it.
    const lowered = path.replace(/Q(?=[1-4]-\d{4})/g, 'q');
    if (lowered !== path && pages.has(path)) {
      out.push({ rule: rule(lowered, path), kind: 'quarter-case', file: a.file, line: a.fieldLines['slug'] });
    }
    // A translated slug typed without its language prefix goes to the default-language article.
    if (a.locale !== defaultLocale) {
      const unprefixed = `/article/${a.fm.slug}/`;
      if (!pages.has(unprefixed)) {
        const original = originals.get(a.key);
        const target = original ? `/article/${original.fm.slug}/` : path;
        out.push({ rule: rule(unprefixed, target), kind: 'foreign-slug', file: a.file, line: a.fieldLines['slug'] });
      }
    }
    // An article with no translation in a language: its path under that language's prefix
    // (a French visitor's guess, a language switcher elsewhere) goes to the article as it is.
    if (a.locale === defaultLocale) {
      for (const l of config.locales) {
        if (l.code === defaultLocale || translated.has(`${l.code}\0${a.key}`)) continue;
        const foreign = localizePath(`/article/${a.fm.slug}/`, l.code, defaultLocale);
        if (!pages.has(foreign)) out.push({ rule: rule(foreign, path), kind: 'untranslated', file: a.file, line: a.fieldLines['slug'] });
      }
    }
    for (const from of a.fm.redirectFrom) {
      out.push({ rule: rule(from, path), kind: 'redirectFrom', file: a.file, line: a.fieldLines['redirectFrom'] });
    }
  }
  return out;
}

export function writtenRedirects(site: ValidSite): RedirectOrigin[] {
  return site.redirects.map((w) => ({ rule: rule(w.from, w.to), kind: 'written', file: w.file, line: w.line }));
}

function where(o: RedirectOrigin): string {
  if (!o.file) return `a generated ${o.kind} rule`;
  return o.line ? `${o.file}:${o.line}` : o.file;
}

/**
 * The key a rule is looked up by: its lowercased source when it ignores case (every rule
 * ir-site writes does), its exact source otherwise. Two rules with one key are "two rules
 * from one path".
 */
export function redirectKey(rule: Pick<RedirectRule, 'fromPath'> & { ignoreCase: boolean }): string {
  return rule.ignoreCase ? rule.fromPath.toLowerCase() : rule.fromPath;
}

/**
 * Merges rules (identical duplicates collapse into one) and reports every certain problem.
 * Rules are matched case-insensitively (ignoreCase is always true), so "one path" means
 * one lowercased path.
 */
export function checkRedirects(origins: RedirectOrigin[], routes: Route[]): { redirects: RedirectOrigin[]; diagnostics: Diagnostic[] } {
  return checkRedirectRules(origins, new Set(routes.map((r) => r.path)));
}

/**
 * `checkRedirects` against a set of page paths: the graph's routes at build time, the
 * pages of an output folder in `ir-site check --dir`.
 */
export function checkRedirectRules(origins: RedirectOrigin[], pages: ReadonlySet<string>): { redirects: RedirectOrigin[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  // `target`: the problem is where the rule points (the `to:` of a written rule), not where it is from.
  const problem = (o: RedirectOrigin, found: Omit<Diagnostic, 'file' | 'line' | 'field'>, target = false) =>
    diagnostics.push({
      ...found,
      file: o.file ?? 'config/redirects.yaml',
      line: o.line,
      field: o.kind === 'written' ? (target ? 'to' : 'from') : o.kind === 'redirectFrom' ? 'redirectFrom' : undefined,
    });

  const byFrom = new Map<string, RedirectOrigin>();
  for (const o of origins) {
    const key = redirectKey(o.rule);
    const first = byFrom.get(key);
    if (first) {
      if (first.rule.toPath !== o.rule.toPath) {
        problem(
          o,
          diagnostic('redirects/duplicate-source', {
            message: `two redirect rules from ${o.rule.fromPath}: to ${first.rule.toPath} (${where(first)}) and to ${o.rule.toPath}`,
          }),
        );
      }
      continue;
    }
    byFrom.set(key, o);
  }

  const merged = [...byFrom.values()];
  // The rule the server answers `path` with (shared/redirects.ts): the exact path first, then the
  // lowercased path for rules that ignore case, never a redirect to the path itself.
  const index = indexRedirects(merged.map((o) => o.rule));
  const originOf = new Map(merged.map((o) => [o.rule, o]));
  const lookup = (path: string) => {
    const rule = findRedirect(index, path);
    return rule && originOf.get(rule);
  };
  for (const o of merged) {
    const { fromPath, toPath } = o.rule;
    if (o.kind === 'legacy-prefix') {
      // A host that answers redirects before files (nginx's location rules) would send these pages away.
      const under = fromPath.slice(0, -1);
      // Its own not-found page (routes.ts) is the one page meant to be there.
      const hidden = [...pages].find((page) => page.startsWith(under) && page !== `${under}404.html`);
      if (hidden) {
        diagnostics.push(
          diagnostic('redirects/shadows-page', {
            file: 'site.config.ts',
            field: 'legacyPrefixes',
            message: `the legacy prefix ${under} is the start of pages of this site (${hidden}): its redirect would hide them`,
            hint: 'remove the prefix from legacyPrefixes, or name one no page path starts with',
          }),
        );
      }
    }
    if (isWildcard(o.rule)) continue;
    if (pages.has(fromPath)) {
      problem(o, diagnostic('redirects/shadows-page', { message: `the redirect from ${fromPath} hides a page that exists at that path` }));
      continue;
    }
    if (!isExternal(toPath) && !pages.has(bare(toPath)) && !lookup(bare(toPath))) {
      problem(o, diagnostic('redirects/missing-target', { message: `the redirect from ${fromPath} points to ${toPath}, which is not a page of this site` }), true);
    }
  }

  // Chains and loops: follow each rule through the others. A target that is a page ends
  // the walk: the page is served before any case-insensitive rule is looked at.
  const ruleAt = (to: string) => (pages.has(bare(to)) ? undefined : lookup(bare(to)));
  const reportedLoops = new Set<string>();
  for (const o of merged) {
    if (isWildcard(o.rule)) continue;
    const seen = [o.rule.fromPath];
    let next = ruleAt(o.rule.toPath);
    while (next && !seen.includes(next.rule.fromPath)) {
      seen.push(next.rule.fromPath);
      next = ruleAt(next.rule.toPath);
    }
    if (seen.length === 1) continue;
    if (next) {
      const members = [...seen].sort().join('\0');
      if (reportedLoops.has(members)) continue;
      reportedLoops.add(members);
      problem(o, diagnostic('redirects/loop', { message: `redirect loop: ${[...seen, next.rule.fromPath].join(' -> ')}` }));
    } else {
      const end = lookup(seen[seen.length - 1]!)!.rule.toPath;
      problem(o, diagnostic('redirects/chain', { message: `redirect chain: ${[...seen, end].join(' -> ')}`, hint: `point ${o.rule.fromPath} at ${end}` }), true);
    }
  }
  return { redirects: merged, diagnostics };
}
