// Loads the site's templates for server rendering: esbuild bundles a registry of
// templates/pages/<id>.tsx into one ESM file in the cache, with every package left external but pinned to the
// copy ir-site itself resolves, so templates and react-dom/server share one React.
import { createHash } from 'node:crypto';
import { access, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build as esbuild, type Plugin } from 'esbuild';
import type { ResolvedConfig } from '../config/resolve.js';
import { DiagnosticsError } from '../errors/diagnostic.js';
import { esbuildDiagnostics } from '../errors/esbuild.js';
import type { TemplateRegistry } from '../render/context.js';
import { serverRegistrySource, TEMPLATE_IDS, templateFile } from './template-files.js';


/** Bare imports (`react`, `hast-util-to-jsx-runtime`) resolve from ir-site's own dependencies. */
const pinPackages: Plugin = {
  name: 'ir-site-pin-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      try {
        return { path: import.meta.resolve(args.path), external: true };
      } catch {
        return undefined; // let esbuild report it with the importing file and line
      }
    });
  },
};

/** Earlier bundles are dead weight once a new one is written (dev writes one per template edit). */
async function removeStaleBundles(dir: string, keep: string): Promise<void> {
  const stale = (await readdir(dir)).filter((f) => /^templates\.[0-9a-f]+\.mjs$/.test(f) && f !== keep);
  await Promise.all(stale.map((f) => rm(path.join(dir, f), { force: true })));
}

export interface LoadedTemplates {
  registry: TemplateRegistry;
  /** Content hash of the bundle: part of the build hash. */
  hash: string;
  /** The bundle's file, for render workers to import. */
  module: string;
}

export async function loadTemplates(config: ResolvedConfig): Promise<LoadedTemplates> {
  const missing = [];
  for (const id of TEMPLATE_IDS) {
    if (!(await access(templateFile(config.dirs.templates, id)).then(() => true, () => false))) missing.push(id);
  }
  if (missing.length > 0) {
    const rel = path.relative(config.root, path.join(config.dirs.templates, 'pages')).split(path.sep).join('/');
    throw new DiagnosticsError(
      missing.map((id) => ({
        severity: 'error' as const,
        rule: 'templates/missing',
        file: `${rel}/${id}.tsx`,
        message: `the "${id}" template is missing`,
        hint: `every template id has a file ${rel}/<id>.tsx whose default export is the page component`,
      })),
      'templates',
    );
  }
  const rel = 'templates';
  let code: string;
  try {
    const result = await esbuild({
      stdin: { contents: serverRegistrySource(config.dirs.templates), resolveDir: config.dirs.templates, loader: 'tsx', sourcefile: 'ir-site-server-registry.tsx' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      jsx: 'automatic',
      write: false,
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [pinPackages],
      // esbuild names files in its output relative to this (the current folder by default):
      // the site's root keeps the bundle, its hash and every page key the same wherever the build runs from.
      absWorkingDir: config.root,
    });
    code = result.outputFiles[0]!.text;
  } catch (error) {
    const diagnostics = esbuildDiagnostics(error, { root: config.root, rule: 'templates/compile', file: rel });
    if (!diagnostics) throw error;
    throw new DiagnosticsError(diagnostics, 'templates');
  }
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 20);
  await mkdir(config.dirs.cache, { recursive: true });
  const file = path.join(config.dirs.cache, `templates.${hash}.mjs`);
  await writeFile(file, code);
  await removeStaleBundles(config.dirs.cache, path.basename(file));
  const mod = (await import(pathToFileURL(file).href)) as { templates: Record<string, unknown> };
  const notComponents = TEMPLATE_IDS.filter((id) => typeof mod.templates[id] !== 'function');
  if (notComponents.length > 0) {
    throw new DiagnosticsError(
      notComponents.map((id) => ({
        severity: 'error' as const,
        rule: 'templates/missing',
        file: `templates/pages/${id}.tsx`,
        message: `the default export of the "${id}" template is not a React component`,
        hint: 'export default function MyTemplate(props) { ... }',
      })),
      'templates',
    );
  }
  return { registry: mod.templates as TemplateRegistry, hash, module: file };
}
