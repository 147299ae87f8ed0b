// Stage 4 as the build runs it: decide which pages must be rendered (the cache knows the
// key each page was last rendered with, and the sink whether its files are still there),
// render those on worker threads when there are enough of them, and write them.
import { bodyKey, pageKey, pageKeyBases, routeDataKey, routeKeyOf } from '../incremental/keys.js';
import type { RouteWithText } from './bodies.js';
import type { OutputManifest } from '../incremental/output-manifest.js';
import type { FileState } from '../files/digest.js';
import type { Route } from './graph/model.js';
import { pageFilePaths, writePage } from './emit/index.js';
import type { BuildSink } from './emit/sink.js';
import type { PageTargets } from './emit/page-files.js';
import { diagnostic, type Diagnostic } from '../errors/diagnostic.js';
import type { ContentProblem, RenderContext } from './render/context.js';
import type { IndexedDocument } from '../features/search/index.js';
import type { BodyMessage } from '../features/markdown/index.js';
import type { BodyFacts } from '../features/markdown/body-facts.js';
import { BATCH, RenderPool, reuseOf, workerCount, type PageOutcome } from './render-pool.js';

export interface BuildCacheSetup {
  /** toolFingerprint(): ir-site's version and code. */
  fingerprint: string;
  /** A digest of the resolved configuration: every page depends on it, directly or not. */
  configKey: string;
}

export interface RenderStageInput {
  /** A route with its body read, when the cache did not read it (bodies.ts textReader). */
  withText: (route: Route) => RouteWithText;
  routes: readonly Route[];
  ctx: RenderContext;
  /** The server template bundle and the bundled configuration (for the markdown plugins); null renders in this thread only. */
  templates: { module: string; hash: string; configModule: string } | null;
  sink: BuildSink;
  /** The previous build in this output folder (the cache's output manifest). */
  previous: Pick<OutputManifest, 'pages' | 'files' | 'bodies' | 'messages'> | null;
  cache: BuildCacheSetup | null;
  /** Page path -> routeDataKey, known from the previous build when the graph's inputs are as they were then (keys.ts, graphKey). */
  knownDataKeys?: Readonly<Record<string, string>> | null;
  /** Worker threads; by default one per core for large sites, none for small ones. */
  workers?: number;
  progress?: (done: number, total: number, elapsedMs: number) => void;
}

export interface RenderStageResult {
  errors: Diagnostic[];
  /** Page path -> key, for every page now in the output. */
  pages: Record<string, string>;
  /** Page path -> key of its markdown body. */
  bodies: Record<string, string>;
  /** Page path -> what the markdown plugins said about its body, for every page in the output they said something about. */
  messages: Record<string, BodyMessage[]>;
  /** Page path -> key of its route alone (what it shows, not how): the search index cache uses it. */
  routeKeys: ReadonlyMap<string, string>;
  /** Page path -> routeDataKey of its route, for the next build. */
  dataKeys: Record<string, string>;
  /** Page path -> what its body links to and the ids it gives, for the rendered pages with a body. */
  bodyFacts: ReadonlyMap<string, BodyFacts>;
  /** Page path -> its analysed search document (null: not searchable), for the pages workers rendered. */
  searchDocuments: ReadonlyMap<string, IndexedDocument | null>;
  /** Page files the workers wrote themselves (the sink's directPath). */
  writtenByWorkers: number;
  rendered: number;
  kept: number;
  /** Pages rendered with their body tree taken from the previous output instead of parsed. */
  reused: number;
  workers: number;
}

function pageDiagnostics(route: Route, message: string, content?: ContentProblem | readonly ContentProblem[]): readonly Diagnostic[] {
  if (content) return [content].flat();
  return [diagnostic('render/template', { file: route.file ?? `templates/pages/${route.template}.tsx`, message })];
}

