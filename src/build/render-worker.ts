// A render worker: imports the server template bundle once, then renders each batch of
// routes render-pool.ts sends with renderBatch, the function the main thread uses too.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { SiteConfig } from './config/schema.js';
import type { RenderContext } from './render/context.js';
import { renderBatch } from './render-batch.js';
import type { WorkerRequest, WorkerResponse, WorkerSetup } from './render-pool.js';

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
  root: setup.root,
};

parentPort!.on('message', async (request: WorkerRequest) => {
  parentPort!.postMessage({ id: request.id, outcomes: await renderBatch(ctx, request) } satisfies WorkerResponse);
});
parentPort!.postMessage({ ready: true });
