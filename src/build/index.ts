// `ir-site build`: the stages chained in plain sight, each timed. The pieces
// (compile, prepareRender, renderRoutes, writeShared) are also what `dev` reuses.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { configCacheDir } from './config/load.js';
import type { ResolvedConfig } from './config/resolve.js';
import type { ValidSite } from './content/entries.js';
import { loadContent, readImageSize, type LoadHooks } from './content/load.js';
import type { RawAsset, RawSite } from './content/raw.js';
import type { ValidationCache } from './content/validate.js';
import { contentHash, stylesheetPath, writePublishedFiles, writeSiteFiles, writeStaticQueries, type SiteFilesInput } from './emit/index.js';
import { DerivedFileCache } from '../incremental/derived-files.js';
import { CommitInterruptedError, StagedDiskSink, type OutputSink } from './emit/sink.js';
import { CompressingSink } from './emit/compressing-sink.js';
import { CompressionRecord } from '../incremental/compression-record.js';
import { diagnostic, DiagnosticsError, errorCount, StrictBuildError, type Diagnostic } from '../errors/diagnostic.js';
import { RULES } from '../errors/rules.js';
import { buildGraph } from './graph/index.js';
import type { Route, SiteGraph } from './graph/model.js';
import { bodyMessageWarnings, createRenderContext, type RenderContext } from './render/context.js';
import { configKey, graphFrameKey, graphKey, type GraphInputs } from '../incremental/keys.js';
import { readGraphSnapshot, restoreGraph, restoreWithHeadlines, snapshotKeys, writeGraphSnapshot } from '../incremental/graph-snapshot.js';
import { BundleCache } from '../incremental/bundle-cache.js';
import { toolFingerprint } from '../incremental/fingerprint.js';
import { diskMemo } from '../incremental/memo.js';
import { FrontMatterCache } from '../incremental/front-matter-cache.js';
import type { SearchCacheInput } from '../incremental/search-cache.js';
import { outputManifest, pruneManifests, samePageRecords, type OutputManifest } from '../incremental/output-manifest.js';
import { upToDateRecord } from '../incremental/up-to-date.js';
import { intactFiles } from '../incremental/intact-files.js';
import { outputKeyOf, sameStates, unchangedOutput } from '../incremental/output-state.js';
import { acquireBuildLock, acquireOutputLock, BuildLockedError } from './lock.js';
import { takeCacheWriteFailures } from '../files/cache-file.js';
import { diskFailure } from '../errors/disk.js';
import { removeConfigCacheLeftovers, removeLeftovers, replayJournal } from './emit/journal.js';
import { publishedFolder } from './emit/published-folder.js';
import { outputRefusal } from './output-folder.js';
import { siteWarningsOf, type SiteChecks } from './site-warnings.js';
import { clearCacheFolders } from '../incremental/cache-layout.js';
import { renderStage, type BuildCacheSetup, type RenderStageResult } from './render-pages.js';
import type { IndexedDocument } from '../features/search/index.js';
import { textReader } from './bodies.js';
import type { SearchDocument } from '../features/search/documents.js';
import type { BodyMessage } from '../features/markdown/index.js';
import type { BodyFacts } from '../features/markdown/body-facts.js';
import { bundleClient, type ClientBundle } from './templates/client-bundle.js';
import { bundleTemplatesForServer, importTemplates, type ServerBundle } from './templates/server-bundle.js';
import { OfflineSink } from '../features/offline/index.js';
import { processImages, pruneImageCache, type ImageStageResult } from './images/process.js';
import { configBundles as openConfigBundles, inputsBefore, readConfig as readSiteConfig, upToDateKeeper, walkedContent, type InputWalk } from './up-to-date.js';

export type Stage = 'config' | 'load' | 'validate' | 'images' | 'graph' | 'templates' | 'render' | 'check' | 'emit' | 'commit';

export interface BuildReporter {
  stage?(stage: Stage, ms: number): void;
  /** Something the person running the build should know while it runs (a wait for another build). */
  notice?(message: string): void;
  progress?(done: number, total: number, elapsedMs: number): void;
}

export interface BuildOptions {
  root: string;
  /** Identity to build (`--site`); the config's `identity` otherwise. */
  site?: string;
  outDir?: string;
  /** Publish drafts (dev only). */
  drafts?: boolean;
  /** Refuse to build when the site checks warn (broken links, missing translations): `build --strict`. */
  strict?: boolean;
  /**
   * The site checks every build reports as warnings (commands/check/site-warnings.ts: the CLI and
   * the package's `build` pass it); none without.
   */
  siteChecks?: SiteChecks;
  /** Write here instead of the output folder (tests, dev). */
  sink?: OutputSink;
  reporter?: BuildReporter;
  /**
   * Use and fill the build cache in `.ir-site/cache` (default true): compiled markdown, and
   * for the output folder, which pages and files the last build left there.
   */
  cache?: boolean;
  /** Render worker threads (default: one per core when there are enough pages to pay for them). */
  workers?: number;
  /**
   * The input files' states, taken by the up-to-date check that ran just before (up-to-date.ts,
   * checkUpToDate): a build records those it found before reading anything, and walks the input
   * folders itself without them.
   */
  inputs?: InputWalk | null;
}

