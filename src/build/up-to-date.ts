// `ir-site build` with nothing to do: when every file the last build could have read and every
// file it wrote are as it recorded them (incremental/up-to-date.ts), its result is reported
// again, and the content, the caches and the render code are never loaded. This module is the
// CLI's first step; it stays small, so that a build with nothing to do loads little.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { lockFile, outputLockFile } from './lock.js';
import { publishedFolder } from './emit/published-folder.js';
import { outputInterrupted } from './emit/journal.js';
import { configCacheDir, loadConfig, type ConfigBundle, type ConfigBundleMemo } from './config/load.js';
import type { ResolvedConfig } from './config/resolve.js';
import { BundleCache, metafileInputs } from '../incremental/bundle-cache.js';
import { toolFingerprint } from '../incremental/fingerprint.js';
import { diskMemo, type Memo } from '../incremental/memo.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import type { SiteGraph } from './graph/model.js';
import { configBundleKey, upToDateKey } from '../incremental/keys.js';
import { inputsAsRecorded, inputsChangedSince, inputStates, settledAt, upToDateRecord, type RecordedResult } from '../incremental/up-to-date.js';
import { allAsRecorded, type FileTable } from '../incremental/file-table.js';
import { outputStatsHelper, type OutputStates } from '../incremental/output-states.js';
import { fileColumns } from '../incremental/output-manifest.js';
import { settledBefore } from '../incremental/racy.js';
import type { FileState } from '../files/digest.js';
import { isInside } from '../files/real-path.js';
import type { WalkedContent } from './content/load.js';

/** What a build reads the site's configuration with: its options and, with the build cache, the config's last bundle. */
export interface ConfigSource {
  root: string;
  site?: string;
  outDir?: string;
  cache?: boolean;
}

/** The bundle cache that keeps site.config.ts's bundle, in the folder it is written to (config/load.ts); null without the build cache. */
export const configBundles = (options: ConfigSource): Promise<BundleCache | null> =>
  (options.cache ?? true) ? BundleCache.open(diskMemo(configCacheDir(options.root), toolFingerprint()), 'config') : Promise.resolve(null);

/** The config's bundle in the build cache's bundles, by the config file. */
export const configBundleMemo = (cache: BundleCache): ConfigBundleMemo => ({
  recall: (file) => cache.recall<ConfigBundle>('config', configBundleKey(file)),
  remember: (file, since, inputs, bundle) => cache.remember('config', configBundleKey(file), since, metafileInputs(inputs, path.dirname(file)), bundle),
});

/** site.config.ts read as every command reads it, its bundle taken from `bundles` when no file esbuild read for it changed. */
export const readConfig = (options: ConfigSource, bundles: BundleCache | null): Promise<ResolvedConfig> =>
  loadConfig({ root: options.root, identity: options.site, outDir: options.outDir, bundles: bundles && configBundleMemo(bundles) });

/** The folders whose files a build may read (all are walked), and those inside them it does not. */
const inputFolders = (config: ResolvedConfig) => ({
  folders: [config.dirs.content, config.dirs.config, config.dirs.locales, config.dirs.templates],
  skip: [config.dirs.out, config.dirs.cache],
});

/** What a build is asked for besides its input files: whether it publishes drafts, and whether it runs the site checks (whose warnings it reports). */
export interface BuildAsk {
  drafts: boolean;
  checks: boolean;
}

/** The input files' states as a walk found them at `at`, for the configuration and ask of `key`; `files` null when a link was found. */
export interface InputWalk {
  key: string;
  at: number;
  files: FileTable | null;
}

/** The input files now, as the up-to-date record holds them. */
function walkInputs(config: ResolvedConfig, key: string): InputWalk {
  const { folders, skip } = inputFolders(config);
  const at = Date.now();
  return { key, at, files: inputStates(folders, skip) };
}

/**
 * The input files' states before a build reads any: `given` when the up-to-date check just took
 * them for the same configuration and ask, a walk otherwise.
 */
