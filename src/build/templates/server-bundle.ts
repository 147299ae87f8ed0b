// Loads the site's templates for server rendering: esbuild bundles a registry of
// templates/pages/<id>.tsx into one ESM file in the cache, with React left external but pinned to the
// copy ir-site itself resolves, so templates and react-dom/server share one React.
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { metafileInputs, type BundleCache } from '../../incremental/bundle-cache.js';
import { serverBundleKey } from '../../incremental/keys.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { diagnostic, DiagnosticsError, type Diagnostic } from '../../errors/diagnostic.js';
import { esbuildProblems } from '../../errors/esbuild.js';
import { messageOf } from '../../errors/thrown.js';
import { intactModuleBundle, writeModuleBundle } from '../../files/module-bundle.js';
import type { TemplateRegistry } from '../render/context.js';
import { PACKAGE_ROOT } from '../../package-root.js';
import { irSitePackage } from './ir-site-package.js';
import { TEMPLATE_IDS } from '../../shared/template-ids.js';
import { serverRegistrySource, templateFile } from './template-files.js';


/** Packages the server renderer shares with the templates: one React, so hooks and context work across both. */
const SHARED_PACKAGE = /^(react|react-dom)(\/|$)/;

/**
 * React is left out of the bundle and pinned to the copy ir-site itself resolves (react-dom/server
 * must render the templates' elements with its own React). The files it resolves to are noted in
 * `resolved`: the bundle names them, so they are among what it depends on. Other packages are
 * bundled (resolved from ir-site's dependencies when the templates' folder has none): the
 * search page's query-string parser alone is dozens of CommonJS files for Node to load on every build.
 */
function pinPackages(resolved: Set<string>): Plugin {
  return {
    name: 'ir-site-pin-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        if (!SHARED_PACKAGE.test(args.path)) return undefined;
        try {
          const url = import.meta.resolve(args.path);
          if (url.startsWith('file:')) resolved.add(fileURLToPath(url));
          return { path: url, external: true };
        } catch {
          return undefined; // let esbuild report it with the importing file and line
        }
      });
    },
  };
}

/** The server bundle: its file (render workers import it), its content hash (part of the build hash), and whether the build cache had it (nothing esbuild read for it changed). */
export interface ServerBundle {
  file: string;
  hash: string;
  cached: boolean;
}

/** The templates bundled into one module in the cache folder: esbuild's work, or the build cache's when nothing it read changed. */
async function bundleForServer(config: ResolvedConfig, cache: BundleCache | null): Promise<ServerBundle> {
  const source = serverRegistrySource(config.dirs.templates);
  const key = serverBundleKey(source, config.root, config.dirs.templates, PACKAGE_ROOT);
  const known = cache?.recall<Omit<ServerBundle, 'cached'>>('server', key);
  if (known && intactModuleBundle(known.file, known.hash)) return { ...known, cached: true };
  const since = Date.now();
  const stdin = 'ir-site-server-registry.tsx';
  const packages = new Set<string>();
  let code: string;
  let inputs: Record<string, unknown>;
  try {
    const { build: esbuild } = await import('esbuild');
    const result = await esbuild({
      stdin: { contents: source, resolveDir: config.dirs.templates, loader: 'tsx', sourcefile: stdin },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      jsx: 'automatic',
      write: false,
      metafile: true,
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [irSitePackage(), pinPackages(packages)],
      // Templates outside this repository bundle their packages from ir-site's dependencies too.
      nodePaths: [path.join(PACKAGE_ROOT, 'node_modules')],
      // esbuild names files in its output relative to this (the current folder by default):
      // the site's root keeps the bundle, its hash and every page key the same wherever the build runs from.
      absWorkingDir: config.root,
    });
    code = result.outputFiles[0]!.text;
    inputs = result.metafile.inputs;
  } catch (error) {
    const problems = esbuildProblems(error, { root: config.root, file: 'templates' });
    if (!problems) throw error;
    throw new DiagnosticsError(problems.map(templateProblem), 'templates');
  }
  const { file, hash } = await writeModuleBundle(config.dirs.cache, 'templates', code, 20);
  cache?.remember('server', key, since, [...metafileInputs(inputs, config.root, path.join(config.dirs.templates, stdin)), ...packages], { file, hash });
  return { file, hash, cached: false };
}

/** The templates bundled for the server, not yet loaded: a build that renders nothing needs only their hash. */
export async function bundleTemplatesForServer(config: ResolvedConfig, cache: BundleCache | null = null): Promise<ServerBundle> {
  const missing = [];
  for (const id of TEMPLATE_IDS) {
    if (!(await access(templateFile(config.dirs.templates, id)).then(() => true, () => false))) missing.push(id);
  }
  if (missing.length > 0) {
    const rel = path.relative(config.root, path.join(config.dirs.templates, 'pages')).split(path.sep).join('/');
    throw new DiagnosticsError(
      missing.map((id) =>
        diagnostic('templates/missing', {
          file: `${rel}/${id}.tsx`,
          message: `the "${id}" template is missing`,
          hint: `every template id has a file ${rel}/<id>.tsx whose default export is the page component`,
        }),
      ),
      'templates',
    );
  }
  return bundleForServer(config, cache);
}

/**
 * The source file whose code in the bundle threw, from the stack's line in the bundle and the
 * `// templates/pages/x.tsx` comment esbuild writes before each module's code; null when unknown.
 */
async function sourceOfThrow(error: unknown, bundle: string): Promise<string | null> {
  const name = path.basename(bundle).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const at = error instanceof Error ? new RegExp(`${name}:(\\d+):\\d+`).exec(error.stack ?? '') : null;
  if (!at) return null;
  const lines = (await readFile(bundle, 'utf8').catch(() => '')).split('\n').slice(0, Number(at[1]));
  for (let i = lines.length - 1; i >= 0; i--) {
    const source = /^\/\/ (\S+\.[cm]?[jt]sx?)$/.exec(lines[i]!);
    if (source) return source[1]!;
  }
  return null;
}

/**
 * An esbuild problem as the person who must fix it reads it: a template without a default
 * export is reported by esbuild at the registry this module writes, a file they never see.
 */
function templateProblem(problem: NonNullable<ReturnType<typeof esbuildProblems>>[number]): Diagnostic {
  const template = /No matching export in "([^"]+)" for import "default"/.exec(problem.message)?.[1];
  if (!template) return diagnostic('templates/compile', problem);
  return diagnostic('templates/missing', { file: template, message: `${template} has no default export: the page component must be it`, hint: 'export default function MyTemplate(props) { ... }' });
}

/** The server bundle's templates, each checked to be a component (importing it loads React). */
export async function importTemplates({ file }: ServerBundle): Promise<TemplateRegistry> {
  let mod: { templates: Record<string, unknown> };
  try {
    mod = (await import(pathToFileURL(file).href)) as typeof mod;
  } catch (error) {
    const message = `the templates threw as they were loaded: ${messageOf(error)}`;
    throw new DiagnosticsError([diagnostic('templates/load', { file: await sourceOfThrow(error, file) ?? 'templates', message })], 'templates');
  }
  const notComponents = TEMPLATE_IDS.filter((id) => typeof mod.templates[id] !== 'function');
  if (notComponents.length > 0) {
    throw new DiagnosticsError(
      notComponents.map((id) =>
        diagnostic('templates/missing', {
          file: `templates/pages/${id}.tsx`,
          message: `the default export of the "${id}" template is not a React component`,
          hint: 'export default function MyTemplate(props) { ... }',
        }),
      ),
      'templates',
    );
  }
  return mod.templates as TemplateRegistry;
}
