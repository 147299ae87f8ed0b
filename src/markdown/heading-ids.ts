// Heading ids as rehype-slug gives them (GitHub's slugs of the heading text, `-1`, `-2`... for
// repeats within a body), in a plain recursive walk in document order: unified's plugin
// machinery and unist-util-visit cost more than the slugs themselves on every body.
import GithubSlugger from 'github-slugger';
import type { Root, RootContent } from 'hast';
import { toString } from 'hast-util-to-string';

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
  walk(tree.children);
}
