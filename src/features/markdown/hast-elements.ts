// The markdown plugins' one tree walk: a plain recursive loop over elements, because
// unist-util-visit's generality costs more than this on every body.
import type { Element, RootContent } from 'hast';

/** Calls `each` on every element in document order; stops and returns true as soon as `each` does. */
export function elements(nodes: readonly RootContent[], each: (node: Element) => boolean | void): boolean {
  for (const node of nodes) {
    if (node.type !== 'element') continue;
    if (each(node) === true || elements(node.children, each)) return true;
  }
  return false;
}
