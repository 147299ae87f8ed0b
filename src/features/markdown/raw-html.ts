// rehype-raw re-parses the whole tree through parse5, a large share of the markdown time; most
// bodies have no raw HTML at all, so it only runs when one does, and its module (parse5) is
// loaded only then: a build that renders a page or two without raw HTML never loads it.
import type { Root } from 'hast';
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
  let parseRaw: Promise<(tree: Root, file: VFile) => Root> | undefined;
  return async (tree: Root, file: VFile): Promise<Root> => {
    if (!hasRaw(tree)) return tree;
    parseRaw ??= import('rehype-raw').then(({ default: rehypeRaw }) => rehypeRaw());
    return (await parseRaw)(tree, file);
  };
}
