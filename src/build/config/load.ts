// Reads site.config.ts: bundles it with esbuild (so it may be TypeScript and import
// `defineConfig` from 'ir-site'), imports the result, validates it with zod.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build as esbuild, type Plugin } from 'esbuild';
import { diagnostic, DiagnosticsError } from '../../errors/diagnostic.js';
import { esbuildProblems } from '../../errors/esbuild.js';
import { writeModuleBundle } from '../../files/module-bundle.js';
import { resolveConfig, type ResolvedConfig } from './resolve.js';
import { siteConfigSchema } from './schema.js';
import { unknownKeyDiagnostics } from './unknown-keys.js';

export const CONFIG_FILE = 'site.config.ts';

export interface LoadConfigOptions {
  root: string;
  identity?: string;
  outDir?: string;
}

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

async function importConfigModule(file: string, cacheDir: string): Promise<{ exported: unknown; module: { path: string; hash: string } }> {
  const result = await esbuild({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    packages: 'external',
    plugins: [irSiteVirtual],
    // Paths in the bundle's comments are relative to this: the same bundle from any current folder.
    absWorkingDir: path.dirname(file),
  });
  const { file: out, hash } = await writeModuleBundle(cacheDir, 'site.config', result.outputFiles[0]!.text, 16);
  const mod = (await import(pathToFileURL(out).href)) as { default?: unknown };
  return { exported: mod.default, module: { path: out, hash } };
}

export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  const root = path.resolve(options.root);
  const file = path.join(root, CONFIG_FILE);
  let raw: unknown;
  let module: { path: string; hash: string };
  try {
    ({ exported: raw, module } = await importConfigModule(file, path.join(root, '.ir-site', 'cache')));
  } catch (error) {
    const diagnostics = esbuildProblems(error, { root, file: CONFIG_FILE })?.map((p) => diagnostic('config/syntax', p)) ?? [
      diagnostic('config/load', { file: CONFIG_FILE, message: `could not load the site configuration: ${(error as Error).message}` }),
    ];
    throw new DiagnosticsError(diagnostics, 'configuration');
  }

  const parsed = siteConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const source = await readFile(file, 'utf8').catch(() => '');
    throw new DiagnosticsError(
      parsed.error.issues.flatMap((issue) =>
        issue.code === 'unrecognized_keys'
          ? unknownKeyDiagnostics(siteConfigSchema, issue, CONFIG_FILE, source)
          : [diagnostic('config/invalid', { file: CONFIG_FILE, field: issue.path.join('.') || undefined, message: issue.message })],
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
