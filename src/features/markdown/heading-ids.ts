// Heading ids as rehype-slug gives them (GitHub's slugs of the heading text, `-1`, `-2`... for
// repeats within a body), with the page's own ids counted as taken, so a heading "Main
// content" gets `main-content-1` and never shadows the page's element (src/shared/dom-ids.ts).
// rehype-slug cannot be told which ids are taken; this is its few lines with that one change.
import GithubSlugger from 'github-slugger';
import type { Root, RootContent } from 'hast';
import { toString } from 'hast-util-to-string';
import { RESERVED_IDS } from '../../shared/dom-ids.js';

const HEADING = /^h[1-6]$/;

function walk(nodes: readonly RootContent[], slugs: GithubSlugger): void {
  for (const node of nodes) {
    if (node.type !== 'element') continue;
    if (HEADING.test(node.tagName) && !node.properties.id) node.properties.id = slugs.slug(toString(node));
    walk(node.children, slugs);
  }
}

/** rehype plugin: every heading without an id gets its slug; repeats are counted per body. */
export function rehypeHeadingIds() {
  const slugs = new GithubSlugger();
  return (tree: Root): void => {
    slugs.reset();
    for (const id of RESERVED_IDS) slugs.slug(id, true);
    walk(tree.children, slugs);
  };
}
