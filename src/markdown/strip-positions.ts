// Positions and plugin data are build-time only; dropping them roughly halves the
// JSON each page carries.
import type { Root } from 'hast';
import { visit } from 'unist-util-visit';

export function stripPositions() {
  return (tree: Root) => {
    visit(tree, (node) => {
      delete node.position;
      if ('data' in node) delete node.data;
    });
  };
}
