// The build's stages chained in plain sight, each timed: config is read by the caller (index.ts,
// which also holds the site's lock); then load, images, graph (or its snapshot), templates, render,
// emit and the commit, with the build cache beside them. The pieces it chains (compile.ts,
// render-setup.ts, shared-files.ts) are also what `dev` and `check --dir` reuse.
import path from 'node:path';
import type { ResolvedConfig } from './config/resolve.js';
import { loadContent, readImageSize, type LoadHooks } from './content/load.js';
import type { RawAsset } from './content/raw.js';
import { DerivedFileCache } from '../incremental/derived-files.js';
import { buildSinkOf, StagedDiskSink } from './emit/sink.js';
import { CompressingSink } from './emit/compressing-sink.js';
import { CompressionRecord } from '../incremental/compression-record.js';
import { DiagnosticsError, errorCount, type Diagnostic } from '../errors/diagnostic.js';
import type { Route } from './graph/model.js';
import { configKey } from '../incremental/keys.js';
import { CONFIG_FILE } from '../shared/config-file.js';
import { readGraphSnapshot, snapshotKeys, writeGraphSnapshot } from '../incremental/graph-snapshot.js';
import { BundleCache } from '../incremental/bundle-cache.js';
import { toolFingerprint } from '../incremental/fingerprint.js';
import { diskMemo } from '../incremental/memo.js';
import { FrontMatterCache } from '../incremental/front-matter-cache.js';
import { outputManifest, pruneManifests } from '../incremental/output-manifest.js';
import { commitOutput } from './commit-output.js';
import { intactFiles } from '../incremental/intact-files.js';
import { outputKeyOf, sameStates, unchangedOutput } from '../incremental/output-state.js';
import { siteWarningsOf } from './site-warnings.js';
import { clearCacheFolders } from '../incremental/cache-layout.js';
import { renderStage, type BuildCacheSetup, type RenderStageResult } from './render-pages.js';
import { textReader } from './bodies.js';
import type { BodyFacts } from '../features/markdown/body-facts.js';
import { OfflineSink } from '../features/offline/index.js';
import { processImages, pruneImageCache, type ImageStageResult } from './images/process.js';
import { compiledOf, laterWarnings } from './compile.js';
import { bundleErrors, bundleTemplates, prepareRender } from './render-setup.js';
import { documentsOf, writeSearch, writeSiteShared } from './shared-files.js';
import { dataKeysKept, graphOrSnapshot, inputKeys } from './graph-or-snapshot.js';
import { resultOf, type BuildOptions, type BuildResult, type Stage, type Timed } from './options-and-result.js';
import { inputsBefore, upToDateKeeper, walkedContent } from './up-to-date.js';

/** Builds the site of `config` (read by `build`, inside the site's lock when it builds into a folder). */
export async function buildSite(options: BuildOptions, config: ResolvedConfig, configBundles: BundleCache | null, timed: Timed, timings: Partial<Record<Stage, number>>, started: number): Promise<BuildResult> {
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
  // Which of the previous build's files are still there as it left them: statted on a helper
  // thread (the up-to-date check's, when it statted the same files) while this one loads.
  // Should that fail, the sink checks each file itself.
  const intact = previous ? intactFiles(config.dirs.out, previous.files, options.outputs).catch(() => null) : null;
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
  const compiled = await compiledOf(loaded, images, { graph, validation, inputsKey }, config);
  const found = compiled.diagnostics;
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
    return resultOf({ config, graph, outDir: config.dirs.out, timings, started, diagnostics: [...compiled.diagnostics, ...laterFound], images, assets, graphFromSnapshot: fromSnapshot, compressed: { made: 0, kept: 0 }, render, outputUnchanged: true });
  }
  const setup = await timed('templates', () => prepareRender(config, compiled, assets));
  await upToDate?.forget();
  const disk = options.sink ? null : new StagedDiskSink(config.dirs.out, previous?.files ?? null, await intact);
  // A disk build writes `.br` and `.gz` next to each compressible file (emit/compressing-sink.ts).
  const compressing = disk && config.compress ? new CompressingSink(disk, await CompressionRecord.open(memo)) : null;
  // Notes what the offline worker needs (deploy id, precached files) on the way through.
  const sink = new OfflineSink(compressing ?? (options.sink ? buildSinkOf(options.sink) : disk!));
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
    // A plugin that fails as it is attached fails on no page: the configuration is what failed.
    const attaching = rendered.errors.every((d) => d.file === CONFIG_FILE && d.line === undefined);
    if (rendered.errors.length > 0) throw new DiagnosticsError(rendered.errors, attaching ? 'configuration' : 'render');
    laterFound = laterWarnings(found, await siteWarnings(rendered.bodyFacts, rendered.bodies, (rel) => sink.previous(rel)), graph.routes, rendered.messages, options.strict);
    await timed('emit', async () => {
      await sharing;
      // The render workers analysed the pages they rendered; kept pages are analysed here, if the cache does not know them.
      const { keptPageDocuments } = await import('./kept-page-documents.js');
      const kept = keptPageDocuments(sink, textReader(config), setup.ctx);
      const analyse = (route: Route) => (rendered.searchDocuments.has(route.path) ? rendered.searchDocuments.get(route.path)! : kept(route));
      const search = memo && cache ? { memo, routeKeys: rendered.routeKeys, configKey: cache.configKey, analyse } : undefined;
      await writeSearch(sink, compiled, setup, { search, documentOf: search ? undefined : await documentsOf(graph.routes, analyse) });
      await derived?.save();
      await sink.writeWorker(memo);
      await compressing?.settle();
    });
    await timed('commit', async () => {
      if (!disk) return;
      const record = { pages: rendered.pages, bodies: rendered.bodies, graph: inputsKey === null ? undefined : { key: inputsKey, dataKeys: rendered.dataKeys }, output: output ?? undefined, messages: nonEmpty(rendered.messages) };
      const forgetEarlierRecord = useCache ? null : () => outputManifest(diskMemo(config.dirs.cache, fingerprint), config.dirs.out).forget();
      const files = await commitOutput({ disk, compressing, manifest, previous, record, forgetEarlierRecord });
      if (files) await upToDate?.keep(files, laterFound);
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
  return resultOf({ config, graph, outDir: disk ? config.dirs.out : null, timings, started, diagnostics: [...compiled.diagnostics, ...laterFound], images, assets, graphFromSnapshot: fromSnapshot, compressed: compressing?.counts() ?? { made: 0, kept: 0 }, render, outputUnchanged: false });
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