export interface BuildResult {
  config: ResolvedConfig;
  graph: SiteGraph;
  pages: number;
  redirects: number;
  files: number;
  outDir: string | null;
  timings: Partial<Record<Stage, number>>;
  totalMs: number;
  /** Warnings (errors stop the build with a DiagnosticsError). */
  diagnostics: Diagnostic[];
  /** Images processed in this build, and images taken from the cache. */
  images: { processed: number; cached: number };
  /** Whether the server templates and the browser bundle came from the build cache (bundle-cache.ts) rather than esbuild. */
  bundles: { server: boolean; client: boolean };
  /**
   * Whether validate and graph were skipped for the previous result (graph-snapshot.ts): its
   * inputs being the same ('same'), or the same but for articles' titles and descriptions, which
   * were put in ('headlines'); null when they ran.
   */
  graphFromSnapshot: 'same' | 'headlines' | null;
  /**
   * Pages rendered in this build, pages left as the previous build wrote them, pages whose body
   * tree was reused, render threads, pages whose search document the threads analysed, page
   * files the threads wrote themselves, and whether the routes' data keys came from the previous
   * build (its graph inputs were the same: keys.ts, graphKey).
   */
  render: { rendered: number; kept: number; reused: number; workers: number; searchDocuments: number; writtenByWorkers: number; dataKeysKnown: boolean };
  /** Files whose `.br` and `.gz` copies this build made, and files whose copies it kept from the previous build (emit/compressing-sink.ts). */
  compressed: { made: number; kept: number };
  /**
   * Whether the output folder was left as the last build left it without rendering or writing
   * anything: the same output key (keys.ts, outputKey) and every file of that build still in place.
   */
  outputUnchanged: boolean;
}

export interface Compiled {
  /** The site's stylesheet (templates/styles.css), as validated. */
  stylesheet: ValidSite['stylesheet'];
  graph: SiteGraph;
  /** Processed image files to publish: site path -> file in the image cache. */
  imageFiles: ReadonlyMap<string, string>;
  /** Everything found, warnings included; errors mean nothing may be rendered. */
  diagnostics: Diagnostic[];
  /** The key of the graph's inputs (incremental/keys.ts, graphKey), when the build cache knows it. */
  graphKey?: string | null;
}

/** Every problem of a run; graph findings that only echo a content error are dropped. */
function allDiagnostics(contentProblems: Diagnostic[], graph: SiteGraph): Diagnostic[] {
  // Graph findings that follow from an entry that already failed validation are its echo.
  const graphProblems = errorCount(contentProblems) > 0 ? graph.diagnostics.filter((d) => !RULES[d.rule].cascading) : graph.diagnostics;
  return [...contentProblems, ...graphProblems];
}

/**
 * With content errors, nothing is rendered: the bodies' missing images are looked for first
 * (body-images.ts). `always`: also without errors, for a caller that renders nothing (`check --dir`).
 */
async function withBodyImages(found: Diagnostic[], graph: SiteGraph, config: ResolvedConfig, always = false): Promise<Diagnostic[]> {
  if (!always && errorCount(found) === 0) return found;
  const { missingBodyImages } = await import('./body-images.js');
  return [...found, ...(await missingBodyImages(graph.routes, config))];
}

const NO_IMAGES: ImageStageResult = { images: new Map(), files: new Map(), diagnostics: [], processed: 0, cached: 0 };

export type { SiteChecks } from './site-warnings.js';

/**
 * The validate stage's module, loaded when something is validated: a build that takes the
 * graph from its snapshot validates nothing, and need not build the content schemas.
 */
const validation = () => import('./content/validate.js');

/** Validate + graph, pure given the image stage's result: the same inputs always compile to the same graph. */
export async function compile(
  raw: RawSite,
  loadDiagnostics: Diagnostic[],
  config: ResolvedConfig,
  drafts: boolean,
  images: ImageStageResult = NO_IMAGES,
  cache?: ValidationCache,
  /** Look for the bodies' missing images even without other errors: the caller renders nothing (`check --dir`). */
  withoutRender = false,
): Promise<Compiled> {
  const { validateContent } = await validation();
  const validated = validateContent(raw, config, cache);
  const graph = buildGraph(validated.site, config, { includeDrafts: drafts, images: images.images });
  const diagnostics = await withBodyImages(allDiagnostics([...loadDiagnostics, ...images.diagnostics, ...validated.diagnostics], graph), graph, config, withoutRender);
  return {
    stylesheet: validated.site.stylesheet,
    graph,
    imageFiles: images.files,
    diagnostics,
  };
}

