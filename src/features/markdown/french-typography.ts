// French typography: the no-break spaces French sets around some punctuation, so that a `?`
// never starts a line on its own and a number never parts from its `%`:
//   - a narrow no-break space (U+202F) before `;`, `!` and `?`;
//   - a no-break space (U+00A0) before `:` and `»`, after `«`, and between a number and `%` or `$`
//     (what `Intl.NumberFormat('fr-CA')` writes).
// The ordinary spaces there (a line break in the source too) become the no-break one; a missing
// one is added; a lone no-break space already there is kept. A colon or semicolon gets its space
// only where prose has one after it: never in a time or ratio (`12:30`), an address without `//`
// (`tel:+1…`, `doi:10.…`), a path (`C:\`) or a smiley. Text only: never inside code, URLs,
// e-mail addresses or attributes, nor in a passage marked as another language (`lang="en"`).
// Used on French bodies (a rehype plugin, the first of the site's rehype plugins) and on French
// UI strings, where a `{placeholder}` counts as the number it stands for (`{total} %`).
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';

const NBSP = '\u00a0';
const NNBSP = '\u202f';
/** Stands in for content the rules must not touch (code, an image): a character, never a space. */
const OPAQUE = '\ufffc';
/** Stands in for a `<br>`: a line starts after it, so no space goes before a sign there. */
const LINE_BREAK = '\u2028';

/** Elements whose text is not prose. */
const OPAQUE_ELEMENTS = new Set(['code', 'kbd', 'samp', 'var', 'pre', 'script', 'style', 'img', 'svg', 'math', 'input']);
/** Elements inside a line of text; every other element starts a new run of text. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'data', 'del', 'dfn', 'em', 'i', 'ins', 'mark', 'q', 's', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u']);

const URL_OR_EMAIL = /(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>"«»]*|[^\s@<>"(«»]+@[^\s@<>"«»]+\.[^\s@<>")«»]+/gi;
/** Spaces that the rules replace: ordinary ones, a source line break, and any other kind next to them. */
const SPACE = /[ \t\n\u00a0\u202f\u2009]/;
const NO_BREAK = /^[\u00a0\u202f]$/;
const OPENING = new Set(['(', '[', '{', '«', '"', '\u201c', '\u2018']);
/** What may follow a colon or semicolon in prose: a space, the end, or a closing mark. */
const AFTER_PROSE_COLON = /^(?:$|[\s\u00a0\u202f»)\]"\u201d\u2019])/;

interface Edit {
  /** Position in the text. */
  at: number;
  /** Characters replaced from there (ordinary spaces), 0 for an insertion. */
  remove: number;
  insert: string;
}

/** The edits French typography makes to `text`; URLs and e-mail addresses are left alone. */
const TOUCHED = /[;!?:«»%$]/;

function frenchEdits(text: string): Edit[] {
  if (!TOUCHED.test(text)) return [];
  const guarded: Array<[number, number]> = [];
  // As GFM's autolinks do, trailing punctuation ends the address: `ir@example.com;` is followed by a `;`.
  for (const m of text.matchAll(URL_OR_EMAIL)) guarded.push([m.index, m.index + m[0].replace(/[.,;:!?*_~)]+$/, '').length]);
  const isGuarded = (i: number) => guarded.some(([a, b]) => i >= a && i < b);
  const edits: Edit[] = [];

  /** A space of `kind` before position `i`: the spaces before it become one, or one is added. */
  const spaceBefore = (i: number, kind: string) => {
    let start = i;
    while (start > 0 && SPACE.test(text[start - 1]!)) start--;
    const before = text[start - 1];
    // Nothing before it on the line, or an opening bracket or quote: no space. A straight quote
    // right after a word closes a quotation.
    if (before === undefined || before === LINE_BREAK) return;
    if (OPENING.has(before) && !(before === '"' && start > 1 && !SPACE.test(text[start - 2]!) && !OPENING.has(text[start - 2]!))) return;
    if (NO_BREAK.test(text.slice(start, i))) return;
    edits.push({ at: start, remove: i - start, insert: kind });
  };
  const spaceAfter = (i: number, kind: string) => {
    let end = i + 1;
    while (end < text.length && SPACE.test(text[end]!)) end++;
    const after = text[end];
    if (after === undefined || after === LINE_BREAK || NO_BREAK.test(text.slice(i + 1, end))) return;
    edits.push({ at: i + 1, remove: end - i - 1, insert: kind });
  };
  /** A number, or a `{placeholder}` of a UI string, which stands for one. */
  const isNumberEnd = (c: string | undefined) => c !== undefined && (/\d/.test(c) || c === '}');

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!';!?:«»%$'.includes(c) || isGuarded(i)) continue;
    const previous = text[i - 1];
    if ((c === ':' || c === ';') && !AFTER_PROSE_COLON.test(text.slice(i + 1, i + 2))) continue;
    // `Merci:)` is a smiley, not a colon closing a parenthesis.
    if ((c === ':' || c === ';') && text[i + 1] === ')' && previous !== undefined && !SPACE.test(previous)) continue;
    if (c === ';' || c === '!' || c === '?') {
      // `?!`: one space, before the first.
      if (previous === ';' || previous === '!' || previous === '?') continue;
      spaceBefore(i, NNBSP);
    } else if (c === ':') {
      spaceBefore(i, NBSP);
    } else if (c === '»') {
      spaceBefore(i, NBSP);
    } else if (c === '«') {
      spaceAfter(i, NBSP);
    } else {
      // % and $ after a number (4,8 %, 1 234 $); not `$` before one ($1).
      let start = i;
      while (start > 0 && SPACE.test(text[start - 1]!)) start--;
      if (isNumberEnd(text[start - 1])) spaceBefore(i, NBSP);
    }
  }
  return edits;
}

