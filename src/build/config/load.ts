// Reads site.config.ts: bundles it with esbuild (so it may be TypeScript and import
// `defineConfig` from 'ir-site'), imports the result, validates it with zod. With the build
// cache, the bundle is esbuild's only when a file it read changed: a build that changed
// nothing esbuild reads never loads or starts esbuild.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtinModules } from 'node:module';
import type { Metafile, Plugin } from 'esbuild';
import { diagnostic, DiagnosticsError, type Diagnostic } from '../../errors/diagnostic.js';
import { esbuildProblems } from '../../errors/esbuild.js';
import { installedVersion } from '../../files/installed-version.js';
import { intactModuleBundle, writeModuleBundle } from '../../files/module-bundle.js';
import { diskFailure } from '../../errors/disk.js';
import { folderProblem } from '../../files/folder-problem.js';
import { realPathOr } from '../../files/real-path.js';
import { resolveConfig, type ConfigModule, type ResolvedConfig } from './resolve.js';
import { siteConfigSchema } from './schema.js';
import { configPathLine, unknownKeyDiagnostics } from './unknown-keys.js';
import { CONFIG_FILE } from '../../shared/config-file.js';
import { codeOf, messageOf } from '../../errors/thrown.js';

export interface LoadConfigOptions {
  root: string;
  identity?: string;
  outDir?: string;
  /** The build cache's record of the last bundle, kept in `<root>/.ir-site/cache` where the bundle is written. */
  bundles?: ConfigBundleMemo | null;
}

/** The bundled config module in the cache folder, its content hash, the npm packages it imports (left out of the bundle) and the site's files in it. */
export interface ConfigBundle {
  path: string;
  hash: string;
  packages: string[];
  files: string[];
}

/** The last bundle of a config file, while no file esbuild read for it changed (the build cache's: build/build-site.ts). */
export interface ConfigBundleMemo {
  recall(configFile: string): ConfigBundle | null;
  /** `inputs`: esbuild's metafile inputs, relative to the config's folder. */
  remember(configFile: string, since: number, inputs: Record<string, unknown>, bundle: ConfigBundle): void;
}

/** The cache folder the config's bundle is written to: fixed, since the config may move the others (`paths.cache`). */
export const configCacheDir = (root: string) => path.join(path.resolve(root), '.ir-site', 'cache');

/** `import { defineConfig } from 'ir-site'` inside site.config.ts needs no installed package. */
const irSiteVirtual: Plugin = {
  name: 'ir-site-virtual',
  setup(build) {
    build.onResolve({ filter: /^ir-site$/ }, () => ({ path: 'ir-site', namespace: 'ir-site-virtual' }));
    build.onLoad({ filter: /.*/, namespace: 'ir-site-virtual' }, () => ({
      contents: 'export const defineConfig = (config) => config;',
      loader: 'js',
    }));
  },
};

async function bundleConfig(file: string, cacheDir: string, bundles: ConfigBundleMemo | null): Promise<ConfigBundle> {
  const known = bundles?.recall(file);
  if (known && intactModuleBundle(known.path, known.hash)) return known;
  const since = Date.now();
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'silent',
    packages: 'external',
    plugins: [irSiteVirtual],
    // Paths in the bundle's comments are relative to this: the same bundle from any current folder.
    absWorkingDir: path.dirname(file),
  });
  const written = await writeModuleBundle(cacheDir, 'site.config', result.outputFiles[0]!.text, 16);
  const bundle = { path: written.file, hash: written.hash, packages: importedPackages(result.metafile), files: bundledFiles(result.metafile, path.dirname(file)) };
  bundles?.remember(file, since, result.metafile.inputs, bundle);
  return bundle;
}

/** The npm packages a bundle imports, by name (`@scope/name`, `name`); Node's own modules left out. */
function importedPackages(metafile: Metafile): string[] {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const { path: specifier, external } of output.imports) {
      if (!external || specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) continue;
      names.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
    }
  }
  return [...names].sort();
}

/** The site's own files esbuild read for the bundle (its inputs are relative to the config's folder; ir-site's virtual module left out). */
function bundledFiles(metafile: Metafile, dir: string): string[] {
  return Object.keys(metafile.inputs)
    .filter((input) => !/^[a-z-]+:/.test(input))
    .map((input) => path.resolve(dir, input))
    .sort();
}

async function importConfigModule(file: string, cacheDir: string, bundles: ConfigBundleMemo | null): Promise<{ exported: unknown; module: ConfigModule }> {
  const bundle = await bundleConfig(file, cacheDir, bundles);
  const mod = (await import(pathToFileURL(bundle.path).href)) as { default?: unknown };
  // Read on every load, not kept with the bundle: an upgrade changes no file esbuild read.
  const packages = Object.fromEntries((bundle.packages ?? []).map((name) => [name, installedVersion(name, path.dirname(file))]));
  return { exported: mod.default, module: { path: bundle.path, hash: bundle.hash, packages, files: bundle.files ?? [file] } };
}