export interface RenderSetup {
  ctx: RenderContext;
  /** The server template bundle, for render workers; `cached`: taken from the build cache. */
  templates: { module: string; hash: string; cached: boolean };
  client: ClientBundle;
  buildHash: string;
  stylesheet: { path: string; text: string } | null;
  faviconSvg: string | null;
  legacyPrefixes: string[];
}

/** What the pages are made with, before any of it is loaded: the two bundles and the favicon. */
export interface TemplateAssets {
  server: ServerBundle;
  client: ClientBundle;
  faviconSvg: string | null;
}

/**
 * The templates bundled for the server and, with the runtime, for the browser, and the
 * favicon. They depend on no content, and esbuild works in its own process: a build starts
 * this before loading the content, so the two overlap. With the build cache (`cache`), bundles
 * whose inputs did not change are taken from it (bundle-cache.ts).
 */
export function bundleTemplates(config: ResolvedConfig, cache: Promise<BundleCache | null> = Promise.resolve(null)): Promise<TemplateAssets> {
  const assets = cache.then(async (bundleCache) => {
    const [server, client, faviconSvg] = await Promise.all([
      bundleTemplatesForServer(config, bundleCache),
      bundleClient(config, bundleCache),
      readFile(path.join(config.dirs.templates, 'favicon.svg'), 'utf8').catch(() => null),
    ]);
    await bundleCache?.save();
    return { server, client, faviconSvg };
  });
  // Awaited once the content is known to be sound, or for its errors beside the content's (bundleErrors).
  assets.catch(() => undefined);
  return assets;
}

/**
 * The errors of the templates' bundles, for a build that stops on the content's: both are
 * reported at once, not the templates' only after the content is fixed. Other failures
 * of the bundling are left for the build that gets that far.
 */
export async function bundleErrors(assets: Promise<unknown> | null): Promise<Diagnostic[]> {
  try {
    await assets;
    return [];
  } catch (error) {
    return error instanceof DiagnosticsError ? error.diagnostics : [];
  }
}

/** Loads the templates for the server, and the assets every page links. */
export async function prepareRender(config: ResolvedConfig, compiled: Compiled, assets: TemplateAssets | Promise<TemplateAssets> = bundleTemplates(config)): Promise<RenderSetup> {
  const { server, client, faviconSvg } = await assets;
  const registry = await importTemplates(server);
  const css = compiled.stylesheet?.text ?? null;
  const stylesheet = css === null ? null : { path: stylesheetPath(css), text: css };
  // A new deploy is one whose client code or styles differ: open tabs must then load in full.
  const buildHash = contentHash(`${client.hash}\0${css ?? ''}`, 20);
  const ctx = createRenderContext(compiled.graph, registry, { stylesheet: stylesheet?.path ?? null, client: client.assets, buildHash }, config.markdown, config.root);
  return { ctx, templates: { module: server.file, hash: server.hash, cached: server.cached }, client, buildHash, stylesheet, faviconSvg, legacyPrefixes: config.legacyPrefixes };
}

export interface RenderedRoutes {
  /** A diagnostic per page whose template threw. */
  errors: Diagnostic[];
  /** The search document of each page rendered (null: not searchable), by path. */
  searchDocuments: ReadonlyMap<string, IndexedDocument | null>;
  /** Each route's page key (render-pages.ts), by path: what decides, next time, whether it is rendered again. */
  pages: Record<string, string>;
  /** What the markdown plugins said about the bodies of the pages rendered, by path (pages they said nothing about are left out). */
  messages: Record<string, BodyMessage[]>;
  /** What the body of each page rendered links to and the ids it gives, by path. */
  bodyFacts: ReadonlyMap<string, BodyFacts>;
}

/**
 * Renders routes of the site of `config` in this thread into `sink` (dev's memory), deciding by
 * the build's own page keys: a route whose key is the one in `previous` (the last call's
 * `pages`) is left as the sink holds it.
 */
export async function renderRoutes(
  config: ResolvedConfig,
  routes: readonly Route[],
  setup: RenderSetup,
  sink: OutputSink,
  previous: Readonly<Record<string, string>> | null = null,
): Promise<RenderedRoutes> {
  const { errors, searchDocuments, pages, messages, bodyFacts } = await renderStage({
    withText: textReader(config),
    routes,
    ctx: setup.ctx,
    templates: { ...setup.templates, configModule: config.module.path },
    sink,
    previous: previous && { pages: previous, bodies: {}, files: {} },
    cache: { fingerprint: toolFingerprint(), configKey: configKey(config) },
    workers: 0,
  });
  return { errors, searchDocuments, pages, messages, bodyFacts };
}

/** What the build cache offers the shared files: the search indexes by route, derived files by their inputs. */
export interface SharedCaches {
  search?: SearchCacheInput;
  derived?: SiteFilesInput['derived'];
  /** Without `search`: each route's search document, from a cache of the caller's (dev keeps one in memory). */
  documentOf?: (route: Route) => SearchDocument | IndexedDocument | null;
}

