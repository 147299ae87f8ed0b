// The body tree of a page this build did not render (kept as the previous output has it), for
// what reads the body the page shows when its cache lacks it (the search document, the site
// checks' facts): the tree in the kept page's data file, compiled again only if that file
// cannot be read.
import { treeFromPreviousOutput } from '../incremental/previous-body.js';
import type { MarkdownTree } from '../shared/types.js';
import type { RouteWithText } from './bodies.js';
import { pageFilePaths } from './emit/index.js';
import type { Route } from './graph/model.js';
import type { RenderContext } from './render/context.js';

/** `previousFile`: where the previous build's file at an output path is (the sink's `previous`), or null. */
export function keptBodyTree(
  previousFile: (rel: string) => string | null,
  withText: (route: Route) => RouteWithText,
  { markdown, root }: Pick<RenderContext, 'markdown' | 'root'>,
): (route: Route & { markdown: object }) => Promise<MarkdownTree> {
  return async (route) => {
    const file = previousFile(pageFilePaths(route.path)[1]);
    // Loaded only now: most builds never compile a body here.
    const { bodyCompiler } = await import('./render/index.js');
    const treeOf = treeFromPreviousOutput(new Map(file ? [[route.path, file]] : []), bodyCompiler(markdown, root));
    return (await treeOf(withText(route).markdown!, route.path)).tree;
  };
}