/**
 * The bundle could not be written because something other than a folder is where the cache
 * folder goes (a file, a link to nothing): named, since the cause is not the config. It is not
 * removed: the cache's own folders are ir-site's (incremental/cache-layout.ts), but what stands
 * at its root may be anything of the person's, and `paths.cache` does not move this bundle.
 */
function throwIfCacheUnusable(error: unknown, root: string): void {
  if (!['EEXIST', 'ENOTDIR', 'ENOENT', 'ELOOP'].includes(codeOf(error))) return;
  const problem = folderProblem(configCacheDir(root));
  if (!problem) return;
  const file = path.relative(root, configCacheDir(root));
  const message = `site.config.ts's bundle cannot be written to the build cache: ${problem}`;
  const hint = `ir-site keeps its cache in ${file}: delete or move away what is there, then build again (the cache is rebuilt)`;
  throw new DiagnosticsError([diagnostic('config/load', { file, message, hint })], 'configuration');
}

/** What to do when site.config.ts threw as it ran, or imports a package that is not installed. */
function loadHint(error: unknown): string {
  const missing = codeOf(error) === 'ERR_MODULE_NOT_FOUND' ? /Cannot find (?:package|module) '([^']+)'/.exec(messageOf(error))?.[1] : undefined;
  if (missing) return `site.config.ts imports ${missing}, which is not installed: npm install it in the site's project, or remove the import`;
  return 'site.config.ts threw as it ran: fix the code it runs at its top level or in its getters';
}

/** The error of a `--root` that is no site (no folder, or no site.config.ts in it); null when it has one. */
export function noSiteAt(root: string): Diagnostic | null {
  if (existsSync(path.join(root, CONFIG_FILE))) return null;
  const where = existsSync(root) ? `${root} has no ${CONFIG_FILE}` : `there is no folder ${root}`;
  return diagnostic('config/load', { file: CONFIG_FILE, message: `no site here: ${where}`, hint: "run ir-site in the site's folder (the one with site.config.ts), or name it with --root" });
}

export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  // The site as esbuild and Node see it, through any link on the way (macOS's /tmp, a linked
  // project folder): esbuild reports paths from its real working folder, and a site reached
  // through a link would otherwise get script addresses that climb out of it.
  const root = realPathOr(path.resolve(options.root));
  const file = path.join(root, CONFIG_FILE);
  const missing = noSiteAt(root);
  if (missing) throw new DiagnosticsError([missing], 'configuration');
  let raw: unknown;
  let module: ConfigModule;
  try {
    ({ exported: raw, module } = await importConfigModule(file, configCacheDir(root), options.bundles ?? null));
  } catch (error) {
    throwIfCacheUnusable(error, root);
    const disk = diskFailure(error);
    const diagnostics = esbuildProblems(error, { root, file: CONFIG_FILE })?.map((p) => diagnostic('config/syntax', p)) ?? [
      diagnostic('config/load', {
        file: CONFIG_FILE,
        message: `could not load the site configuration: ${disk ? `its bundle cannot be written to the build cache, ${disk.path}: ${disk.cause}` : messageOf(error)}`,
        hint: disk ? 'free some space or make the cache folder (.ir-site/cache) writable' : loadHint(error),
      }),
    ];
    throw new DiagnosticsError(diagnostics, 'configuration');
  }

  let parsed: ReturnType<typeof siteConfigSchema.safeParse>;
  try {
    parsed = siteConfigSchema.safeParse(raw);
  } catch (error) {
    // A getter of the exported object that throws: the configuration's code failed, not its shape.
    throw new DiagnosticsError([diagnostic('config/load', { file: CONFIG_FILE, message: `reading the site configuration failed: ${messageOf(error)}`, hint: loadHint(error) })], 'configuration');
  }
  if (!parsed.success) {
    const source = await readFile(file, 'utf8').catch(() => '');
    throw new DiagnosticsError(
      parsed.error.issues.flatMap((issue) =>
        issue.code === 'unrecognized_keys'
          ? unknownKeyDiagnostics(siteConfigSchema, issue, CONFIG_FILE, source)
          : [diagnostic('config/invalid', { file: CONFIG_FILE, line: configPathLine(source, issue.path), field: issue.path.join('.') || undefined, message: issue.message })],
      ),
      'configuration',
    );
  }

  const localesDir = path.resolve(root, parsed.data.paths.locales);
  const available = new Set(
    (await readdir(localesDir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)),
  );
  const resolved = resolveConfig(parsed.data, {
    root,
    configFile: CONFIG_FILE,
    identity: options.identity,
    outDir: options.outDir,
    availableLocales: available,
    module,
  });
  if (Array.isArray(resolved)) throw new DiagnosticsError(resolved, 'configuration');
  return resolved;
}