export const inputsBefore = (config: ResolvedConfig, ask: BuildAsk, given?: InputWalk): InputWalk =>
  given?.key === upToDateKey(config, ask) ? given : walkInputs(config, upToDateKey(config, ask));

/**
 * The content folder's files and their states from `walk`, for the load stage: undefined when
 * the walk found a link (it gives up there; listFiles follows links) or left out a folder inside
 * the content folder (the cache's).
 */
export function walkedContent(walk: InputWalk | null, config: ResolvedConfig): WalkedContent | undefined {
  const table = walk?.files;
  const content = path.resolve(config.dirs.content);
  if (!table || inputFolders(config).skip.some((dir) => isInside(path.resolve(dir), [content]))) return undefined;
  const prefix = content + path.sep;
  const at = new Map<string, number>();
  const files: string[] = [];
  table.names.forEach((name, i) => {
    if (!name.startsWith(prefix)) return;
    at.set(name, i);
    files.push(path.sep === '/' ? name.slice(prefix.length) : name.slice(prefix.length).split(path.sep).join('/'));
  });
  const stateOf = (abs: string) => {
    const i = at.get(abs);
    return i === undefined ? undefined : { size: table.times[3 * i]!, mtimeMs: table.times[3 * i + 1]!, ctimeMs: table.times[3 * i + 2]! };
  };
  return { files: files.sort(), stateOf };
}

export interface UpToDate extends RecordedResult {
  config: ResolvedConfig;
  outDir: string;
  totalMs: number;
  /** How many input files and output files were found as recorded. */
  checked: { inputs: number; outputs: number };
}

export interface UpToDateCheck {
  /** The last build's result, when the output folder is up to date. */
  fresh: UpToDate | null;
  /** The input files as the check found them, for the build that follows (BuildOptions.inputs); null when it did not look. */
  inputs: InputWalk | null;
  /** The states of the files the last build left in the output folder, taken by the check, for the build that follows (BuildOptions.outputs); null when it did not look. */
  outputs: OutputStates | null;
}

/**
 * Whether the output folder is up to date: the configuration, the input files and the output
 * files all as the last build recorded them. Not without the build cache, nor while another
 * build holds the site (the build that follows waits for it).
 */
export async function checkUpToDate(options: ConfigSource & { drafts?: boolean }): Promise<UpToDateCheck> {
  const stale = (inputs: InputWalk | null = null, outputs: OutputStates | null = null) => ({ fresh: null, inputs, outputs });
  if (options.cache === false) return stale();
  const started = performance.now();
  // Its helper thread boots while the configuration and the record are read.
  const helper = outputStatsHelper();
  // Whether the helper goes on after the check, for the build that follows.
  let goesOn = false;
  try {
    const bundles = await configBundles(options);
    const config = await readConfig(options, bundles);
    await bundles?.save();
    // A build running, or one interrupted (its lock, or a commit's journal, left behind): the build that follows deals with it.
    if (existsSync(lockFile(config.dirs.cache)) || existsSync(outputLockFile(publishedFolder(config.dirs.out).dir)) || outputInterrupted(config.dirs.out)) return stale();
    // The command always runs the site checks.
    const key = upToDateKey(config, { drafts: options.drafts ?? false, checks: true });
    const record = await upToDateRecord(diskMemo(config.dirs.cache, toolFingerprint()), config.dirs.out).read();
    if (!record || record.config !== key) return stale();
    // The helper stats the output files while this thread walks the inputs; with inputs changed,
    // it goes on alone for the build that follows.
    const outputs = helper.stat(record.files.names, config.dirs.out);
    const inputs = walkInputs(config, key);
    if (!record.settled || !inputsAsRecorded(record, inputs.files)) {
      goesOn = true;
      return stale(inputs, outputs);
    }
    if (!allAsRecorded(record.files, await outputs.shared())) return stale(inputs, outputs);
    const checked = { inputs: record.inputs.names.length, outputs: record.files.names.length };
    return { fresh: { ...record.result, config, outDir: config.dirs.out, totalMs: performance.now() - started, checked }, inputs, outputs: null };
  } finally {
    // Not left to boot or to end by itself: the process would wait for it.
    if (!goesOn) helper.stop();
  }
}