/** Everything that is not a page: static queries, published files, app data, redirects, sitemap, search indexes. */
export async function writeShared(sink: OutputSink, compiled: Compiled, setup: RenderSetup, caches: SharedCaches = {}): Promise<void> {
  await Promise.all([writeSiteShared(sink, compiled, setup, caches.derived), writeSearch(sink, compiled, setup, caches)]);
}

/** The shared files that depend on no rendered page: a build writes them while the workers render. */
export async function writeSiteShared(sink: OutputSink, compiled: Compiled, setup: RenderSetup, derived?: SiteFilesInput['derived']): Promise<void> {
  const { graph } = compiled;
  await Promise.all([
    ...[...compiled.imageFiles].map(([sitePath, file]) => sink.copy(file, sitePath.slice(1))),
    ...[...setup.client.files].map(([file, contents]) => sink.write(file.slice(1), contents)),
    writeStaticQueries(sink, graph),
    writePublishedFiles(sink, graph.files, derived?.(sink)),
    writeSiteFiles(sink, {
      legacyPrefixes: setup.legacyPrefixes,
      graph,
      site: setup.ctx.site,
      buildHash: setup.buildHash,
      stylesheet: setup.stylesheet,
      faviconSvg: setup.faviconSvg,
      derived,
      graphKey: compiled.graphKey,
    }),
  ]);
}

/** Every route's document, resolved first: the index is built from a plain lookup. */
async function documentsOf(routes: readonly Route[], analyse: (route: Route) => IndexedDocument | null | Promise<IndexedDocument | null>) {
  const documents = new Map(await Promise.all(routes.map(async (route) => [route.path, await analyse(route)] as const)));
  return (route: Route) => documents.get(route.path) ?? null;
}

/** Each language's search index, from the documents the render workers analysed or the cache. */
async function writeSearch(sink: OutputSink, compiled: Compiled, setup: RenderSetup, caches: SharedCaches): Promise<void> {
  const locales = setup.ctx.site.locales.map((l) => l.code);
  const { graph } = compiled;
  // The search modules (stemmers, index format) load when an index is written: a build that writes nothing needs none.
  if (caches.search) await (await import('../incremental/search-cache.js')).writeSearchIndexesCached(sink, graph, locales, caches.search);
  else if (caches.documentOf) await (await import('../features/search/index.js')).writeSearchIndexes(sink, graph, locales, caches.documentOf);
  else throw new Error('writeShared needs the pages\' search documents: `search` (the build cache) or `documentOf`');
}

