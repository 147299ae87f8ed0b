// A page whose key changed (its template, author or shared data changed) but whose markdown
// did not, needs its body's tree again, not a new parse. The previous build's page data
// holds exactly that tree, so the output folder is the cache: no second copy is written
// (writing thousands of small cache files costs as much as parsing them, measured).
import { readFileSync } from 'node:fs';
import type { MarkdownSource } from '../build/graph/model.js';
import type { BodyMessage } from '../features/markdown/index.js';
import type { MarkdownTree, PageRecord } from '../shared/types.js';
import { recordBody } from '../shared/props.js';

/** build/render/context.ts's BodyCompiler: a body's tree, and the plugins' messages when it was compiled. */
type BodyCompiler = (source: MarkdownSource, pagePath: string) => Promise<{ tree: MarkdownTree; messages?: BodyMessage[] }>;

/**
 * A `markdownTree` for the render context: the tree from the previous page data file when
 * `reuse` names one for the page (the build knows its messages), compiled otherwise (or when that file cannot be read).
 * `compile` is build/render/index.ts's `bodyCompiler`, passed in so that this module loads no markdown parser.
 */
export function treeFromPreviousOutput(reuse: ReadonlyMap<string, string>, compile: BodyCompiler): BodyCompiler {
  return async (source, pagePath) => {
    const file = reuse.get(pagePath);
    if (file) {
      try {
        const body = recordBody(JSON.parse(readFileSync(file, 'utf8')) as PageRecord);
        if (body) return { tree: body };
      } catch {
        // Gone or damaged since: compile it.
      }
    }
    return compile(source, pagePath);
  };
}
