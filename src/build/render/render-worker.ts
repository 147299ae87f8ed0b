// A render worker: imports the server template bundle once, then turns batches of routes
// into page files (HTML and page-data JSON) for render-pool.ts. The same renderRoute as
// the single-threaded path, so both write identical bytes.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { treeFromPreviousOutput } from '../../incremental/previous-body.js';
import type { SiteConfig } from '../config/schema.js';
import { bodyCompiler, renderRoute, TemplateError, type RenderContext } from './index.js';
import type { WorkerRequest, WorkerResponse, WorkerSetup } from './render-pool.js';
import { pageFiles } from './page-files.js';
import { indexedDocumentOf } from '../../features/search/index.js';

const setup = workerData as WorkerSetup;
const [mod, configModule] = await Promise.all([
  import(pathToFileURL(setup.templatesModule).href) as Promise<{ templates: RenderContext['templates'] }>,
  // The same file the main thread imported and validated: its markdown plugins are functions, which cannot be sent.
  import(pathToFileURL(setup.configModule).href) as Promise<{ default: { markdown?: Partial<SiteConfig['markdown']> } }>,
]);
// Validated by the main thread already; only the defaults are filled in (without loading zod here).
const given = configModule.default.markdown;
const markdown: SiteConfig['markdown'] = { remarkPlugins: given?.remarkPlugins ?? [], rehypePlugins: given?.rehypePlugins ?? [], frenchTypography: given?.frenchTypography ?? true };
const ctx: RenderContext = {
  templates: mod.templates,
  queryResults: new Map(setup.queryResults),
  queryHashes: setup.queryHashes,
  site: setup.site,
  assets: setup.assets,
  markdown,
};

parentPort!.on('message', async (request: WorkerRequest) => {
  const response: WorkerResponse = { id: request.id, outcomes: [] };
  const batchCtx: RenderContext = request.reuse.length > 0 ? { ...ctx, markdownTree: treeFromPreviousOutput(new Map(request.reuse), bodyCompiler(markdown)) } : ctx;
  for (const [i, route] of request.routes.entries()) {
    try {
      const files = pageFiles(await renderRoute(route, batchCtx), request.direct[i]!);
      response.outcomes.push({ ok: true, files, search: indexedDocumentOf(route) });
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      response.outcomes.push({ ok: false, message: error.message, content: error.content });
    }
  }
  parentPort!.postMessage(response);
});
parentPort!.postMessage({ ready: true });
