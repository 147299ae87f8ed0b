// The page title is the page's only h1, so a body that uses `#` headings is shifted
// down one level as a whole (h1 -> h2, h2 -> h3, ...), keeping its outline intact.
import type { Root } from 'hast';
import { elements } from './hast-elements.js';

/** rehype plugin: a body with an h1 has every heading shifted one level down. */
export function rehypeDemoteHeadings() {
  return demoteHeadings;
}

function demoteHeadings(tree: Root): void {
  if (!elements(tree.children, (node) => node.tagName === 'h1')) return;
  elements(tree.children, (node) => {
    const m = /^h([1-5])$/.exec(node.tagName);
    if (m) node.tagName = `h${Number(m[1]) + 1}`;
  });
}
