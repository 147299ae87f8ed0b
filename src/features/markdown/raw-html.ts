// rehype-raw re-parses the whole tree through parse5, which costs about 40% of the
// markdown time; most bodies have no raw HTML at all, so it only runs when one does.
import type { Root } from 'hast';
import rehypeRaw from 'rehype-raw';
import type { VFile } from 'vfile';
import { visit, EXIT } from 'unist-util-visit';

function hasRaw(tree: Root): boolean {
  let found = false;
  visit(tree, 'raw', () => {
    found = true;
    return EXIT;
  });
  return found;
}

export function rawHtmlWhenPresent() {
  const parseRaw = rehypeRaw();
  return (tree: Root, file: VFile): Root => (hasRaw(tree) ? (parseRaw(tree, file) as Root) : tree);
}
