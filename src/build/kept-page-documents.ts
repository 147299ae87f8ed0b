// Search documents of pages this build did not render (kept as the previous output has them)
// when the search cache does not know them (a damaged or missing cache file). Like a rendered
// page's, the document reads the body the page shows (kept-bodies.ts).
import { searchDocument } from '../features/search/documents.js';
import { indexedDocumentOf, type IndexedDocument } from '../features/search/index.js';
import type { RouteWithText } from './bodies.js';
import type { BuildSink } from './emit/sink.js';
import type { Route } from './graph/model.js';
import { keptBodyTree } from './kept-bodies.js';
import type { RenderContext } from './render/context.js';

export function keptPageDocuments(sink: BuildSink, withText: (route: Route) => RouteWithText, ctx: Pick<RenderContext, 'markdown' | 'root'>): (route: Route) => Promise<IndexedDocument | null> {
  const treeOf = keptBodyTree((rel) => sink.previous(rel), withText, ctx);
  return async (route) => {
    if (!route.markdown) return indexedDocumentOf(route, null);
    // Not searchable: no body to read.
    if (searchDocument(route, null) === null) return null;
    return indexedDocumentOf(route, await treeOf(route as Route & { markdown: object }));
  };
}