export async function renderStage(input: RenderStageInput): Promise<RenderStageResult> {
  const { sink, previous } = input;
  const base = input.cache ? pageKeyBases(input.cache.fingerprint, input.cache.configKey, input.templates?.hash ?? null, input.ctx) : null;
  const pages: Record<string, string> = {};
  const bodies: Record<string, string> = {};
  const routeKeys = new Map<string, string>();
  const dataKeys: Record<string, string> = {};
  const messages: Record<string, BodyMessage[]> = {};
  // A body's messages last as long as its key: those of a body not compiled again are the previous build's.
  const carry = (pagePath: string) => {
    const said = previous?.messages?.[pagePath];
    if (said && previous!.bodies[pagePath] === bodies[pagePath]) messages[pagePath] = said;
  };
  const todo: Route[] = [];
  // Pages to render whose body is unchanged: page path -> previous page data file holding its tree.
  const reuse = new Map<string, string>();
  for (const route of input.routes) {
    if (!base || !input.cache) {
      todo.push(input.withText(route));
      continue;
    }
    const dataKey = (dataKeys[route.path] = input.knownDataKeys?.[route.path] ?? routeDataKey(route));
    const routeKey = routeKeyOf(route, dataKey);
    routeKeys.set(route.path, routeKey);
    const key = (pages[route.path] = pageKey(base(route.locale), routeKey));
    if (route.markdown) bodies[route.path] = bodyKey(route.markdown, input.cache.fingerprint, input.cache.configKey);
    if (previous?.pages[route.path] === key && keepPage(sink, route.path, previous.files)) {
      carry(route.path);
      continue;
    }
    todo.push(input.withText(route));
    const previousData = route.markdown && previous?.bodies[route.path] === bodies[route.path] ? sink.previous(pageFilePaths(route.path)[1]) : null;
    if (previousData) reuse.set(route.path, previousData);
  }
  const kept = input.routes.length - todo.length;

  const errors: Diagnostic[] = [];
  const reported = new Set<string>();
  const searchDocuments = new Map<string, IndexedDocument | null>();
  const bodyFacts = new Map<string, BodyFacts>();
  let writtenByWorkers = 0;
  const t0 = performance.now();
  let done = 0;
  const handle = async (route: Route, outcome: PageOutcome) => {
    if (outcome.ok) {
      if (outcome.search !== undefined) searchDocuments.set(route.path, outcome.search);
      if (outcome.facts) bodyFacts.set(route.path, outcome.facts);
      writtenByWorkers += outcome.files.written?.filter(Boolean).length ?? 0;
      if (outcome.messages) messages[route.path] = outcome.messages;
      else carry(route.path);
      await writePage(sink, outcome.files);
    } else {
      for (const problem of pageDiagnostics(route, outcome.message, outcome.content)) {
        // A plugin that fails when attached fails every body the same way: said once.
        const said = JSON.stringify([problem.rule, problem.file, problem.line, problem.message]);
        if (!reported.has(said)) errors.push(problem);
        reported.add(said);
      }
      delete pages[route.path];
    }
    done++;
    if (done % 50 === 0 || done === todo.length) input.progress?.(done, todo.length, performance.now() - t0);
  };

  const workers = input.templates ? workerCount(todo.length, input.workers) : 0;
  if (workers > 0) {
    const pool = await RenderPool.start(workers, {
      templatesModule: input.templates!.module,
      configModule: input.templates!.configModule,
      queryResults: [...input.ctx.queryResults],
      queryHashes: input.ctx.queryHashes,
      site: input.ctx.site,
      assets: input.ctx.assets,
      root: input.ctx.root,
    });
    try {
      // Workers write a page's files themselves where the sink lets them (a file the previous
      // build did not write, and not one the offline worker precaches).
      const target = (rel: string) => sink.directPath(rel);
      const directPaths = (route: Route): PageTargets => {
        const [html, json] = pageFilePaths(route.path);
        return [target(html), target(json)];
      };
      await pool.render(todo, reuse, handle, directPaths);
    } finally {
      await pool.close();
    }
  } else if (todo.length > 0) {
    // A pool of size 0: the workers' batch function, in this thread. Loaded only now: a build
    // with nothing to render never loads React's server renderer or a markdown parser.
    const { renderBatch } = await import('./render-batch.js');
    const writing: Promise<void>[] = [];
    for (let i = 0; i < todo.length; i += BATCH) {
      const routes = todo.slice(i, i + BATCH);
      const outcomes = await renderBatch(input.ctx, { routes, reuse: reuseOf(routes, reuse), direct: routes.map(() => [null, null]) });
      // Written while the next batch renders.
      writing.push(...outcomes.map((outcome, j) => handle(routes[j]!, outcome)));
    }
    await Promise.all(writing);
  }
  return { errors, pages, bodies, messages, routeKeys, dataKeys, searchDocuments, bodyFacts, writtenByWorkers, rendered: todo.length - errors.length, kept, reused: reuse.size, workers };
}

/** Both files of an unchanged page are still in the output as the previous build left them: claim them. */
function keepPage(sink: BuildSink, pagePath: string, files: Readonly<Record<string, FileState>>): boolean {
  return pageFilePaths(pagePath).every((rel) => sink.keep(rel, files[rel]?.[0]));
}
