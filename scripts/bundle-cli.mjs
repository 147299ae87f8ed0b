// Bundles the compiled CLI (dist/src, from tsc) into a few ES modules in dist/cli, which
// bin/ir-site.js runs. Node's ESM loader costs about 0.3 ms per module file (resolve, read,
// compile, link): the ~400 files a build loaded (zod alone is 99, yaml 73) took ~0.1 s of
// every command before any work began. Each command's modules stay in their own chunk,
// loaded when the command runs, as the CLI's dynamic imports already arrange.
//
// Left outside the bundle, loaded from node_modules as before:
//   - React: the templates' server bundle imports ir-site's copy (build/templates/server-bundle.ts), and
//     react-dom/server must render their elements with that same copy;
//   - native or spawning packages (sharp, esbuild) and the large, rarely used ones
//     (workbox-build for the offline worker, chokidar for dev, jsdom and DOMPurify for SVG files).
//
//   node scripts/bundle-cli.mjs       (part of `npm run prepare` and `npm test`)
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'cli');

export const EXTERNAL = ['react', 'react-dom', 'sharp', 'esbuild', 'workbox-build', 'chokidar', 'jsdom', 'dompurify'];

/**
 * gray-matter loads js-yaml (and js-yaml, esprima) for its default YAML engine. ir-site gives it
 * its own engine for every parse (`yaml`, src/build/content/frontmatter.ts), so that code never
 * runs; loading it cost ~20 ms of every build that parses a file. In its place, a module whose
 * functions say so if they are ever called.
 */
const grayMatterWithoutJsYaml = {
  name: 'gray-matter-without-js-yaml',
  setup(build) {
    build.onResolve({ filter: /^js-yaml$/ }, (args) => (/[\\/]gray-matter[\\/]/.test(args.importer) ? { path: 'js-yaml', namespace: 'unused-engine' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'unused-engine' }, () => ({
      loader: 'js',
      contents: `const unused = () => { throw new Error("gray-matter's js-yaml engine is not bundled: ir-site parses front matter with its own YAML engine"); };
module.exports = { safeLoad: unused, safeDump: unused };`,
    }));
  },
};

await rm(OUT, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  // The workers are started by file (build/render-pool.ts and incremental/output-states.ts look for
  // their worker next to themselves), so each is an entry of its own; every chunk lands in one
  // folder for the same reason.
  entryPoints: ['dist/src/commands/cli/index.js', 'dist/src/build/render-worker.js', 'dist/src/incremental/output-stats-worker.js'],
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Every package name and its subpaths (`react-dom/server`).
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  // CommonJS packages in an ES module still call `require` (for Node's own modules).
  banner: { js: "import { createRequire as __irSiteCreateRequire } from 'node:module';\nconst require = __irSiteCreateRequire(import.meta.url);" },
  sourcemap: 'linked',
  legalComments: 'none',
  plugins: [grayMatterWithoutJsYaml],
  logLevel: 'warning',
});
