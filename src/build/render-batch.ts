// One batch of routes rendered to page files: what a render worker does with each request,
// and what the main thread does when the pool has no workers. One function for both, so
// both write the same bytes.
import { bodyCompiler, renderRoute, TemplateError, type RenderContext } from './render/index.js';
import { pageFiles } from './emit/page-files.js';
import { treeFromPreviousOutput } from './kept-bodies.js';
import { indexedDocumentOf } from '../features/search/index.js';
import { bodyFacts } from '../features/markdown/body-facts.js';
import { recordBody } from '../shared/props.js';
import type { PageOutcome, WorkerRequest } from './render-pool.js';

/**
 * Renders `request.routes` in order. A page whose body is unchanged takes its tree from the
 * previous page data (`request.reuse`); its files are written at `request.direct` where given.
 * A template's error is that page's outcome; anything else is a bug and rejects.
 */
export async function renderBatch(ctx: RenderContext, request: Pick<WorkerRequest, 'routes' | 'reuse' | 'direct'>): Promise<PageOutcome[]> {
  const batchCtx: RenderContext = request.reuse.length > 0 ? { ...ctx, markdownTree: treeFromPreviousOutput(new Map(request.reuse), bodyCompiler(ctx.markdown, ctx.root)) } : ctx;
  const outcomes: PageOutcome[] = [];
  for (const [i, route] of request.routes.entries()) {
    try {
      const page = await renderRoute(route, batchCtx);
      const files = pageFiles(page, request.direct[i]);
      // The search document and the site checks read the body the page shows.
      const body = recordBody(page.record);
      outcomes.push({ ok: true, files, search: indexedDocumentOf(route, body), ...(page.messages && { messages: page.messages }), ...(body && { facts: bodyFacts(body) }) });
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      outcomes.push({ ok: false, message: error.message, content: error.content });
    }
  }
  return outcomes;
}
