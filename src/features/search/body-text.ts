// A rendered body -> the words a reader sees, for the search index. The tree is the one the
// page itself shows (the markdown pipeline's output, src/features/markdown/to-react-tree.ts),
// so the index reads what the markdown means, not a second guess at its syntax: raw HTML is
// already sanitised, entities decoded, links and images reduced to their text and alt.
import type { MarkdownNode, MarkdownProps, MarkdownTree } from '../../shared/types.js';

/** Elements whose end ends a line of text. */
const BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'dt', 'dd', 'tr', 'pre', 'blockquote', 'figcaption', 'caption', 'div', 'section', 'table', 'ul', 'ol', 'hr', 'br']);

/** Footnote references and back-references are markers (`1`, `↩`), and the footnotes' heading is a label. */
function isMarker(props: MarkdownProps | null): boolean {
  return !!props && ('data-footnote-ref' in props || 'data-footnote-backref' in props || props.id === 'user-content-footnote-label');
}

function collect(node: MarkdownNode, out: string[]): void {
  if (typeof node === 'string') {
    out.push(node);
    return;
  }
  const [tag, props, ...children] = node;
  if (isMarker(props)) return;
  if (tag === 'img') {
    const alt = props?.alt;
    if (typeof alt === 'string') out.push(alt);
    return;
  }
  // Cells of a row are words apart, not glued together.
  if (tag === 'td' || tag === 'th') out.push(' ');
  for (const child of children) collect(child, out);
  if (BLOCKS.has(tag)) out.push('\n');
}

/** The body's text, one line per block, spaces collapsed. */
export function bodyText(tree: MarkdownTree | null | undefined): string {
  if (!tree) return '';
  const out: string[] = [];
  for (const node of tree.children) collect(node, out);
  return out
    .join('')
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}

/**
 * The first `max` characters of `text`, cut at a word boundary, with an ellipsis when cut. One
 * line of ordinary spaces; the no-break spaces of French typography stay.
 */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/[ \t\r\n\f\v]+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
}
