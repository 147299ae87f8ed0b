// `ir-site build` with nothing to do: when every file the last build could have read and every
// file it wrote are as it recorded them (incremental/up-to-date.ts), its result is reported
// again, and the content, the caches and the render code are never loaded. This module is the
// CLI's first step; it stays small, so that a build with nothing to do loads little.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { lockFile } from './lock.js';
import { configCacheDir, loadConfig, type ConfigBundle, type ConfigBundleMemo } from './config/load.js';
import type { ResolvedConfig } from './config/resolve.js';
import { BundleCache, metafileInputs } from '../incremental/bundle-cache.js';
import { toolFingerprint } from '../incremental/fingerprint.js';
import { diskMemo, type Memo } from '../incremental/memo.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import type { SiteGraph } from './graph/model.js';
import { configBundleKey, configKey } from '../incremental/keys.js';
import { inputsAsRecorded, inputStates, outputChecker, outputTimes, upToDateRecord, type RecordedResult } from '../incremental/up-to-date.js';
import type { FileState } from '../files/digest.js';

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

export const readConfig = (options: ConfigSource, bundles: BundleCache | null): Promise<ResolvedConfig> =>
  loadConfig({ root: options.root, identity: options.site, outDir: options.outDir, bundles: bundles && configBundleMemo(bundles) });

/** The folders whose every file is an input of the build, and those inside them that are not. */
const inputFolders = (config: ResolvedConfig) => ({
  folders: [config.dirs.content, config.dirs.config, config.dirs.locales, config.dirs.templates],
  skip: [config.dirs.out, config.dirs.cache],
});

/** The key of what a build makes of its inputs besides their files: the resolved configuration and the build's options. */
const configOf = (config: ResolvedConfig, drafts: boolean) => configKey({ config, drafts });

export interface UpToDate extends RecordedResult {
  config: ResolvedConfig;
  outDir: string;
  totalMs: number;
  /** How many input files and output files were found as recorded. */
  checked: { inputs: number; outputs: number };
}

/**
 * The last build's result, when the output folder is up to date: its record's configuration,
 * input files and output files all as they are now. null otherwise, or without the build cache.
 */
export async function upToDate(options: ConfigSource & { drafts?: boolean }): Promise<UpToDate | null> {
  if (options.cache === false) return null;
  const started = performance.now();
  const outputs = outputChecker();
  try {
    const config = await readConfig(options, await configBundles(options));
    // Another build at work may be about to change the output: the build waits for it, and then decides.
    if (existsSync(lockFile(config.dirs.cache))) return null;
    const record = await upToDateRecord(diskMemo(config.dirs.cache, toolFingerprint()), config.dirs.out).read();
    if (!record || record.config !== configOf(config, options.drafts ?? false)) return null;
    const outputsChecked = outputs.start(record, config.dirs.out);
    const { folders, skip } = inputFolders(config);
    if (!inputsAsRecorded(record, inputStates(folders, skip)) || !(await outputsChecked())) return null;
    const checked = { inputs: record.inputs.names.length, outputs: record.files.names.length };
    return { ...record.result, config, outDir: config.dirs.out, totalMs: performance.now() - started, checked };
  } finally {
    outputs.stop();
  }
}

export interface KeeperParts {
  /** The build cache; without it (`--no-cache`) the record is forgotten and none is kept. */
  memo: Memo | null;
  config: ResolvedConfig;
  drafts: boolean;
  /** When the build started: an input changed since (or just before) makes no record. */
  since: number;
  /** The build's bundle cache, whose server and browser bundles' inputs the record holds. */
  bundles: Promise<BundleCache | null> | undefined;
  graph: SiteGraph;
  diagnostics: Diagnostic[];
}

/**
 * The up-to-date record of a build into the output folder: forgotten before the build changes
 * anything, so that a build interrupted leaves none; kept once it is done, when every input
 * settled before it started.
 */
export function upToDateKeeper({ memo, config, drafts, since, bundles, graph, diagnostics }: KeeperParts) {
  const record = upToDateRecord(memo ?? diskMemo(config.dirs.cache, toolFingerprint()), config.dirs.out);
  const result: RecordedResult = { pages: graph.routes.length, redirects: graph.redirects.length, files: graph.files.length, diagnostics };
  return {
    forget: () => record.forget(),
    /** `files`: the output folder's files, as its manifest records them. */
    async keep(files: Readonly<Record<string, FileState>>): Promise<void> {
      const { folders, skip } = inputFolders(config);
      const inputs = memo && inputStates(folders, skip, since);
      const bundleCache = await bundles;
      const bundleInputs = ['server', 'client'].map((name) => bundleCache?.inputsOf(name) ?? null);
      if (!inputs || bundleInputs.includes(null)) return record.forget();
      await record.write({ config: configOf(config, drafts), inputs, bundles: bundleInputs.flatMap((b) => b ?? []), files: outputTimes(files), result });
    },
  };
}
