// Bundles the browser runtime (src/client) with esbuild: the runtime entry, one entry
// per template (loaded lazily by URL), shared code (React) split out so both use one
// copy, every file named by its content hash.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { metafileInputs, type BundleCache } from '../../incremental/bundle-cache.js';
import { clientBundleKey } from '../../incremental/keys.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { diagnostic, DiagnosticsError } from '../../errors/diagnostic.js';
import { esbuildProblems } from '../../errors/esbuild.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { irSitePackage } from './ir-site-package.js';
import type { ClientAssets } from '../render/document.js';
import { chunkNameFor } from '../../shared/paths.js';
import * as z from 'zod';
import { accepts, schemaOf } from '../../files/payload-shape.js';
import { TEMPLATE_IDS } from '../../shared/template-ids.js';
import { templateFile } from './template-files.js';
import { byText } from '../../shared/order.js';

/** src/client/index.ts of this ir-site (the TypeScript source is bundled, never imported). */
const RUNTIME_ENTRY = path.join(PACKAGE_ROOT, 'src', 'client', 'index.ts');

export interface ClientBundle {
  assets: ClientAssets;
  /** Files to write: site path -> contents. */
  files: Map<string, Uint8Array>;
  /** Content hash of every client file: the build hash the runtime compares. */
  hash: string;
  /** Whether the bundle was the build cache's (nothing esbuild read for it changed). */
  cached: boolean;
}

/** The module files a chunk needs before it can run: itself and its static imports, transitively. */
function preloadList(metafile: Metafile, output: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of metafile.outputs[file]?.imports ?? []) if (imp.kind === 'import-statement') visit(imp.path);
  };
  visit(output);
  return [...seen];
}

/** A client bundle as the build cache keeps it (bundle-cache.ts): the files' bytes in base64. */
const storedClientBundle = schemaOf<StoredClientBundle>()(
  z.object({
    assets: z.object({ runtime: z.string(), runtimeImports: z.array(z.string()), preload: z.record(z.string(), z.array(z.string())), chunks: z.record(z.string(), z.string()) }),
    files: z.array(z.tuple([z.string(), z.string()])),
    hash: z.string(),
  }),
);
interface StoredClientBundle {
  assets: ClientAssets;
  files: [sitePath: string, base64: string][];
  hash: string;
}
/** bundles.bin's envelope proves who wrote it, not that this entry has the shape read here. */
const isStoredClientBundle = accepts(storedClientBundle);

/**
 * The browser runtime and templates, bundled: esbuild's work, or the build cache's (`cache`)
 * when none of the files esbuild read for them changed.
 */
export async function bundleClient(config: ResolvedConfig, cache: BundleCache | null = null): Promise<ClientBundle> {
  const key = clientBundleKey(RUNTIME_ENTRY, config.root, config.dirs.templates, config.dirs.cache);
  const recalled = cache?.recall<unknown>('client', key);
  const known = isStoredClientBundle(recalled) ? (recalled as StoredClientBundle) : null;
  if (known) return { assets: known.assets, hash: known.hash, files: new Map(known.files.map(([file, base64]) => [file, Buffer.from(base64, 'base64')])), cached: true };
  const since = Date.now();
  const bundle = await bundleWithEsbuild(config);
  const stored: StoredClientBundle = { assets: bundle.assets, hash: bundle.hash, files: [...bundle.files].map(([file, bytes]) => [file, Buffer.from(bytes).toString('base64')]) };
  cache?.remember('client', key, since, bundle.inputs, stored);
  return { assets: bundle.assets, files: bundle.files, hash: bundle.hash, cached: false };
}

async function bundleWithEsbuild(config: ResolvedConfig): Promise<Omit<ClientBundle, 'cached'> & { inputs: string[] }> {
  const outdir = path.join(config.dirs.cache, 'client-out');
  let result;
  try {
    const { build: esbuild } = await import('esbuild');
    result = await esbuild({
      // Templates are entries of their own: the runtime imports them by URL from the map each
      // page carries, so its own hash does not change when a template does.
      entryPoints: [{ in: RUNTIME_ENTRY, out: 'runtime' }, ...TEMPLATE_IDS.map((id) => ({ in: templateFile(config.dirs.templates, id), out: `chunks/${id}` }))],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
      jsx: 'automatic',
      minify: true,
      write: false,
      metafile: true,
      outdir,
      entryNames: 'static/[dir]/[name].[hash]',
      chunkNames: 'static/chunks/[name].[hash]',
      define: { 'process.env.NODE_ENV': '"production"' },
      legalComments: 'none',
      // V8's explicit compile hint: Chromium compiles the whole file on a background thread as
      // it streams in, instead of each function on the main thread at its first call (react-dom's
      // evaluation was the longest task of a first load on a phone). Other engines ignore it.
      banner: { js: '//# allFunctionsCalledOnLoad' },
      plugins: [irSitePackage()],
      // Templates outside this repository still get react and friends from ir-site itself.
      nodePaths: [path.join(PACKAGE_ROOT, 'node_modules')],
      // Chunk hashes count the inputs' paths relative to this (the current folder by default):
      // the site's real root keeps them the same wherever the build runs from, and through a link
      // to the site; they change with where ir-site is installed relative to the site.
      absWorkingDir: config.root,
      logLevel: 'silent',
    });
  } catch (error) {
    const problems = esbuildProblems(error, { root: config.root, file: 'src/client' });
    if (!problems) throw error;
    throw new DiagnosticsError(problems.map((p) => diagnostic('client/compile', p)), 'client bundle');
  }

  const metafile = result.metafile!;
  // Metafile paths are relative to the working folder (the site's root); site paths are relative to outdir.
  const fromMeta = (metaPath: string) => path.resolve(config.root, metaPath);
  const sitePath = (metaPath: string) => `/${path.relative(outdir, fromMeta(metaPath)).split(path.sep).join('/')}`;
  const files = new Map<string, Uint8Array>();
  for (const file of result.outputFiles) files.set(`/${path.relative(outdir, file.path).split(path.sep).join('/')}`, file.contents);

  const entries = Object.entries(metafile.outputs).filter(([, info]) => info.entryPoint);
  // esbuild names entry points by their real path: match through symlinks too.
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const runtimeOutput = entries.find(([, info]) => real(fromMeta(info.entryPoint!)) === real(RUNTIME_ENTRY))?.[0];
  if (!runtimeOutput) throw new Error('esbuild produced no runtime entry');
  const runtimeFiles = preloadList(metafile, runtimeOutput).map(sitePath);
  const preload: Record<string, string[]> = {};
  const chunks: Record<string, string> = {};
  for (const id of TEMPLATE_IDS) {
    const file = real(templateFile(config.dirs.templates, id));
    const output = entries.find(([, info]) => real(fromMeta(info.entryPoint!)) === file)?.[0];
    if (!output) continue;
    chunks[chunkNameFor(id)] = sitePath(output);
    // What the runtime loads anyway is preloaded for every page; per template, only what it adds.
    preload[chunkNameFor(id)] = preloadList(metafile, output).map(sitePath).filter((f) => !runtimeFiles.includes(f));
  }

  const hash = createHash('sha256');
  for (const [name, contents] of [...files].sort(([a], [b]) => byText(a, b))) hash.update(name).update(contents);
  return {
    assets: { runtime: runtimeFiles[0]!, runtimeImports: runtimeFiles.slice(1), preload, chunks },
    files,
    hash: hash.digest('hex').slice(0, 20),
    inputs: metafileInputs(metafile.inputs, config.root),
  };
}
