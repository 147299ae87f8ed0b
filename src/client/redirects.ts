// The redirect rules the browser applies (RUNTIME.md "Redirects in the browser"),
// fetched once from /page-data/redirects.json. Legacy prefixes (`/cn/`) are one rule
// each, not one per page, so the file stays small on large sites.
import { findRedirect, indexRedirects, isSafeTarget, withQuery, type RedirectIndex } from '../shared/redirects.js';
import type { RedirectRule } from '../shared/types.js';

/** Written by the build (src/build/emit/index.ts browserRedirects). */
interface BrowserRedirects {
  legacyPrefixes: string[];
  rules: [from: string, to: string][];
  casedPaths?: string[];
}

export class RedirectTable {
  private index: Promise<{ rules: RedirectIndex; prefixes: string[]; cased: Map<string, string> }> | null = null;

  private load() {
    this.index ??= fetch('/page-data/redirects.json')
      .then((r) => (r.ok ? (r.json() as Promise<BrowserRedirects>) : { legacyPrefixes: [], rules: [] }))
      .catch(() => ({ legacyPrefixes: [], rules: [] }) as BrowserRedirects)
      .then((data) => ({
        prefixes: data.legacyPrefixes.map((p) => `/${p.toLowerCase()}/`),
        cased: new Map((data.casedPaths ?? []).map((p) => [p.toLowerCase(), p])),
        rules: indexRedirects(
          data.rules.map(([fromPath, toPath]): RedirectRule => ({ fromPath, toPath, isPermanent: false, ignoreCase: true, redirectInBrowser: true })),
        ),
      }));
    return this.index;
  }

  /** Where `pathname` redirects to (query and hash kept), or null. */
  async resolve(pathname: string, search: string, hash: string): Promise<string | null> {
    const { rules, prefixes, cased } = await this.load();
    const rule = findRedirect(rules, pathname);
    if (rule) return withQuery(rule.toPath, search) + hash;
    const prefix = prefixes.find((p) => pathname.toLowerCase().startsWith(p));
    if (!prefix) return null;
    // Legacy paths match without regard to case, like the server's per-page rules: the rest
    // is looked up lowercased, and the rules bring back the capitals a page really has
    // (`/CN/Article/Commentary-q2-2025/` -> `/article/commentary-Q2-2025/`), or else the list
    // of pages with capitals in their path (`/cn/your-team/jdoe/` -> `/your-team/JDoe/`).
    const rest = pathname.slice(prefix.length - 1).toLowerCase();
    // `/cn//evil.example/` would leave the site: what follows the prefix is a path of this site, or nothing.
    if (!isSafeTarget(rest)) return null;
    const again = findRedirect(rules, rest);
    return withQuery(again?.toPath ?? cased.get(rest) ?? rest, search) + hash;
  }
}
