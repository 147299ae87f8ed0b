// The page title is the page's only h1, so a body that uses `#` headings is shifted
// down one level as a whole (h1 -> h2, h2 -> h3, ...), keeping its outline intact.
import type { Element, Root } from 'hast';
import { visit } from 'unist-util-visit';

export function demoteHeadings() {
  return (tree: Root) => {
    let hasH1 = false;
    visit(tree, 'element', (node: Element) => {
      if (node.tagName === 'h1') hasH1 = true;
    });
    if (!hasH1) return;
    visit(tree, 'element', (node: Element) => {
      const m = /^h([1-5])$/.exec(node.tagName);
      if (m) node.tagName = `h${Number(m[1]) + 1}`;
    });
  };
}
