// Redirect lookup, the same in every place that answers a rule: the server, the
// browser runtime and the not-found pages' script. Exact path first; then the
// lowercased path among rules that ignore case; never a redirect to the same path.
import type { RedirectRule } from './types.js';

export interface RedirectIndex {
  exact: Map<string, RedirectRule>;
  lower: Map<string, RedirectRule>;
}

export function indexRedirects(rules: readonly RedirectRule[]): RedirectIndex {
  const exact = new Map<string, RedirectRule>();
  const lower = new Map<string, RedirectRule>();
  for (const rule of rules) {
    exact.set(rule.fromPath, rule);
    if (rule.ignoreCase) lower.set(rule.fromPath.toLowerCase(), rule);
  }
  return { exact, lower };
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
