// Rendering spread over worker threads. Markdown and React rendering are pure CPU work per
// page, so N workers on N cores divide the render stage by up to N (less where writing the
// output competes for the same cores: bench/HISTORY.md has the figures);
// the main thread only hands out batches and writes what comes back. Routes go to the
// workers by structured clone, pages come back as strings.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../files/module-worker.js';
import type { Route } from './graph/model.js';
import type { ContentProblem } from './render/context.js';
import type { DocumentAssets } from './render/document.js';
import type { StaticQueryResult } from '../shared/props.js';
import type { SiteMetadata } from '../shared/types.js';
import type { PageFiles, PageTargets } from './emit/page-files.js';
import type { IndexedDocument } from '../features/search/index.js';
import type { BodyMessage } from '../features/markdown/index.js';
import type { BodyFacts } from '../features/markdown/body-facts.js';

export interface WorkerSetup {
  /** The server template bundle (templates.ts writes it to the cache folder). */
  templatesModule: string;
  /** The bundled site configuration (build/config/load.ts): its `markdown` plugins compile the bodies. */
  configModule: string;
  /** Static query results by hash (RenderContext.queryResults). */
  queryResults: [hash: string, result: StaticQueryResult][];
  queryHashes: Record<string, string[]>;
  site: SiteMetadata;
  assets: DocumentAssets;
  root: string;
}

export interface WorkerRequest {
  id: number;
  routes: Route[];
  /** Per route: where the worker writes its HTML and page data itself (null: send it back). */
  direct: PageTargets[];
  /** Page path -> previous page data file whose body tree the page can reuse. */
  reuse: [pagePath: string, file: string][];
}

/**
 * A page rendered, or its template's error. A worker also analyses the page's search document
 * (`search`, null for a page that is not searchable): that is CPU work the main thread would
 * otherwise do alone after rendering, while the workers sit idle. `messages`: the plugins'
 * warnings about its body, when it was compiled (not taken from the previous output).
 */
export type PageOutcome = { ok: true; files: PageFiles; search?: IndexedDocument | null; messages?: BodyMessage[]; facts?: BodyFacts } | { ok: false; message: string; content?: ContentProblem | readonly ContentProblem[] };

export interface WorkerResponse {
  id: number;
  outcomes: PageOutcome[];
}

/** The reuse entries of `routes`, as a batch request carries them. */
export function reuseOf(routes: readonly Route[], reuse: ReadonlyMap<string, string>): [pagePath: string, file: string][] {
  return routes.flatMap((r): [string, string][] => (reuse.has(r.path) ? [[r.path, reuse.get(r.path)!]] : []));
}

/** Small enough to keep both workers busy to the end, large enough that messages cost little. */
export const BATCH = 24;
/** Batches a worker holds at once, so it never waits for the main thread between two. */
const IN_FLIGHT = 2;

/** Workers worth starting for this many pages: each costs ~0.2 s to load React and the templates. */
export function workerCount(pages: number, requested?: number): number {
  if (pages === 0) return 0;
  if (requested !== undefined) return Math.max(0, Math.floor(requested));
  if (pages < 400) return 0;
  return Math.min(availableParallelism(), Math.ceil(pages / 200));
}

/** A worker's heap: capped so V8 collects early (a lower build peak), with a young generation sized between scavenges and peak (bench/HISTORY.md). */
const YOUNG_GENERATION_MB = 24;
export const OLD_GENERATION_MB = 192;

function startWorker(setup: WorkerSetup): Worker {
  return startModuleWorker(import.meta.url, 'render-worker', { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: OLD_GENERATION_MB } });
}

export class RenderPool {
  private constructor(private readonly workers: Worker[]) {}

  static async start(size: number, setup: WorkerSetup): Promise<RenderPool> {
    const workers = Array.from({ length: size }, () => startWorker(setup));
    try {
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve, reject) => {
              worker.once('message', () => resolve());
              worker.once('error', reject);
              worker.once('exit', (code) => reject(new Error(`a render worker stopped while starting (exit code ${code})`)));
            }),
        ),
      );
    } catch (error) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw error;
    }
    for (const worker of workers) stopListening(worker);
    return new RenderPool(workers);
  }

  /**
   * Renders every route; `onPage` receives each page (in no particular order) and may write
   * it. Resolves when every page is rendered and handled; rejects on the first worker crash.
   */
  render(
    routes: readonly Route[],
    reuse: ReadonlyMap<string, string>,
    onPage: (route: Route, outcome: PageOutcome) => Promise<void>,
    directPaths: (route: Route) => PageTargets = () => [null, null],
  ): Promise<void> {
    const batches: Route[][] = [];
    for (let i = 0; i < routes.length; i += BATCH) batches.push(routes.slice(i, i + BATCH));
    let next = 0;
    let open = 0;
    const sent = new Map<number, Route[]>();
    const busy = new Map(this.workers.map((w) => [w, 0]));
    return new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        for (const w of this.workers) stopListening(w);
        reject(error);
      };
      const feed = (worker: Worker) => {
        while (!failed && next < batches.length && busy.get(worker)! < IN_FLIGHT) {
          const id = next++;
          sent.set(id, batches[id]!);
          busy.set(worker, busy.get(worker)! + 1);
          open++;
          const batch = batches[id]!;
          worker.postMessage({ id, routes: batch, reuse: reuseOf(batch, reuse), direct: batch.map(directPaths) } satisfies WorkerRequest);
        }
        if (!failed && open === 0 && next === batches.length) {
          for (const w of this.workers) stopListening(w);
          resolve();
        }
      };
      for (const worker of this.workers) {
        worker.on('message', (response: WorkerResponse) => {
          const batch = sent.get(response.id)!;
          sent.delete(response.id);
          Promise.all(response.outcomes.map((outcome, i) => onPage(batch[i]!, outcome))).then(() => {
            busy.set(worker, busy.get(worker)! - 1);
            open--;
            feed(worker);
          }, fail);
        });
        worker.on('error', (error) => fail(explained(error)));
        worker.on('exit', (code) => fail(new Error(`a render worker stopped (exit code ${code})`)));
      }
      for (const worker of this.workers) feed(worker);
      if (batches.length === 0) resolve();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** A worker's error, with what to do about it when it ran out of memory. */
function explained(error: unknown): unknown {
  if ((error as { code?: string } | null)?.code !== 'ERR_WORKER_OUT_OF_MEMORY') return error;
  return new Error(
    `a render worker ran out of memory (its heap is capped at ${OLD_GENERATION_MB} MiB to keep the build's memory low); ` +
      'a page or its shared data is larger than ir-site expects: rerun with --workers 0 to render on the main thread, whose heap is not capped',
    { cause: error },
  );
}

/** Not `removeAllListeners()`: Worker listens to its own listener changes to start its message port. */
function stopListening(worker: Worker): void {
  for (const event of ['message', 'error', 'exit']) worker.removeAllListeners(event);
}