/** What changed since the last build into an output folder: the input files, and whether it was built with another configuration or ask. */
export interface ChangesSinceBuilt {
  /** The configuration (or drafts, or the site checks) differed: every file may be different. */
  config: boolean;
  /** Input files added, removed or changed since, relative to the site's root with forward slashes. */
  files: string[];
}

/**
 * What changed since the last build into `options.outDir` (the configured output folder without
 * it), as its up-to-date record tells; null when no build into it is recorded (or the walk met a
 * link). A build without drafts, with or without the site checks, counts as the same configuration.
 */
export async function changesSinceBuilt(config: ResolvedConfig): Promise<ChangesSinceBuilt | null> {
  const record = await upToDateRecord(diskMemo(config.dirs.cache, toolFingerprint()), config.dirs.out).read();
  if (!record?.settled) return null;
  const keys = [true, false].map((checks) => upToDateKey(config, { drafts: false, checks }));
  const changed = inputsChangedSince(record, walkInputs(config, keys[0]!).files);
  if (changed === null) return null;
  const shown = (file: string) => (isInside(file, [config.root]) ? path.relative(config.root, file).split(path.sep).join('/') : file);
  return { config: !keys.includes(record.config), files: changed.map(shown) };
}

export interface KeeperParts {
  /** The build cache; without it (`--no-cache`) the record is forgotten and none is kept. */
  memo: Memo | null;
  config: ResolvedConfig;
  ask: BuildAsk;
  /** The input files' states from before the build read any (inputsBefore). */
  inputs: InputWalk | null;
  /** The build's bundle cache, whose server and browser bundles' inputs the record holds. */
  bundles: Promise<BundleCache | null> | undefined;
  graph: SiteGraph;
  diagnostics: Diagnostic[];
}

/**
 * The up-to-date record of a build into the output folder: forgotten before the build changes
 * anything, so that a build interrupted leaves none; kept once it is done, when the inputs were
 * walked for this configuration, with no link. Unless every one had settled by then, it is kept
 * as not settled: never up to date, but naming the output files for the next build to stat.
 */
export function upToDateKeeper({ memo, config, ask, inputs, bundles, graph, diagnostics }: KeeperParts) {
  const record = upToDateRecord(memo ?? diskMemo(config.dirs.cache, toolFingerprint()), config.dirs.out);
  const result: RecordedResult = { pages: graph.routes.length, redirects: graph.redirects.length, files: graph.files.length, diagnostics };
  const key = upToDateKey(config, ask);
  return {
    forget: () => record.forget(),
    /** `files`: the output folder's files, as its manifest records them; `found`: the render's warnings (the markdown plugins' messages). */
    async keep(files: Readonly<Record<string, FileState>>, found: readonly Diagnostic[] = []): Promise<void> {
      const bundleCache = await bundles;
      const bundleInputs = ['server', 'client'].map((name) => bundleCache?.inputsOf(name) ?? null);
      const walked = memo && inputs?.key === key && inputs.files ? inputs.files : null;
      if (!walked) return record.forget();
      // The bundle cache trusts a settled modification time; a change time moved lately (a file replaced by an old copy) is not settled either.
      const bundlesSettled = bundleInputs.every((records) => records?.every((input) => input.length === 2 || settledBefore(input[3], inputs!.at)));
      const settled = settledAt(walked, inputs!.at) && bundlesSettled;
      await record.write({ config: key, inputs: walked, bundles: bundleInputs.flatMap((b) => b ?? []), files: fileColumns(files).files, result: { ...result, diagnostics: [...result.diagnostics, ...found] }, settled });
    },
  };
}
