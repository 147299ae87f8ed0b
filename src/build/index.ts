// `ir-site build`: the configuration read, then the site built (build-site.ts, the stages chained)
// inside the site's lock and the output folder's, once what an interrupted build left is finished
// or cleared. A build into a caller's sink (`options.sink`) takes no lock: it writes no folder.
import { configCacheDir } from './config/load.js';
import { CommitInterruptedError } from './emit/sink.js';
import { diagnostic, DiagnosticsError, type FailedStage } from '../errors/diagnostic.js';
import { toolFingerprint } from '../incremental/fingerprint.js';
import { diskMemo } from '../incremental/memo.js';
import { upToDateRecord } from '../incremental/up-to-date.js';
import { acquireBuildLock, acquireOutputLock } from './lock.js';
import { removeConfigCacheLeftovers, removeLeftovers, replayJournal } from './emit/journal.js';
import { publishedFolder } from './emit/published-folder.js';
import { outputRefusal } from './output-folder.js';
import { asDiagnostics, cacheWriteWarnings, shown } from './build-errors.js';
import type { BuildOptions, BuildResult, Stage } from './options-and-result.js';
import { configBundles as openConfigBundles, readConfig as readSiteConfig } from './up-to-date.js';
import { buildSite } from './build-site.js';

export type { BuildOptions, BuildReporter, BuildResult, Stage } from './options-and-result.js';

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
  // A disk that fails before the site is built fails the build itself, not its emit.
  let writing: FailedStage = 'build';
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
        writing = 'emit';
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
    throw asDiagnostics(error, config.root, config.dirs.out, writing);
  }
}