function apply(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.at - a.at)) out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.remove);
  return out;
}

/** A French UI string with French typography. */
export function typesetFrench(text: string): string {
  return apply(text, frenchEdits(text));
}

interface Segment {
  node: Text | null;
  start: number;
}

/** Applies the edits of one run of text to the text nodes it was made of. */
function typesetRun(segments: readonly Segment[], text: string): void {
  const edits = frenchEdits(text);
  if (edits.length === 0) return;
  const byNode = new Map<Text, Edit[]>();
  // An edit starting at a node's first position goes to that node (before-punctuation spaces sit
  // with the punctuation); removals never cross a node: each removed space is its own edit.
  const segmentAt = (at: number) => {
    let found = segments[0]!;
    for (const s of segments) if (s.start <= at) found = s;
    return found;
  };
  for (const edit of edits) {
    for (let k = 0; k < Math.max(edit.remove, 1); k++) {
      const at = edit.at + k;
      let segment = at < text.length ? segmentAt(at) : segments[segments.length - 1]!;
      // An insertion just before code or an image goes at the end of the text before it.
      if (!segment.node && edit.remove === 0) segment = [...segments].reverse().find((s) => s.node && s.start < at) ?? segment;
      if (!segment.node) continue;
      const local = Math.min(at - segment.start, segment.node.value.length);
      const piece: Edit = { at: local, remove: edit.remove === 0 ? 0 : 1, insert: k === 0 ? edit.insert : '' };
      const list = byNode.get(segment.node) ?? [];
      list.push(piece);
      byNode.set(segment.node, list);
    }
  }
  for (const [node, list] of byNode) node.value = apply(node.value, list);
}

/** An element marked as a language other than French: its text is left as written. */
function otherLanguage(element: Element): boolean {
  const lang = element.properties?.lang;
  return typeof lang === 'string' && lang !== '' && !/^fr\b/i.test(lang);
}

/** rehype plugin: French typography in every run of prose text of the body. */
export function rehypeFrenchTypography() {
  return (tree: Root): void => {
    let segments: Segment[] = [];
    let text = '';
    const flush = () => {
      if (segments.some((s) => s.node)) typesetRun(segments, text);
      segments = [];
      text = '';
    };
    const walk = (nodes: readonly (RootContent | ElementContent)[]) => {
      for (const node of nodes) {
        if (node.type === 'text') {
          segments.push({ node, start: text.length });
          text += node.value;
        } else if (node.type === 'element') {
          const element = node as Element;
          if (element.tagName === 'br') {
            segments.push({ node: null, start: text.length });
            text += LINE_BREAK;
          } else if (OPAQUE_ELEMENTS.has(element.tagName) || otherLanguage(element)) {
            segments.push({ node: null, start: text.length });
            text += OPAQUE;
          } else if (INLINE.has(element.tagName)) {
            walk(element.children);
          } else {
            flush();
            walk(element.children);
            flush();
          }
        }
      }
    };
    walk(tree.children);
    flush();
  };
}
