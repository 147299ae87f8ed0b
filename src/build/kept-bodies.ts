// Body trees from the previous output. A page whose key changed (its template, author or
// shared data changed) but whose markdown did not needs its body's tree again, not a new parse;
// so does what reads the body of a page the build kept (its search document, the site checks'
// facts) when its cache lacks it. The previous build's page data holds exactly that tree, so the
// output folder is the cache: no second copy is written (writing thousands of small cache files
// costs as much as parsing them, measured).
import { readFileSync } from 'node:fs';
import { recordBody } from '../shared/props.js';
import type { MarkdownTree, PageRecord } from '../shared/types.js';
import type { RouteWithText } from './bodies.js';
import { pageFilePaths } from './emit/index.js';
import type { Route } from './graph/model.js';
import type { BodyCompiler, RenderContext } from './render/context.js';

/** The body tree in a page data file, or null when it cannot be read (gone or damaged since). */
function treeInPageData(file: string): MarkdownTree | null {
  try {
    return recordBody(JSON.parse(readFileSync(file, 'utf8')) as PageRecord);
  } catch {
    return null;
  }
}

/**
 * A `markdownTree` for the render context: the tree from the previous page data file when
 * `reuse` names one for the page (the build knows its messages), compiled otherwise (or when
 * that file cannot be read). `compile` is render/index.ts's `bodyCompiler`, passed in so that
 * this module loads no markdown parser.
 */
export function treeFromPreviousOutput(reuse: ReadonlyMap<string, string>, compile: BodyCompiler): BodyCompiler {
  return async (source, pagePath) => {
    const file = reuse.get(pagePath);
    const tree = file ? treeInPageData(file) : null;
    return tree ? { tree } : compile(source, pagePath);
  };
}

/** The body tree of a kept page. `previousFile`: where the previous build's file at an output path is (the sink's `previous`), or null. */
export function keptBodyTree(
  previousFile: (rel: string) => string | null,
  withText: (route: Route) => RouteWithText,
  { markdown, root }: Pick<RenderContext, 'markdown' | 'root'>,
): (route: Route & { markdown: object }) => Promise<MarkdownTree> {
  return async (route) => {
    const file = previousFile(pageFilePaths(route.path)[1]);
    const tree = file ? treeInPageData(file) : null;
    if (tree) return tree;
    // Loaded only now: most builds never compile a body here.
    const { bodyCompiler } = await import('./render/index.js');
    return (await bodyCompiler(markdown, root)(withText(route).markdown!, route.path)).tree;
  };
}