/**
 * Builds the site at `options.root` into its output folder (or `options.sink`): config, load,
 * validate, images, graph, templates, render, emit, then the commit that swaps the new output
 * in. Rejects with a DiagnosticsError listing every content, configuration or template error;
 * the previous output is then untouched.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const timings: Partial<Record<Stage, number>> = {};
  // A stage timed in two parts (the templates: bundled, then loaded once something renders) adds up.
  async function timed<T>(stage: Stage, work: () => T | Promise<T>): Promise<T> {
    const t0 = performance.now();
    const result = await work();
    timings[stage] = (timings[stage] ?? 0) + performance.now() - t0;
    options.reporter?.stage?.(stage, timings[stage]!);
    return result;
  }

  // site.config.ts's bundle is recorded in the folder it is written to (config/load.ts).
  const configBundles = await openConfigBundles(options);
  const readConfig = () => timed('config', () => readSiteConfig(options, configBundles));
  const config = await readConfig();
  if (options.sink) return buildSite(options, config, configBundles, timed, timings, started);
  // What a build replaces must be a build's (output-folder.ts).
  const refused = outputRefusal(config);
  if (refused) {
    throw new DiagnosticsError([diagnostic('output/write-failed', { file: shown(config.root, config.dirs.out), message: `cannot build into it: ${refused.problem}`, hint: refused.hint })], 'build');
  }
  // One build of a site at a time (lock.ts); it first finishes or clears what an interrupted one left (emit/journal.ts).
  try {
    let waited = false;
    const onWait = (message: string) => ((waited = true), options.reporter?.notice?.(message));
    const release = await acquireBuildLock(config.dirs.cache, { onWait });
    try {
      // The content is read after the wait: the configuration too, since it may have changed meanwhile.
      const current = waited ? await readConfig() : config;
      // Another site may publish into the same folder: one build there at a time too.
      const releaseOutput = await acquireOutputLock(publishedFolder(current.dirs.out).dir, { onWait });
      try {
        // A commit that still cannot be finished leaves the output part-way, as the one that stopped.
        await replayJournal(current.dirs.out).catch((error: unknown) => {
          throw new CommitInterruptedError(current.dirs.out, error);
        });
        await removeLeftovers(current.dirs.out, current.dirs.cache);
        if (current.dirs.cache !== configCacheDir(current.root)) await removeConfigCacheLeftovers(configCacheDir(current.root));
        const result = await buildSite(options, current, configBundles, timed, timings, started);
        const failures = cacheWriteWarnings(current.root);
        // A build that warns of them every time is not answered from the record, which holds none.
        if (failures.length > 0) await upToDateRecord(diskMemo(current.dirs.cache, toolFingerprint()), current.dirs.out).forget();
        return { ...result, diagnostics: [...result.diagnostics, ...failures] };
      } finally {
        await releaseOutput();
      }
    } finally {
      await release();
    }
  } catch (error) {
    throw asDiagnostics(error, config.root, config.dirs.out);
  }
}

/** A site path relative to the root when inside it, with forward slashes; absolute otherwise. */
const shown = (root: string, file: string) => {
  const rel = path.relative(root, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
};

/** A locked site, a full disk or a read-only folder, as the diagnostic a person acts on; other errors as they are. */
function asDiagnostics(error: unknown, root: string, outDir: string): unknown {
  if (error instanceof BuildLockedError) {
    return new DiagnosticsError([diagnostic('build/locked', { file: shown(root, error.lockFile), message: error.message, ...(error.hint && { hint: error.hint }) })], 'build');
  }
  if (error instanceof CommitInterruptedError) {
    const disk = diskFailure(error.cause);
    const why = disk ? `cannot write ${disk.path}: ${disk.cause}` : `cannot finish the commit into ${error.outDir}: ${(error.cause as Error)?.message ?? String(error.cause)}`;
    const hint = 'fix the cause, then build again: the next build first finishes this update. Until then the output folder mixes two builds: `ir-site serve` refuses it, and it must not be deployed';
    return new DiagnosticsError([diagnostic('output/write-failed', { file: shown(root, disk?.path ?? error.outDir), message: `${why}; the output folder was updated part-way`, hint })], 'commit');
  }
  const disk = diskFailure(error, `${outDir} (or the folder next to it where the build is staged)`);
  if (!disk) return error;
  return new DiagnosticsError([diagnostic('output/write-failed', { file: shown(root, disk.path), message: `cannot write ${disk.path}: ${disk.cause}` })], 'emit');
}

/** One warning per cause: a full disk fails every cache write the same way. */
function cacheWriteWarnings(root: string): Diagnostic[] {
  const byCause = new Map<string, string[]>();
  for (const { file, cause } of takeCacheWriteFailures()) byCause.set(cause, [...(byCause.get(cause) ?? []), file]);
  return [...byCause].map(([cause, files]) => {
    const [file = '', ...more] = files;
    const others = more.length === 0 ? '' : ` (and ${more.length} more cache file${more.length === 1 ? '' : 's'})`;
    return diagnostic('cache/write-failed', { file: shown(root, file), message: `the build cache cannot be written: ${file}${others}: ${cause}` });
  });
}

type Timed = <T>(stage: Stage, work: () => T | Promise<T>) => Promise<T>;

async function buildSite(options: BuildOptions, config: ResolvedConfig, configBundles: BundleCache | null, timed: Timed, timings: Partial<Record<Stage, number>>, started: number): Promise<BuildResult> {
  const useCache = options.cache ?? true;
  const ask = { drafts: options.drafts ?? false, checks: options.siteChecks !== undefined };
  // Before anything is read: what the next up-to-date check compares (up-to-date.ts), and the
  // content files the load stage finds there.
  const inputs = useCache ? inputsBefore(config, ask, options.inputs ?? undefined) : null;
  const fingerprint = toolFingerprint();
  await clearCacheFolders(config.dirs.cache);
  const memo = useCache ? diskMemo(config.dirs.cache, fingerprint) : null;
  const bundleCache = memo ? BundleCache.open(memo) : undefined;
  const bundles = bundleTemplates(config, bundleCache);
  const savingConfigBundle = configBundles?.save();
  savingConfigBundle?.catch(() => undefined); // awaited with the shared files
  const manifest = !options.sink && memo ? outputManifest(memo, config.dirs.out) : null;
  const [frontMatter, previous] = await Promise.all([memo && FrontMatterCache.open(memo), manifest?.read() ?? null]);
  // Which of the previous build's files are still there as it left them: checked on a helper
  // thread while this one loads. If that thread cannot run, the sink checks each file itself.
  const intact = previous ? intactFiles(config.dirs.out, previous.files).catch(() => null) : null;
  // Images are processed (libvips, on its own threads) while this thread reads the entries.
  let imaging: Promise<ImageStageResult> | null = null;
  const startImages = (assets: readonly RawAsset[]) => {
    imaging = processImages(assets, config.dirs.cache, config.root, { fresh: !useCache });
    imaging.catch(() => undefined); // awaited below, after the content's own errors
  };
  // The last build's graph, kept with its inputs' key (graph-snapshot.ts): read while the content loads.
  const snapshot = memo && readGraphSnapshot(memo);
  const loaded = await timed('load', () => loadContent(config, frontMatter ? (source, file) => frontMatter.read(source, file) : undefined, { onAssets: startImages, ...cachedLoading(frontMatter), walked: walkedContent(inputs, config) }));
  const includeDrafts = options.drafts ?? false;
  const cache: BuildCacheSetup | null = useCache ? { fingerprint, configKey: configKey(config) } : null;
  const keys = inputKeys(cache, loaded.raw, includeDrafts);
  const waitForImages = () => timed('images', () => imaging ?? processImages(loaded.raw.assets, config.dirs.cache, config.root, { fresh: !useCache }));
  const stored = await snapshot;
  const storedKeys = stored ? snapshotKeys(stored) : null;
  const { images, inputsKey, frameKey, validation, graph, fromSnapshot, replaced } = await graphOrSnapshot({ stored, loaded, config, includeDrafts, timed, waitForImages, keys });
  const found = await withBodyImages(allDiagnostics([...loaded.diagnostics, ...images.diagnostics, ...validation], graph), graph, config);
  const compiled: Compiled = { stylesheet: loaded.raw.stylesheet, graph, imageFiles: images.files, diagnostics: found, graphKey: inputsKey };
  if (errorCount(compiled.diagnostics) > 0) throw new DiagnosticsError([...compiled.diagnostics, ...(await bundleErrors(bundles))], 'build');
  // What the next `ir-site build` checks to find nothing to do (up-to-date.ts).
  const upToDate = options.sink ? null : upToDateKeeper({ memo, config, ask, inputs, bundles: bundleCache, graph, diagnostics: compiled.diagnostics });
  const assets = await timed('templates', () => bundles);
  // Routes as the previous build made them but for their text (and those a headline edit replaced): their data keys are known.
  const knownDataKeys = inputsKey === null ? null : dataKeysKept(previous?.graph, inputsKey, replaced && storedKeys && { from: storedKeys.graph, replaced });
  // A graph made from new inputs is kept for the next build, serialised before any render
  // worker starts so its buffers do not add to the workers' peak (bench/HISTORY.md).
  const keepingGraph = memo && inputsKey !== null && inputsKey !== storedKeys?.graph ? writeGraphSnapshot(memo, { graph: inputsKey, frame: keys.frame(images)! }, { graph, validation }, loaded.raw.entries) : null;
  const output = manifest && inputsKey !== null ? await outputKeyOf(loaded.raw.entries, [...graph.files.map((f) => f.from), ...images.files.values()], [assets.server.hash, assets.client.hash], assets.faviconSvg, inputsKey) : null;
  const unchanged = output && previous ? await unchangedOutput(output, previous, intact) : null;
  // The site checks read the bodies as their pages show them: once they are rendered, or as they were kept.
  const siteWarnings = async (rendered: ReadonlyMap<string, BodyFacts>, bodyKeys: Readonly<Record<string, string>>, previousFile: (rel: string) => string | null) =>
    options.siteChecks ? siteWarningsOf(options.siteChecks, { graph, config, entries: loaded.raw.entries, frameKey, memo, cache, rendered, bodyKeys, previousFile, timed }) : [];
  if (unchanged && previous) {
    const laterFound = laterWarnings(found, await siteWarnings(new Map(), previous.bodies, (rel) => path.join(config.dirs.out, rel)), graph.routes, previous.messages, options.strict);
    // Files whose change time alone moved (a chmod, a deploy's hard links) are recorded as they are now.
    const restated = manifest && !sameStates(previous.files, unchanged) ? manifest.write({ ...previous, files: unchanged }) : null;
    await Promise.all([frontMatter?.save(), keepingGraph, savingConfigBundle, restated, upToDate?.keep(unchanged, laterFound)]);
    // Once the records are written: the prune would take a record's temporary file for a stray one.
    await pruneCaches(config, manifest !== null, images);
    const render = { rendered: 0, kept: graph.routes.length, reused: 0, workers: 0, searchDocuments: 0, writtenByWorkers: 0, dataKeysKnown: true };
    return resultOf({ config, graph, outDir: config.dirs.out, timings, started, diagnostics: [...compiled.diagnostics, ...laterFound], images, assets, fromSnapshot, compressed: { made: 0, kept: 0 }, render, outputUnchanged: true });
  }
  const setup = await timed('templates', () => prepareRender(config, compiled, assets));
  await upToDate?.forget();
  const disk = options.sink ? null : new StagedDiskSink(config.dirs.out, previous?.files ?? null, await intact);
  // A disk build writes `.br` and `.gz` next to each compressible file (emit/compressing-sink.ts).
  const compressing = disk && config.compress ? new CompressingSink(disk, await CompressionRecord.open(memo)) : null;
  // Notes what the offline worker needs (deploy id, precached files) on the way through.
  const sink = new OfflineSink(compressing ?? options.sink ?? disk!);
  // The main thread is nearly idle while the workers render: the shared files that depend on
  // no page, and the front matter cache (final once the content is loaded), are written meanwhile.
  const derived = memo && (await DerivedFileCache.open(memo));
  const sharing = Promise.all([writeSiteShared(sink, compiled, setup, derived ? (to) => derived.writer(to) : undefined), frontMatter?.save(), keepingGraph, savingConfigBundle]);
  sharing.catch(() => undefined); // awaited in the emit stage, or before discarding the staging folder
  let rendered: RenderStageResult;
  let laterFound: Diagnostic[] = [];
  try {
    rendered = await timed('render', () =>
      renderStage({ withText: textReader(config), routes: graph.routes, ctx: setup.ctx, templates: { ...setup.templates, configModule: config.module.path }, sink, previous, cache, knownDataKeys, workers: options.workers, progress: options.reporter?.progress }),
    );
    if (rendered.errors.length > 0) throw new DiagnosticsError(rendered.errors, 'render');
    laterFound = laterWarnings(found, await siteWarnings(rendered.bodyFacts, rendered.bodies, (rel) => sink.previous?.(rel) ?? null), graph.routes, rendered.messages, options.strict);
    await timed('emit', async () => {
      await sharing;
      // The render workers analysed the pages they rendered; kept pages are analysed here, if the cache does not know them.
      const { keptPageDocuments } = await import('./kept-page-documents.js');
      const kept = keptPageDocuments(sink, textReader(config), setup.ctx);
      const analyse = (route: Route) => (rendered.searchDocuments.has(route.path) ? rendered.searchDocuments.get(route.path)! : kept(route));
      const search = memo ? { memo, routeKeys: rendered.routeKeys, analyse } : undefined;
      await writeSearch(sink, compiled, setup, { search, documentOf: search ? undefined : await documentsOf(graph.routes, analyse) });
      await derived?.save();
      await sink.writeWorker(memo);
      await compressing?.settle();
    });
    await timed('commit', async () => {
      if (!disk) return;
      const graphRecord = inputsKey === null ? undefined : { key: inputsKey, dataKeys: rendered.dataKeys };
      const record = { pages: rendered.pages, bodies: rendered.bodies, graph: graphRecord, output: output ?? undefined, messages: nonEmpty(rendered.messages) };
      // Nothing to move or delete, and the same record: the output and its manifest stay as they are.
      const untouched = manifest !== null && previous !== null && disk.untouched() && samePageRecords(previous, record);
      // Changing the output in place: a build interrupted half-way must not trust it next time.
      if (!untouched && manifest && previous) await manifest.forget();
      // A build without the cache rewrites the folder: the record of an earlier one no longer describes it.
      if (!useCache) await outputManifest(diskMemo(config.dirs.cache, fingerprint), config.dirs.out).forget();
      const files = untouched ? null : await disk.commit();
      if (untouched) await disk.discard();
      await compressing?.saveRecord();
      if (manifest && files) await manifest.write({ files, ...record });
      if (manifest) await upToDate?.keep(files ?? previous!.files, laterFound);
      await pruneCaches(config, manifest !== null, images);
    });
  } catch (error) {
    await sharing.catch(() => undefined); // nothing may still be writing into the staging folder
    await compressing?.settle().catch(() => undefined);
    await disk?.discard();
    throw error;
  }

  const { rendered: count, kept, reused, workers, writtenByWorkers } = rendered;
  const render = { rendered: count, kept, reused, workers, searchDocuments: rendered.searchDocuments.size, writtenByWorkers, dataKeysKnown: knownDataKeys !== null };
  return resultOf({ config, graph, outDir: disk ? config.dirs.out : null, timings, started, diagnostics: [...compiled.diagnostics, ...laterFound], images, assets, fromSnapshot, compressed: compressing?.counts() ?? { made: 0, kept: 0 }, render, outputUnchanged: false });
}

/**
 * The warnings found once the pages are rendered: the site checks' (`site`), and what the
 * markdown plugins said about the bodies of `routes` (by page path). `build --strict` refuses
 * them here, with the content's own warnings (`found`), so that one run lists them all.
 */
function laterWarnings(found: readonly Diagnostic[], site: Diagnostic[], routes: readonly Route[], messages: Readonly<Record<string, BodyMessage[]>> | undefined, strict = false): Diagnostic[] {
  const warnings = [...site, ...bodyMessageWarnings(routes, messages)];
  if (strict && found.length + warnings.length > 0) throw new StrictBuildError([...found, ...warnings]);
  return warnings;
}

const nonEmpty = <T extends object>(record: T): T | undefined => (Object.keys(record).length > 0 ? record : undefined);

/** What the front matter cache answers for the load stage, without reading or parsing (none without the cache). */
function cachedLoading(frontMatter: FrontMatterCache | null): LoadHooks {
  if (!frontMatter) return {};
  return {
    recall: (file) => frontMatter.recall(file),
    imageSize: (file) => frontMatter.imageSize(file, readImageSize),
    parseYaml: (text) => frontMatter.parseYaml(text),
  };
}

/** After a build that published: the records of output folders that are gone, and image cache entries no image of this site uses (a published build owns the image cache). */
async function pruneCaches(config: ResolvedConfig, manifests: boolean, images: ImageStageResult): Promise<void> {
  await Promise.all([manifests ? pruneManifests(config.dirs.cache) : null, pruneImageCache(config.dirs.cache, images.files.values())]);
}

interface ResultParts {
  config: ResolvedConfig;
  graph: SiteGraph;
  outDir: string | null;
  timings: Partial<Record<Stage, number>>;
  started: number;
  diagnostics: Diagnostic[];
  images: ImageStageResult;
  assets: TemplateAssets;
  fromSnapshot: BuildResult['graphFromSnapshot'];
  compressed: BuildResult['compressed'];
  render: BuildResult['render'];
  outputUnchanged: boolean;
}

function resultOf({ config, graph, outDir, timings, started, diagnostics, images, assets, fromSnapshot, compressed, render, outputUnchanged }: ResultParts): BuildResult {
  return {
    config,
    graph,
    pages: graph.routes.length,
    redirects: graph.redirects.length,
    files: graph.files.length,
    outDir,
    timings,
    totalMs: performance.now() - started,
    diagnostics,
    images: { processed: images.processed, cached: images.cached },
    bundles: { server: assets.server.cached, client: assets.client.cached },
    graphFromSnapshot: fromSnapshot,
    compressed,
    render,
    outputUnchanged,
  };
}

/** This build's graph key and frame key (keys.ts), once its images are known; null without the build cache. */
interface InputKeys {
  graph: (images: ImageStageResult) => string | null;
  frame: (images: ImageStageResult) => string | null;
}

function inputKeys(cache: BuildCacheSetup | null, raw: RawSite, includeDrafts: boolean): InputKeys {
  const inputs = (images: ImageStageResult): GraphInputs | null => cache && { ...cache, raw, images: images.images, includeDrafts };
  // Each is asked more than once (to choose the graph's path, and to keep the snapshot): hashed once.
  const keyed = (key: (inputs: GraphInputs) => string) => {
    let last: { images: ImageStageResult; key: string | null } | null = null;
    return (images: ImageStageResult) => {
      if (last?.images !== images) {
        const of = inputs(images);
        last = { images, key: of && key(of) };
      }
      return last.key;
    };
  };
  return { graph: keyed(graphKey), frame: keyed(graphFrameKey) };
}

interface GraphInputsAt {
  stored: Awaited<ReturnType<typeof readGraphSnapshot>>;
  loaded: { raw: RawSite; diagnostics: Diagnostic[] };
  config: ResolvedConfig;
  includeDrafts: boolean;
  timed: Timed;
  waitForImages: () => Promise<ImageStageResult>;
  keys: InputKeys;
}

/**
 * Validate and graph, or the last build's result when its inputs' key is this build's, or its
 * frame key (the articles' new headlines put in). The graph stage's inputs need the images: with
 * no snapshot to compare their keys against (a cold build), validation runs first, while libvips
 * may still be at work.
 */
async function graphOrSnapshot({ stored, loaded, config, includeDrafts, timed, waitForImages, keys }: GraphInputsAt) {
  if (stored) {
    const images = await waitForImages();
    const inputsKey = keys.graph(images);
    const kept = snapshotKeys(stored);
    if (inputsKey === kept.graph) {
      const restored = await timed('graph', () => restoreGraph(stored, loaded.raw.entries));
      // The same graph inputs, so the same frame: its key is the snapshot's, not hashed again.
      if (restored) return { images, inputsKey, frameKey: kept.frame, ...restored, fromSnapshot: 'same' as const, replaced: null };
    } else if (keys.frame(images) === kept.frame) {
      const restored = await timed('graph', () => restoreWithHeadlines(stored, loaded.raw.entries));
      if (restored) return { images, inputsKey, frameKey: kept.frame, ...restored, fromSnapshot: 'headlines' as const };
    }
  }
  const { validateContent } = await validation();
  const validated = await timed('validate', () => validateContent(loaded.raw, config));
  const images = await waitForImages();
  const graph = await timed('graph', () => buildGraph(validated.site, config, { includeDrafts, images: images.images }));
  return { images, inputsKey: keys.graph(images), frameKey: keys.frame(images), validation: validated.diagnostics, graph, fromSnapshot: null, replaced: null };
}


/**
 * The previous build's route data keys that hold for this build's graph: all of them when its
 * graph key was this one's; when this graph is its graph with headlines put in, all but those of
 * the routes replaced; otherwise none.
 */
function dataKeysKept(previous: OutputManifest['graph'], inputsKey: string, edit: { from: string; replaced: readonly Route[] } | null): Record<string, string> | null {
  if (!previous) return null;
  if (previous.key === inputsKey) return previous.dataKeys;
  if (!edit || previous.key !== edit.from) return null;
  const kept = { ...previous.dataKeys };
  for (const route of edit.replaced) delete kept[route.path];
  return kept;
}
