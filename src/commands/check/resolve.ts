// Where a URL written in a page leads: a page of the output (maybe through redirect rules),
// another output file, nowhere, or outside the site. Pure: the site's facts in, an answer out.
import { HOST_FILES } from '../../build/emit/host-files.js';
import { redirectKey } from '../../build/graph/redirects.js';
import { indexRedirects, wildcardMatch, type RedirectIndex } from '../../shared/redirects.js';
import type { RedirectOrigin } from '../../build/graph/model.js';
import type { LinkFact, PageFacts } from './html.js';
import type { CheckSite } from './model.js';

export type Resolution =
  /** An HTML page of the output; `via` lists the redirect rules followed to reach it. */
  | { kind: 'page'; path: string; page: PageFacts; fragment: string | null; via: RedirectOrigin[]; wildcard?: boolean }
  /** Another output file (PDF, image, script...). */
  | { kind: 'file'; path: string; via: RedirectOrigin[] }
  /** Nothing in the output answers this path (after `via`, when rules were followed). */
  | { kind: 'missing'; path: string; fragment: string | null; via: RedirectOrigin[] }
  /** Redirect rules that go round in a circle. */
  | { kind: 'loop'; path: string; via: RedirectOrigin[] }
  /** Another site (http, https, protocol-relative); `via` lists the redirect rules that sent there. */
  | { kind: 'external'; url: string; via: RedirectOrigin[] }
  /** Not a link to check: mailto:, tel:, javascript:, data:, an empty href. */
  | { kind: 'skip' };

export interface ResolvedLink {
  /** The page the link is on. */
  from: string;
  link: LinkFact;
  to: Resolution;
}

const BASE = 'http://ir-site.invalid';
const MAX_HOPS = 10;

function decodePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

function decodeFragment(hash: string): string | null {
  if (hash === '' || hash === '#') return null;
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}

export class Resolver {
  /** The site's origin, and its http:// twin: an absolute link to either is a link into the site. */
  private readonly origins: ReadonlySet<string>;
  /** `https:` or `http:`: what a protocol-relative `//host/path` gets on the live site. */
  private readonly protocol: string;
  /** Redirect rules by their key (lowercased source when they ignore case). */
  private readonly rules = new Map<string, RedirectOrigin>();
  private readonly wildcards: { prefix: string; page: PageFacts }[] = [];
  /** The wildcard rules (`/cn/*`), looked up as the server does, and where each rule comes from. */
  private readonly legacy: RedirectIndex;
  private readonly originOf = new Map<unknown, RedirectOrigin>();

