// The redirect rules (redirects.json) as server configuration for static hosts: a `_redirects`
// file for Netlify and Cloudflare Pages, and an include file for nginx. Pure: rules in, text out.
//
// The semantics every host should give (docs/hosting.md; `ir-site serve` does the same):
//   1. a rule whose fromPath equals the request path exactly -> 302 to toPath, query kept;
//   2. else a file for the path (`/x/` -> x/index.html) is served;
//   3. else a rule whose fromPath matches without regard to case -> 302, never to the same path;
//   4. else the not-found page, status 404 (/fr/... -> fr/404.html, /cn/... -> cn/404.html, else 404.html).
// What a host cannot do server-side, the not-found pages' inline script does in the browser.
//
// Every path here comes from content files, so nothing in a path may ever become syntax of the
// host's file: a rule whose paths hold whitespace or control characters, a fromPath with a query
// or fragment, or a target that is neither a site path nor an http(s) URL throws a
// HostRedirectError. Everything else is percent-encoded, escaped or quoted.
import type { MatchPath } from '../../shared/match-paths.js';
import type { RedirectRule } from '../../shared/types.js';

/** Where the build should write each file, relative to the output folder. */
export const NETLIFY_REDIRECTS_FILE = '_redirects';
export const NGINX_REDIRECTS_FILE = 'nginx-redirects.conf';

export interface HostRedirectOptions {
  /**
   * Paths that exist in the output (page paths such as `/article/commentary-Q2-2025/`, files
   * such as `/404.html`). When given, no case-insensitive line ever catches one of them (step 2
   * before step 3). Without it only a rule's own target is protected.
   */
  pagePaths?: Iterable<string>;
  /**
   * Pages that answer every path under a prefix (`/search/*` -> `/search/`), written as
   * rewrites (status 200) after every redirect: a file at the path still wins.
   */
  matchPaths?: readonly MatchPath[];
}

/** A wildcard rule: `/cn/*` -> `/:splat` (fromPath ends in `/*`; `:splat` in the target is the rest). */
const isWildcardRule = (rule: RedirectRule) => rule.fromPath.endsWith('/*');
/** A match path a host can be given: `/prefix/*` with site paths only. */
const usableMatchPaths = (list: readonly MatchPath[] = []) =>
  list.filter((m) => /^\/[A-Za-z0-9\-._~/]*\/\*$/.test(m.matchPath) && /^\/[A-Za-z0-9\-._~/]*$/.test(m.path));

/** A rule that cannot be written safely into a host's configuration. */
export class HostRedirectError extends Error {
  constructor(rule: Pick<RedirectRule, 'fromPath' | 'toPath'>, problem: string) {
    super(`redirect rule ${JSON.stringify(rule.fromPath)} -> ${JSON.stringify(rule.toPath)}: ${problem}`);
    this.name = 'HostRedirectError';
  }
}

// Whitespace (any Unicode space, as \s sees it) and control characters (C0, DEL, C1).
const UNSAFE_RAW = /[\s\u0000-\u001f\u007f-\u009f]/u;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const ABSOLUTE = /^https?:\/\//i;

