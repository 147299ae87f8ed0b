// Redirect lookup, the same in every place that answers a rule: the server, the
// browser runtime and the not-found pages' script. Exact path first; then the
// lowercased path among rules that ignore case; never a redirect to the same path.
// Wildcard rules (`/cn/*` -> `/:splat`, a fromPath ending in `/*`) are looked up last,
// by the longest prefix, and `:splat` in the target is the rest of the path.
import type { RedirectRule } from './types.js';

export interface RedirectIndex {
  exact: Map<string, RedirectRule>;
  lower: Map<string, RedirectRule>;
  /** Wildcard rules by prefix (`/cn/`, lowercased when the rule ignores case), longest first. */
  wildcards: { prefix: string; rule: RedirectRule }[];
}

export function indexRedirects(rules: readonly RedirectRule[]): RedirectIndex {
  const exact = new Map<string, RedirectRule>();
  const lower = new Map<string, RedirectRule>();
  const wildcards: RedirectIndex['wildcards'] = [];
  for (const rule of rules) {
    if (rule.fromPath.endsWith('/*')) {
      const prefix = rule.fromPath.slice(0, -1);
      wildcards.push({ prefix: rule.ignoreCase ? prefix.toLowerCase() : prefix, rule });
      continue;
    }
    exact.set(rule.fromPath, rule);
    if (rule.ignoreCase) lower.set(rule.fromPath.toLowerCase(), rule);
  }
  wildcards.sort((a, b) => b.prefix.length - a.prefix.length);
  return { exact, lower, wildcards };
}

/**
 * Where a wildcard rule sends `path`: `/cn/fr/x/` -> `/fr/x/` for `/cn/*` -> `/:splat`.
 * Undefined when no rule's prefix starts the path, or the target would be the path itself
 * or would leave the site (`/cn//host` -> `//host`).
 */
export function wildcardRedirect(index: RedirectIndex, path: string): string | undefined {
  return wildcardMatch(index, path)?.target;
}

/** The wildcard rule `path` meets and where it sends it, as wildcardRedirect says. */
export function wildcardMatch(index: RedirectIndex, path: string): { rule: RedirectRule; target: string } | undefined {
  const lowered = path.toLowerCase();
  const found = index.wildcards.find(({ prefix, rule }) => (rule.ignoreCase ? lowered : path).startsWith(prefix));
  if (!found) return undefined;
  // A function, so that `$&` or `$'` in the path is text, not a replacement pattern.
  const target = found.rule.toPath.replace(':splat', () => path.slice(found.prefix.length));
  return target !== path && isSafeTarget(target) ? { rule: found.rule, target } : undefined;
}

export function exactRedirect(index: RedirectIndex, path: string): RedirectRule | undefined {
  const rule = index.exact.get(path);
  return rule && rule.toPath !== path ? rule : undefined;
}

export function caseInsensitiveRedirect(index: RedirectIndex, path: string): RedirectRule | undefined {
  const rule = index.lower.get(path.toLowerCase());
  return rule && rule.toPath !== path ? rule : undefined;
}

export function findRedirect(index: RedirectIndex, path: string): RedirectRule | undefined {
  return exactRedirect(index, path) ?? caseInsensitiveRedirect(index, path);
}

/** Only site paths and http(s) URLs are targets; `//host` and `/\host` would be open redirects. */
export function isSafeTarget(to: string): boolean {
  return /^\/(?![/\\])/.test(to) || /^https?:\/\/[^/\\]/i.test(to);
}

/** The target with the request's query string kept (joined with `&` if the target has one). */
export function withQuery(to: string, search: string): string {
  if (!search || search === '?') return to;
  return to.includes('?') ? `${to}&${search.slice(1)}` : `${to}${search}`;
}
