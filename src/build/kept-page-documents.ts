// Search documents of pages this build did not render (kept as the previous output has them)
// when the search cache does not know them (a damaged or missing cache file). Like a rendered
// page's, the document reads the body the page shows: the tree in the kept page's data file,
// compiled again only if that file cannot be read.
import { searchDocument } from '../features/search/documents.js';
import { indexedDocumentOf, type IndexedDocument } from '../features/search/index.js';
import { treeFromPreviousOutput } from '../incremental/previous-body.js';
import type { RouteWithText } from './bodies.js';
import { pageFilePaths } from './emit/index.js';
import type { OutputSink } from './emit/sink.js';
import type { Route } from './graph/model.js';
import type { RenderContext } from './render/context.js';

export function keptPageDocuments(sink: OutputSink, withText: (route: Route) => RouteWithText, { markdown, root }: Pick<RenderContext, 'markdown' | 'root'>): (route: Route) => Promise<IndexedDocument | null> {
  return async (route) => {
    if (!route.markdown) return indexedDocumentOf(route, null);
    // Not searchable: no body to read.
    if (searchDocument(route, null) === null) return null;
    const file = sink.previous?.(pageFilePaths(route.path)[1]) ?? null;
    // Loaded only now: most builds never compile a body here.
    const { bodyCompiler } = await import('./render/index.js');
    const treeOf = treeFromPreviousOutput(new Map(file ? [[route.path, file]] : []), bodyCompiler(markdown, root));
    return indexedDocumentOf(route, (await treeOf(withText(route).markdown!, route.path)).tree);
  };
}
