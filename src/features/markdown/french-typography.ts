// French typography: the no-break spaces French sets around some punctuation, so that a `?`
// never starts a line on its own and a number never parts from its `%`:
//   - a narrow no-break space (U+202F) before `;`, `!` and `?`;
//   - a no-break space (U+00A0) before `:` and `»`, after `«`, and between a number and `%` or `$`
//     (what `Intl.NumberFormat('fr-CA')` writes).
// An ordinary space there becomes the no-break one; a missing one is added; one already there
// is kept. Text only: never inside code, URLs, e-mail addresses or attributes, and never in a
// time or ratio (`12:30`). Used on French bodies (a rehype plugin, the first of the site's
// rehype plugins) and on French UI strings.
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';

const NBSP = '\u00a0';
const NNBSP = '\u202f';
/** Stands in for content the rules must not touch (code, an image): a character, never a space. */
const OPAQUE = '\ufffc';

/** Elements whose text is not prose. */
const OPAQUE_ELEMENTS = new Set(['code', 'kbd', 'samp', 'var', 'pre', 'script', 'style', 'img', 'svg', 'math', 'input']);
/** Elements inside a line of text; every other element starts a new run of text. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'data', 'del', 'dfn', 'em', 'i', 'ins', 'mark', 'q', 's', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u']);

const URL_OR_EMAIL = /(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>"]*|[^\s@<>"(]+@[^\s@<>"]+\.[^\s@<>")]+/gi;
const SPACE = /[ \t]/;
const OPENING = new Set(['(', '[', '{', '«', '"', '\u201c', '\u2018']);

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

  /** A space of `kind` before position `i`: the ordinary spaces before it become one, or one is added. */
  const spaceBefore = (i: number, kind: string) => {
    let start = i;
    while (start > 0 && SPACE.test(text[start - 1]!)) start--;
    const before = text[start - 1];
    // Nothing before it on the line, or an opening bracket or quote: no space.
    if (before === undefined || before === '\n' || OPENING.has(before)) return;
    if (before === NBSP || before === NNBSP) return;
    edits.push({ at: start, remove: i - start, insert: kind });
  };
  const spaceAfter = (i: number, kind: string) => {
    let end = i + 1;
    while (end < text.length && SPACE.test(text[end]!)) end++;
    const after = text[end];
    if (after === undefined || after === '\n' || after === NBSP || after === NNBSP) return;
    edits.push({ at: i + 1, remove: end - i - 1, insert: kind });
  };

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!';!?:«»%$'.includes(c) || isGuarded(i)) continue;
    const previous = text[i - 1];
    if (c === ';' || c === '!' || c === '?') {
      // `?!`: one space, before the first.
      if (previous === ';' || previous === '!' || previous === '?') continue;
      spaceBefore(i, NNBSP);
    } else if (c === ':') {
      // 12:30, 1:2
      if (previous !== undefined && /\d/.test(previous) && /\d/.test(text[i + 1] ?? '')) continue;
      spaceBefore(i, NBSP);
    } else if (c === '»') {
      spaceBefore(i, NBSP);
    } else if (c === '«') {
      spaceAfter(i, NBSP);
    } else {
      // % and $ after a number (4,8 %, 1 234 $); not `$` before one ($1).
      let start = i;
      while (start > 0 && SPACE.test(text[start - 1]!)) start--;
      if (start > 0 && /\d/.test(text[start - 1]!)) spaceBefore(i, NBSP);
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
            text += '\n';
          } else if (OPAQUE_ELEMENTS.has(element.tagName)) {
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
