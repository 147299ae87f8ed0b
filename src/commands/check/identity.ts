// Another identity's words in this build (site.config.ts `identities.<key>.words`): one
// content tree serves every identity, so a name written out where a `{{token}}` belongs, or an
// entry or block not limited to its identity, shows the other company on this one's pages.
import { diagnostic } from '../../errors/diagnostic.js';
import type { Finding, CheckSite } from './model.js';
import { pageSource } from './origin.js';
import { pagePathOf } from './html.js';
import { escapeRe } from './sources.js';

interface Word {
  identity: string;
  pattern: RegExp;
}

/** Whole words only ("Henri" is not in "Henrietta"), any case: an e-mail domain is lower case, a name capitalised. */
function wordsOf(other: Readonly<Record<string, readonly string[]>>): Word[] {
  return Object.entries(other).flatMap(([identity, words]) =>
    words.map((word) => ({ identity, pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(word)}(?![\\p{L}\\p{N}])`, 'iu') })),
  );
}

/** Where the word is written in the page's source entry, when it is written there (else the page's entry or template). */
function locate(site: CheckSite, pagePath: string, pattern: RegExp): { file: string; line?: number; excerpt?: string } {
  const { file } = pageSource(site, pagePath);
  const lines = file.endsWith('.md') ? (site.sources.text(file)?.split('\n') ?? []) : [];
  const i = lines.findIndex((l) => pattern.test(l));
  return i === -1 ? { file } : { file, line: i + 1, excerpt: lines[i] };
}

/** A few characters either side of the match, tags removed, for the message. */
function context(html: string, index: number, length: number): string {
  const text = (s: string) => s.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
  return `${text(html.slice(Math.max(0, index - 60), index)).slice(-40)}${html.slice(index, index + length)}${text(html.slice(index + length, index + length + 60)).slice(0, 40)}`.trim();
}

/** One finding per page and word: the first place the page holds it (text, attribute, head or page data). */
export function checkOtherIdentity(site: CheckSite, html: ReadonlyMap<string, string>, other: Readonly<Record<string, readonly string[]>>): Finding[] {
  const words = wordsOf(other);
  if (words.length === 0) return [];
  const findings: Finding[] = [];
  for (const [rel, text] of html) {
    const pagePath = pagePathOf(rel);
    for (const { identity, pattern } of words) {
      const match = pattern.exec(text);
      if (!match) continue;
      findings.push(
        diagnostic('site/other-identity', {
          ...locate(site, pagePath, pattern),
          page: pagePath,
          message: `"${match[0]}" belongs to the identity "${identity}", not to this build: …${context(text, match.index, match[0].length)}…`,
        }),
      );
    }
  }
  return findings;
}
