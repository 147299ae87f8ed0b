// How a link's address is written, whatever it leads to: backslashes for slashes, `mailto:`
// with no address, `//host` where `/path` was meant, http:// on an https site, an empty
// `href`, and links whose address the sanitiser removed. Pure: facts in, findings out.
import { normalizeUri } from 'micromark-util-sanitize-uri';
import { diagnostic } from '../../errors/diagnostic.js';
import type { LinkFact } from './html.js';
import type { CheckSite, Finding } from './model.js';
import { originOf } from './origin.js';
import type { ResolvedLink } from './resolve.js';

const schemeOf = (url: string) => /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];

/** The address without its query and fragment: where a backslash cannot be meant. */
const pathPart = (url: string) => url.split(/[?#]/, 1)[0]!;

/** A `\` (or `%5C`) in the path of a web address: markdown sends it as `%5C`, which no server reads as `/`. */
export function hasBackslash(url: string): boolean {
  // Called for every reference of the site: plain string searches first.
  if (!url.includes('\\') && !(url.includes('%') && BACKSLASH.test(url))) return false;
  const scheme = schemeOf(url)?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return false;
  return BACKSLASH.test(pathPart(url));
}

const BACKSLASH = /\\|%5c/i;

/** The address with its backslashes turned into slashes, the way it was meant. */
const withSlashes = (url: string) => pathPart(url).replace(/\\|%5c/gi, '/') + url.slice(pathPart(url).length);

/** Schemes whose address is the part before `?`: `mailto:ir@x.example?subject=Hi`. */
const ADDRESS_SCHEMES = new Set(['mailto', 'tel', 'sms']);

/** One e-mail address: something, `@`, a domain with a dot. Deliberately loose; it catches `mailto:ir` and `mailto:ir@x`. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

const isAnchor = (link: LinkFact) => link.tag === 'a' || link.tag === 'area';

/** Tags whose `src` the browser loads with the page (not followed by a click). */
const LOADED = new Set(['img', 'source', 'script', 'iframe', 'video', 'audio', 'track', 'embed']);

export function checkAddresses(site: CheckSite, links: ResolvedLink[]): Finding[] {
  const findings: Finding[] = [];
  const own = site.siteUrl ? new URL(site.siteUrl) : null;
  const https = own?.protocol === 'https:';

  const found = (r: ResolvedLink, f: Omit<Finding, 'file' | 'page'>) => {
    const { fromTemplate: _, ...at } = originOf(site, r.from, r.link);
    findings.push({ ...at, ...f, page: r.from });
  };
  for (const r of links) {
    const { link, to } = r;
    // The head's references are the build's own (stylesheet, icons, canonical): links.ts checks where they lead.
    if (link.place === 'head') continue;
    const url = link.url;
    // Most references are plain site paths (`/x/`, not `//x/`), with nothing to say here.
    const sitePath = url.charCodeAt(0) === 47 /* / */ && url.charCodeAt(1) !== 47;
    if (sitePath && !hasBackslash(url)) continue;
    const scheme = sitePath ? undefined : schemeOf(url)?.toLowerCase();

    if (hasBackslash(url)) {
      found(r, diagnostic('links/backslash', {
        message: `the address ${url.replace(/%5c/gi, '\\')} has a backslash (\\) where web addresses have a slash (/)`,
        hint: `write ${withSlashes(url)}: a markdown link sends a backslash as %5C, which leads nowhere; browsers repair one in raw HTML, crawlers and other tools do not`,
      }));
      continue;
    }

    if (scheme !== undefined && ADDRESS_SCHEMES.has(scheme)) {
      const [path = '', query = ''] = url.slice(scheme.length + 1).split(/\?(.*)/s);
      // `mailto:?to=ir@x.example` is a valid way to write the address (RFC 6068).
      const address = [path.trim(), ...new URLSearchParams(query).getAll('to')].filter((a) => a !== '').join(',');
      if (address === '') {
        found(r, diagnostic('links/empty-address', {
          message: `the link ${url} has no ${scheme === 'mailto' ? 'e-mail address' : 'number'}: it opens ${scheme === 'mailto' ? 'a message' : scheme === 'tel' ? 'a call' : 'a text message'} to nobody`,
          hint: scheme === 'mailto' ? 'write the address after mailto:, e.g. mailto:investors@example.com' : `write the number after ${scheme}:, e.g. ${scheme}:+15145550100`,
        }));
        continue;
      }
      if (scheme === 'mailto') {
        let decoded = address;
        try {
          decoded = decodeURIComponent(address);
        } catch {
          // left as written
        }
        const bad = decoded.split(',').map((a) => a.trim()).filter((a) => !EMAIL.test(a));
        if (bad.length > 0) {
          found(r, diagnostic('links/malformed-address', { message: `the link ${url}: "${bad[0]}" is not an e-mail address` }));
        }
      }
      continue;
    }

    if (isAnchor(link) && (url === '' || url === '#')) {
      found(
        r,
        diagnostic('links/empty', {
          message: url === '' ? 'a link with an empty address: it reloads the page' : 'a link to "#" only: it jumps to the top of the page',
        }),
      );
      continue;
    }

    if (/^[/\\]{2}/.test(url)) {
      // `//insights/` names a host called "insights": almost always one slash too many.
      const host = to.kind === 'external' ? new URL(to.url).hostname : null;
      const typo = host !== null && !host.includes('.');
      found(r, diagnostic('links/protocol-relative', {
        severity: typo ? 'error' : 'warning',
        message: typo
          ? `the address ${url} starts with two slashes, so it names another host, "${host}", not a page of this site`
          : `the address ${url} starts with two slashes: it leaves the site for ${host ?? 'another host'}, over the page's own protocol`,
        hint: typo ? `write ${url.slice(1)} for a page of this site` : `write the whole address, https:${url}, or one slash for a page of this site`,
      }));
      continue;
    }

    if (scheme === 'http' && https && own && URL.canParse(url)) {
      const u = new URL(url);
      if (u.host === own.host && isAnchor(link)) {
        found(r, diagnostic('links/http-own-site', {
          message: `the link ${url} goes to this site over http://`,
          hint: `write the site path, ${u.pathname}${u.search}${u.hash}: it works on every host the site is served from, with no detour through http`,
        }));
      } else if (LOADED.has(link.tag) && !isAnchor(link)) {
        found(
          r,
          diagnostic('links/mixed-content', {
            message: `${link.tag === 'img' || link.tag === 'source' ? 'the image' : `the <${link.tag}>`} ${url} is loaded over http:// on an https site`,
          }),
        );
      }
    }
  }

  findings.push(...removedLinks(site));
  return findings;
}

/**
 * Links that lost their address: only those written in an entry's body can be told from an
 * `<a>` a template leaves without href on purpose.
 */
function removedLinks(site: CheckSite): Finding[] {
  const findings: Finding[] = [];
  for (const page of site.pages.values()) {
    if (page.linksWithoutHref.length === 0) continue;
    const route = site.routes.get(page.path);
    if (!route?.markdown) continue;
    // A link with the same text whose address is on the page was not the one removed.
    const hrefs = new Set(page.links.map((l) => l.url));
    const kept = (url: string) => hrefs.has(url) || hrefs.has(normalizeUri(url));
    const seen = new Set<string>();
    for (const text of page.linksWithoutHref) {
      if (seen.has(text)) continue;
      seen.add(text);
      for (const written of site.sources.linksWithText(site.withText(route), text)) {
        if (kept(written.url)) continue;
        const scheme = schemeOf(written.url);
        const lower = scheme?.toLowerCase();
        const caseOnly = scheme !== undefined && scheme !== lower && (lower === 'http' || lower === 'https' || lower === 'mailto');
        const { url, ...at } = written;
        findings.push(diagnostic('links/removed', {
          ...at,
          page: page.path,
          message: `the link "${text}" has no address on the page: ${url || 'its address'} was removed when the content was made safe`,
          hint: caseOnly
            ? `write the scheme in lower case: ${lower}:${url.slice(scheme.length + 1)}`
            : lower === 'file'
              ? 'the address is a file on the writer\'s computer: put the file next to the entry and link to its name'
              : `content links keep web and e-mail addresses only${scheme ? ` (not ${scheme}:)` : ''}: link to a page, or write the text without a link`,
        }));
      }
    }
  }
  return findings;
}
