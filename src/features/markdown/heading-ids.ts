// Heading ids as rehype-slug gives them (GitHub's slugs of the heading text, `-1`, `-2`... for
// repeats within a body), with the page's own ids and the body's other ids (footnotes, raw
// HTML: prefixed by content-ids.ts) counted as taken, so a heading "Main content" gets
// `main-content-1` and never shadows the page's element (src/shared/dom-ids.ts), and a heading
// "user-content-fn-1" never takes a footnote's id. rehype-slug cannot be told which ids are
// taken; this is its few lines with that one change.
import GithubSlugger from 'github-slugger';
import type { Root } from 'hast';
import { toString } from 'hast-util-to-string';
import { RESERVED_IDS } from '../../shared/dom-ids.js';
import { elements } from './hast-elements.js';

const HEADING = /^h[1-6]$/;

/** rehype plugin: every heading without an id gets its slug; repeats are counted per body. */
export function rehypeHeadingIds() {
  const slugs = new GithubSlugger();
  return (tree: Root): void => {
    slugs.reset();
    for (const id of RESERVED_IDS) slugs.slug(id, true);
    // Every id the body already gives is taken before any heading gets its slug.
    elements(tree.children, (node) => {
      if (node.properties.id) slugs.slug(String(node.properties.id), true);
    });
    elements(tree.children, (node) => {
      if (HEADING.test(node.tagName) && !node.properties.id) node.properties.id = slugs.slug(toString(node));
    });
  };
}