  constructor(private readonly site: CheckSite) {
    const origin = site.siteUrl ? new URL(site.siteUrl) : null;
    this.origins = new Set(origin ? [origin.origin, `http://${origin.host}`] : []);
    this.protocol = origin?.protocol ?? 'https:';
    for (const o of site.redirects) if (!this.rules.has(redirectKey(o.rule))) this.rules.set(redirectKey(o.rule), o);
    const wildcardRules = site.redirects.filter((o) => o.rule.fromPath.endsWith('/*'));
    for (const o of wildcardRules) this.originOf.set(o.rule, o);
    this.legacy = indexRedirects(wildcardRules.map((o) => o.rule));
    for (const page of site.pages.values()) {
      if (page.matchPath?.endsWith('*')) this.wildcards.push({ prefix: page.matchPath.slice(0, -1), page });
    }
    this.wildcards.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /**
   * The rule a request for `path` meets, as the server finds it: exact source first, then
   * lowercased for rules that ignore case; each for the path, then the path with its slash.
   */
  ruleFor(path: string): RedirectOrigin | undefined {
    const slashed = path.endsWith('/') ? null : `${path}/`;
    const exact = this.rules.get(path) ?? (slashed === null ? undefined : this.rules.get(slashed));
    if (exact) return exact;
    for (const p of slashed === null ? [path] : [path, slashed]) {
      const lowered = this.rules.get(p.toLowerCase());
      if (lowered?.rule.ignoreCase) return lowered;
    }
    return undefined;
  }

  /** The site path of an absolute or relative URL written on page `from`, or an external/skip answer. */
  target(url: string, from: string): { path: string; fragment: string | null } | Resolution {
    const raw = url.trim();
    if (raw === '') return { kind: 'skip' };
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
    let parsed: URL;
    try {
      parsed = new URL(raw, `${BASE}${from}`);
    } catch {
      return { kind: 'missing', path: raw, fragment: null, via: [] };
    }
    if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return { kind: 'skip' };
    // `//host/x` (or `\\host\x`, which browsers read the same) takes the page's own protocol.
    if (scheme === undefined && /^[/\\]{2}/.test(raw)) parsed.protocol = this.protocol;
    if (parsed.origin !== BASE && !this.origins.has(parsed.origin)) return { kind: 'external', url: parsed.href, via: [] };
    return { path: decodePath(parsed.pathname), fragment: decodeFragment(parsed.hash) };
  }

  private readonly cache = new Map<string, Resolution>();

  resolve(url: string, from: string): Resolution {
    // A site-absolute path means the same from every page: resolve it once.
    const absolute = url.charCodeAt(0) === 47 /* / */ && url.charCodeAt(1) !== 47;
    if (absolute) {
      const known = this.cache.get(url);
      if (known) return known;
    }
    const found = this.resolveUncached(url, from);
    if (absolute) this.cache.set(url, found);
    return found;
  }

  private resolveUncached(url: string, from: string): Resolution {
    const target = this.target(url, from);
    if ('kind' in target) return target;
    return this.follow(target.path, target.fragment);
  }

  /** What a request for `path` gets: a page, a file, a redirect to one of them, or nothing. */
  follow(path: string, fragment: string | null, via: RedirectOrigin[] = []): Resolution {
    const { pages, files } = this.site;
    const page = pages.get(path) ?? (path.endsWith('/') ? undefined : pages.get(`${path}/`));
    if (page) return { kind: 'page', path: page.path, page, fragment, via };
    const rel = path.slice(1);
    // A host's configuration file is in the output, but no host serves it.
    if (rel !== '' && files.has(rel) && !HOST_FILES.has(path)) return { kind: 'file', path, via };
    const rule = this.ruleFor(path);
    if (rule) return this.hop(rule, rule.rule.toPath, path, fragment, via, false);
    const legacy = wildcardMatch(this.legacy, path);
    if (legacy) return this.hop(this.originOf.get(legacy.rule)!, legacy.target, path, fragment, via, true);
    const wildcard = this.wildcards.find((w) => path.startsWith(w.prefix));
    if (wildcard) return { kind: 'page', path, page: wildcard.page, fragment, via, wildcard: true };
    return { kind: 'missing', path, fragment, via };
  }

  /**
   * Where the rule `origin` sends a request for `path`, to `to`. `caseless`: a legacy path, which
   * matches without regard to case (SPEC.md section 2): the page as written, else its lower-case
   * spelling, as the server looks (server/static-handler.ts).
   */
  private hop(origin: RedirectOrigin, to: string, path: string, fragment: string | null, via: RedirectOrigin[], caseless: boolean): Resolution {
    const chain = [...via, origin];
    if (via.includes(origin) || via.length >= MAX_HOPS) return { kind: 'loop', path, via: chain };
    if (/^https?:\/\//i.test(to)) return { kind: 'external', url: to, via: chain };
    const next = this.target(to, path);
    if ('kind' in next) return next.kind === 'external' ? { ...next, via: chain } : next;
    // A fragment on the link wins over one on the rule's target, as browsers do.
    const reached = this.follow(next.path, fragment ?? next.fragment, chain);
    const lower = next.path.toLowerCase();
    return caseless && reached.kind === 'missing' && lower !== next.path ? this.follow(lower, fragment ?? next.fragment, chain) : reached;
  }
}

/** Every reference of every page, resolved once; the link, language and site checks share them. */
export function resolveAll(site: CheckSite, resolver: Resolver): ResolvedLink[] {
  const out: ResolvedLink[] = [];
  for (const page of site.pages.values()) {
    for (const link of page.links) out.push({ from: page.path, link, to: resolver.resolve(link.url, page.path) });
  }
  return out;
}