/** The path without query and fragment. */
const bare = (p: string) => p.split(/[?#]/, 1)[0]!;

interface CheckedRule {
  from: string;
  to: string;
  external: boolean;
}

function check(rule: RedirectRule): CheckedRule {
  const { fromPath: from, toPath: to } = rule;
  if (typeof from !== 'string' || typeof to !== 'string') throw new HostRedirectError(rule, 'fromPath and toPath must be strings');
  if (UNSAFE_RAW.test(from)) throw new HostRedirectError(rule, 'fromPath contains whitespace or a control character');
  if (UNSAFE_RAW.test(to)) throw new HostRedirectError(rule, 'toPath contains whitespace or a control character');
  if (!from.startsWith('/')) throw new HostRedirectError(rule, 'fromPath must start with "/"');
  if (/[?#]/.test(from)) throw new HostRedirectError(rule, 'fromPath may not contain "?" or "#" (hosts match paths only)');
  const external = ABSOLUTE.test(to);
  if (external) {
    let url: URL;
    try {
      url = new URL(to);
    } catch {
      throw new HostRedirectError(rule, 'toPath is not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HostRedirectError(rule, 'toPath must be a site path or an http(s) URL');
  } else {
    if (!to.startsWith('/')) throw new HostRedirectError(rule, 'toPath must be a site path starting with "/" or an http(s) URL');
    // `//host` and `/\host` are read by browsers as another site: an open redirect.
    if (/^\/[/\\]/.test(to)) throw new HostRedirectError(rule, 'toPath may not start with "//" or "/\\" (it would leave the site)');
    if (bare(to) === from) throw new HostRedirectError(rule, 'the rule redirects a path to itself');
  }
  return { from, to, external };
}

const HEX = '0123456789ABCDEF';
const pct = (byte: number) => `%${HEX[byte >> 4]}${HEX[byte & 15]}`;

/**
 * Percent-encodes everything outside the URL characters a host file can carry as they are:
 * non-ASCII, spaces, quotes, backslashes, `$`, `<>^`{|}`, and `%` not followed by two hex digits.
 */
export function encodeUrl(s: string): string {
  let out = '';
  const bytes = Buffer.from(s, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const c = String.fromCharCode(b);
    if (b === 0x25 /* % */) {
      const next = bytes.subarray(i + 1, i + 3).toString('latin1');
      out += /^[0-9A-Fa-f]{2}$/.test(next) ? '%' : '%25';
    } else if (b < 0x80 && /[A-Za-z0-9\-._~!&'()*+,;=:@/?#[\]]/.test(c)) {
      out += c;
    } else {
      out += pct(b);
    }
  }
  return out;
}

/** `%XX` decoded the way nginx decodes a request URI before matching locations; null when invalid. */
function decodePath(p: string): string | null {
  try {
    return decodeURIComponent(p);
  } catch {
    return null;
  }
}

const lowerAscii = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
/** ASCII letters lowered, `%XX` escapes left as they are. */
const lowerEncoded = (s: string) => s.replace(/%[0-9A-Fa-f]{2}|[A-Z]+/g, (m) => (m.startsWith('%') ? m : m.toLowerCase()));

// --- Netlify and Cloudflare Pages: `_redirects` --------------------------------------------------
//
// How the two hosts treat these lines (checked against their documentation and, for Cloudflare,
// its asset server's source in workers-sdk):
// - Netlify: "Paths are case-sensitive and special characters in paths must be url-encoded."
//   A rule does not apply when a file exists at the requested path ("shadowing", unless the
//   status has a `!`), so a real page is always served. The query string is passed on to the
//   target for 301/302 rules.
// - Cloudflare Pages: a line without `*` or `:placeholder` is a static rule, looked up by the
//   exact (percent-encoded) request path: case-sensitive. Redirects apply whether or not an asset
//   exists at the path, so a line must never name a real page. The request's query string is
//   appended unless the target has its own. Limits: 2,000 static rules, 1,000 characters a line.
// Both are case-sensitive, so each rule is written as it is and, when different, in lower case
// (the spelling people type). A lower-case line is left out when it would name the rule's own
// target (commentary-q2 -> commentary-Q2 lower-cases to itself) or a known page. Any other case
// reaches the not-found page, whose script applies the rule in the browser.

function hasPattern(s: string): boolean {
  // `*` is a splat; `:name` a placeholder (both hosts).
  return s.includes('*') || /:[A-Za-z_]/.test(s.replace(/^https?:\/\//i, ''));
}

export function netlifyRedirects(rules: readonly RedirectRule[], options: HostRedirectOptions = {}): string {
  const pages = new Set([...(options.pagePaths ?? [])].map((p) => encodeUrl(p)));
  const lines = [
    '# Generated by ir-site from redirects.json: do not edit. Netlify and Cloudflare Pages.',
    '# Paths match case-sensitively on both hosts: each rule is listed as written and in lower case.',
    '# Any other case reaches the not-found page, whose script applies redirects.json in the browser.',
  ];
  const skipped: string[] = [];
  const exact: string[] = [];
  const lowered: string[] = [];
  const sources = new Set<string>();
  const usable: { from: string; to: string; toBare: string }[] = [];

  const wildcards: string[] = [];
  for (const rule of rules) {
    if (isWildcardRule(rule)) {
      wildcards.push(...netlifyWildcard(rule));
      continue;
    }
    const { from, to } = check(rule);
    const encFrom = encodeUrl(from);
    const encTo = encodeUrl(to);
    if (hasPattern(encFrom) || hasPattern(encTo)) {
      skipped.push(`# skipped (a "*" or ":name" would be read as a pattern): ${encFrom} -> ${encTo}`);
      continue;
    }
    if (sources.has(encFrom)) continue; // first rule wins, as on both hosts
    sources.add(encFrom);
    usable.push({ from: encFrom, to: encTo, toBare: bare(encTo) });
    exact.push(`${encFrom} ${encTo} 302`);
  }
  for (const r of usable) {
    const lower = lowerEncoded(r.from);
    if (lower === r.from || lower === r.toBare || sources.has(lower) || pages.has(lower)) continue;
    sources.add(lower);
    lowered.push(`${lower} ${r.to} 302`);
  }
  // Rewrites last: a file at the path is served first (Netlify), and no redirect is hidden.
  const rewrites = usableMatchPaths(options.matchPaths).map((m) => `${m.matchPath} ${m.path} 200`);
  return `${[...lines, ...skipped, ...exact, ...lowered, ...wildcards, ...rewrites].join('\n')}\n`;
}

/**
 * `/cn/*  /:splat  302`, and the upper-case spelling of the prefix when the rule ignores case
 * (both hosts match case-sensitively; a mixed-case prefix reaches the not-found page, whose
 * script and the runtime strip it in the browser).
 */
function netlifyWildcard(rule: RedirectRule): string[] {
  const prefix = rule.fromPath.slice(0, -1);
  if (!/^\/[A-Za-z0-9\-._~/]*\/$/.test(prefix) || !/^\/[A-Za-z0-9\-._~/]*(:splat)?[A-Za-z0-9\-._~/]*$/.test(rule.toPath)) {
    throw new HostRedirectError(rule, 'a wildcard rule must be "/prefix/*" to a site path (":splat" for the rest of the path)');
  }
  const spellings = rule.ignoreCase ? [...new Set([prefix, prefix.toLowerCase(), prefix.toUpperCase()])] : [prefix];
  return spellings.map((p) => `${p}* ${rule.toPath} 302`);
}

// --- nginx: an include for the server {} block ---------------------------------------------------
//
// nginx matches locations against the decoded, normalised request path. For every rule:
//   location = "<from>" { ... return 302 "<to>$is_args$args"; }   exact: wins over every other location
//   location ~* "^<from>$" { ... }                                  any other case
// A regex location wins over prefix locations (`location /`), so it would win over a real file too:
// the regex carries a case-sensitive negative lookahead, `^(?!(?-i:<path>)$)<from>$`, for the
// rule's own target when it differs only in case (commentary-q2 -> commentary-Q2), and for every
// known page of that spelling (options.pagePaths). Other files are not known here (docs/hosting.md).
//
// Quoting: locations and targets are double-quoted strings. An exact path has `\` and `"`
// escaped; a regex spells every punctuation character as `\<char>` and `"`, `'`, `\` and every
// non-ASCII or unusual byte as `\xHH`, so no sequence means anything to nginx's parser. A target is
// percent-encoded down to URL characters without `"`, `\` or `$` (nginx expands `$` in `return`).

function regexEscape(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9/_-]/.test(c)) out += c;
    else if (b > 0x20 && b < 0x7f && !`"'\\`.includes(c)) out += `\\${c}`;
    else out += `\\x${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return out;
}

export const quoteExact = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

function nginxReturn(to: string): string {
  const hashAt = to.indexOf('#');
  const base = hashAt < 0 ? to : to.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : to.slice(hashAt);
  // The request's query goes after the target's own query and before any fragment.
  if (base.includes('?')) return `if ($args) { return 302 "${base}&$args${hash}"; } return 302 "${base}${hash}";`;
  return `return 302 "${base}$is_args$args${hash}";`;
}

export function nginxRedirects(rules: readonly RedirectRule[], options: HostRedirectOptions = {}): string {
  // Pages by their lowercased spelling, so each rule finds its case twins without a scan.
  const pagesByKey = new Map<string, string[]>();
  for (const p of options.pagePaths ?? []) {
    const page = decodePath(p) ?? p;
    const key = lowerAscii(page);
    pagesByKey.set(key, [...(pagesByKey.get(key) ?? []), page]);
  }
  const head = [
    '# Generated by ir-site from redirects.json: do not edit.',
    '# Include it inside your server {} block, before your own regex locations:',
    '#   include /path/to/nginx-redirects.conf;',
    '# Exact paths redirect first; other cases of a path redirect unless a page has that spelling.',
  ];
  const skipped: string[] = [];
  const exact: string[] = [];
  const caseless: string[] = [];
  const seen = new Set<string>();

  const wildcards: string[] = [];
  for (const rule of rules) {
    if (isWildcardRule(rule)) {
      wildcards.push(nginxWildcard(rule));
      continue;
    }
    const checked = check(rule);
    const to = encodeUrl(checked.to);
    const from = decodePath(checked.from);
    if (from === null || CONTROL.test(from)) {
      skipped.push(`# skipped (nginx cannot match this path): ${encodeUrl(checked.from)}`);
      continue;
    }
    if (seen.has(from)) continue; // first rule wins
    seen.add(from);
    const body = `{ absolute_redirect off; ${nginxReturn(to)} }`;
    exact.push(`location = ${quoteExact(from)} ${body}`);

    if (!/[A-Za-z]/.test(from)) continue; // no other case to catch
    const key = lowerAscii(from);
    const guarded = new Set<string>();
    if (!checked.external) {
      const target = decodePath(bare(checked.to));
      if (target !== null && lowerAscii(target) === key) guarded.add(target);
    }
    for (const p of pagesByKey.get(key) ?? []) if (p !== from) guarded.add(p);
    const guards = [...guarded].map((p) => `(?!(?-i:${regexEscape(p)})$)`).join('');
    caseless.push(`location ~* "^${guards}${regexEscape(from)}$" ${body}`);
  }
  const rewrites = usableMatchPaths(options.matchPaths).map(
    (m) => `location ~ "^${regexEscape(m.matchPath.slice(0, -1))}" { try_files $uri \${uri}index.html ${quoteExact(`${m.path}index.html`)}; }`,
  );
  return `${[...head, ...skipped, ...exact, ...caseless, ...wildcards, ...rewrites].join('\n')}\n`;
}

/**
 * `/cn/*` -> `/:splat` as one regex location (`~*` when the rule ignores case). The rest of the
 * path comes from `$request_uri`, still percent-encoded as the client sent it: a decoded `$uri`
 * in a `Location` header would let `%0d%0a` through. A rest that starts with `/` or `\` (which
 * would leave the site) gets the not-found page. So does a rest with other capitals when the
 * rule ignores case: nginx cannot lower-case it, and `/Insights/` is no page; the not-found
 * page's runtime finds the page without regard to case (client/redirects.ts).
 */
function nginxWildcard(rule: RedirectRule): string {
  const prefix = rule.fromPath.slice(0, -1);
  if (!/^\/[A-Za-z0-9\-._~/]*\/$/.test(prefix) || !/^\/[A-Za-z0-9\-._~/]*(:splat)?[A-Za-z0-9\-._~/]*$/.test(rule.toPath)) {
    throw new HostRedirectError(rule, 'a wildcard rule must be "/prefix/*" to a site path (":splat" for the rest of the path)');
  }
  const op = rule.ignoreCase ? '~*' : '~';
  const target = rule.toPath.replace(':splat', '$1');
  // Capitals a page may have stay: a %-code's hex digits, a commentary's quarter (`Q2-2025`).
  const caseless = '(?:[^?A-Z%]|%[0-9A-Fa-f]{2}|Q(?=[1-4]-[0-9]{4}))*';
  const [from, rest] = rule.ignoreCase ? [`(?i:${regexEscape(prefix)})`, caseless] : [regexEscape(prefix), '[^?]*'];
  return `location ${op} "^${regexEscape(prefix)}" { absolute_redirect off; if ($request_uri ~ "^${from}((?![/\\x5C])${rest})(?:\\?|$)" ) { return 302 "${target}$is_args$args"; } return 404; }`;
}
