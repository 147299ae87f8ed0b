// Heading ids as rehype-slug gives them (GitHub's slugs of the heading text, `-1`, `-2`... for
// repeats within a body), in a plain recursive walk in document order: unified's plugin
// machinery and unist-util-visit cost more than the slugs themselves on every body.
// The page's own ids count as taken, so a heading "Main content" gets `main-content-1` and
// never shadows the page's element (src/shared/dom-ids.ts).
import GithubSlugger from 'github-slugger';
import type { Root, RootContent } from 'hast';
import { toString } from 'hast-util-to-string';
import { RESERVED_IDS } from '../shared/dom-ids.js';

const HEADING = /^h[1-6]$/;
const slugs = new GithubSlugger();

function walk(nodes: readonly RootContent[]): void {
  for (const node of nodes) {
    if (node.type !== 'element') continue;
    if (HEADING.test(node.tagName) && !node.properties.id) node.properties.id = slugs.slug(toString(node));
    walk(node.children);
  }
}

/** Gives every heading without an id its slug; repeats are counted per tree. */
export function addHeadingIds(tree: Root): void {
  slugs.reset();
  for (const id of RESERVED_IDS) slugs.slug(id, true);
  walk(tree.children);
}
