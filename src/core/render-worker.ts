// A render worker: imports the server template bundle once, then turns batches of routes
// into page files (HTML and page-data JSON) for render-pool.ts. The same renderRoute as
// the single-threaded path, so both write identical bytes.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { treeFromPreviousOutput } from '../cache/previous-body.js';
import { compileBody, renderRouteWhenReady, TemplateError, type RenderContext } from '../render/index.js';
import type { WorkerRequest, WorkerResponse, WorkerSetup } from './render-pool.js';
import { pageFiles } from '../render/page-files.js';
import { indexedDocumentOf } from '../search/index.js';

const setup = workerData as WorkerSetup;
const mod = (await import(pathToFileURL(setup.templatesModule).href)) as { templates: RenderContext['templates'] };
const ctx: RenderContext = {
  templates: mod.templates,
  queryResults: new Map(setup.queryResults),
  queryHashes: setup.queryHashes,
  site: setup.site,
  assets: setup.assets,
};

parentPort!.on('message', async (request: WorkerRequest) => {
  const response: WorkerResponse = { id: request.id, outcomes: [] };
  const batchCtx: RenderContext = request.reuse.length > 0 ? { ...ctx, markdownTree: treeFromPreviousOutput(new Map(request.reuse), compileBody) } : ctx;
  for (const [i, route] of request.routes.entries()) {
    try {
      const files = pageFiles(await renderRouteWhenReady(route, batchCtx), request.direct[i]!);
      response.outcomes.push({ ok: true, files, search: indexedDocumentOf(route) });
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      response.outcomes.push({ ok: false, message: error.message, content: error.content });
    }
  }
  parentPort!.postMessage(response);
});
parentPort!.postMessage({ ready: true });
