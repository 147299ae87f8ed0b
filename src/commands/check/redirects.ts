// Redirects: the output's rules checked against the output's pages. The certain problems
// (missing target, two rules from one path, a rule hiding a page, chains, loops) are the
// build's own checkRedirectRules; this adds what only a check can afford to say: a rule
// that ignores case and catches other spellings of a real page.
import { diagnostic } from '../../errors/diagnostic.js';
import { checkRedirectRules, redirectKey } from '../../build/graph/redirects.js';
import type { RedirectOrigin } from '../../build/graph/model.js';
import type { Finding, CheckSite } from './model.js';

export function checkRedirectsOf(site: CheckSite, redirectsFile: string): Finding[] {
  const pages = new Set(site.pages.keys());
  const { diagnostics } = checkRedirectRules(site.redirects, pages);
  const findings: Finding[] = [...diagnostics];

  // Case-insensitive collisions: a rule from /Foo/ that ignores case also answers /foo/'s
  // other spellings. Not a problem when the page is the rule's own target (the lower-case
  // commentary slug that redirects to the capitalised page: the server never redirects a
  // path to itself), nor when the exact path is a page (checkRedirectRules reports that).
  const byLower = new Map<string, string[]>();
  for (const p of pages) {
    const key = p.toLowerCase();
    byLower.set(key, [...(byLower.get(key) ?? []), p]);
  }
  const seen = new Set<string>();
  for (const o of site.redirects) {
    if (!o.rule.ignoreCase || pages.has(o.rule.fromPath)) continue;
    const key = redirectKey(o.rule);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const page of byLower.get(key) ?? []) {
      if (page === o.rule.toPath) continue;
      findings.push(diagnostic('redirects/case-shadows-page', {
        ...where(o, redirectsFile),
        message: `the redirect from ${o.rule.fromPath} ignores case, so every other spelling of the page ${page} (such as ${o.rule.fromPath}) goes to ${o.rule.toPath} instead of the page`,
        hint: `remove the rule, or point it at ${page}`,
      }));
    }
  }
  return findings;
}

function where(o: RedirectOrigin, redirectsFile: string): Pick<Finding, 'file' | 'line' | 'field'> {
  return {
    file: o.file ?? redirectsFile,
    line: o.line,
    field: o.kind === 'written' ? 'from' : o.kind === 'redirectFrom' ? 'redirectFrom' : undefined,
  };
}
