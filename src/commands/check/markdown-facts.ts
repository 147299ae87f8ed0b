// The facts of a page that its markdown body decides, read from the markdown itself: the
// links it writes and the ids its headings get. This is what lets every build check links
// and anchors (quick.ts) without parsing the rendered HTML: a scan with regular expressions,
// like images/references.ts, at a small fraction of what parsing the markdown costs. It sees
// less than the HTML does (links a template makes, ids a remark plugin adds): `ir-site
// check` reads the output and stays the complete gate.
import GithubSlugger from 'github-slugger';
import { CONTENT_ID_PREFIX, RESERVED_IDS } from '../../shared/dom-ids.js';
import { INLINE_LINK, RAW_LINK } from './sources.js';

export interface MarkdownFacts {
  /** Addresses of `[text](url)`, `[label]: url` and `<a href>`, as written. */
  links: string[];
  /** The ids the rendered page has: the page's own, each heading's slug, the body's raw ids (prefixed). */
  ids: Set<string>;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const DEFINITION = /^ {0,3}\[(?!\^)[^\]]+\]:[ \t]*<?([^\s>]+)>?/;
const RAW_HEADING = /<h[1-6]\b[^>]*>([\s\S]*?)<\/h[1-6]\s*>/gi;
const RAW_ID = /<[a-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']/gi;

/** A heading's text as the page shows it (what its slug is made from): no marks, link text only. */
export function headingText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/[*_~`]/g, '')
    .trim();
}

/** The body without its code (fenced blocks and inline spans blanked): nothing there is a link or a heading. */
function withoutCode(body: string): string[] {
  let fence: string | null = null;
  return body.split('\n').map((line) => {
    const m = FENCE.exec(line);
    if (fence !== null) {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length) fence = null;
      return '';
    }
    if (m) {
      fence = m[1]!;
      return '';
    }
    return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => ' '.repeat(span.length));
  });
}

export function markdownFacts(body: string): MarkdownFacts {
  const lines = withoutCode(body);
  const links: string[] = [];
  const headings: string[] = [];
  const ids = new Set<string>(RESERVED_IDS);
  lines.forEach((line, i) => {
    const atx = ATX.exec(line);
    if (atx) headings.push(headingText(atx[1] ?? ''));
    else if (SETEXT.test(line) && i > 0 && lines[i - 1]!.trim() !== '' && !/^\s*[-*+]\s/.test(lines[i - 1]!)) headings.push(headingText(lines[i - 1]!));
    const definition = DEFINITION.exec(line);
    if (definition) links.push(definition[1]!);
  });
  const text = lines.join('\n');
  for (const m of text.matchAll(INLINE_LINK)) links.push(m[2]!.replace(/^<|>$/g, ''));
  for (const m of text.matchAll(RAW_LINK)) links.push(m[1] ?? m[2] ?? m[3] ?? '');
  for (const m of text.matchAll(RAW_HEADING)) headings.push(headingText(m[1]!));
  for (const m of text.matchAll(RAW_ID)) ids.add(`${CONTENT_ID_PREFIX}${m[1]!}`).add(m[1]!);
  // As features/markdown/heading-ids.ts gives them: the page's own ids count as taken.
  const slugs = new GithubSlugger();
  for (const id of RESERVED_IDS) slugs.slug(id, true);
  for (const h of headings) ids.add(slugs.slug(h));
  return { links: links.filter((l) => l !== ''), ids };
}
