// The bundle cache (src/incremental/bundle-cache.ts) with real esbuild, on a small templates folder:
// a bundle is reused while every file esbuild read is as it was, and bundled again when a
// file changes (even keeping its size), when a new file shadows an import, or when its
// inputs were too recently modified to be sure of. And what the server bundle leaves out:
// React alone, shared with ir-site's renderer.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { BundleCache, metafileInputs } from '../../src/incremental/bundle-cache.js';
import type { ResolvedConfig } from '../../src/build/config/resolve.js';
import { bundleClient } from '../../src/build/templates/client-bundle.js';
import { TEMPLATE_IDS } from '../../src/shared/template-ids.js';
import { bundleTemplatesForServer, importTemplates } from '../../src/build/templates/server-bundle.js';
import { PACKAGE_ROOT } from '../../src/package-root.js';
import { diskMemo } from '../../src/incremental/memo.js';

const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const HOUR = 3600_000;

/** Every file and folder under `dir` (and `dir`) dated `msAgo` back. */
async function ageAll(dir: string, msAgo = HOUR): Promise<void> {
  const when = new Date(Date.now() - msAgo);
  for (const entry of await readdir(dir, { recursive: true })) await utimes(path.join(dir, entry), when, when);
  await utimes(dir, when, when);
}

/** A site whose every template renders the `label` of templates/lib/label.tsx. */
async function site(): Promise<ResolvedConfig> {
  const root = await mkdtemp(path.join(tmpdir(), 'ir-bundle-cache-'));
  dirs.push(root);
  const templates = path.join(root, 'templates');
  await mkdir(path.join(templates, 'pages'), { recursive: true });
  await mkdir(path.join(templates, 'lib'));
  await writeFile(path.join(templates, 'lib', 'label.tsx'), "export const label = 'one';\n");
  for (const id of TEMPLATE_IDS) {
    await writeFile(path.join(templates, 'pages', `${id}.tsx`), `import { label } from '../lib/label';\nexport default function Page() { return <p>{label}</p>; }\n`);
  }
  await ageAll(root);
  return { root, dirs: { templates, cache: path.join(root, '.ir-site', 'cache') } } as unknown as ResolvedConfig;
}

/** What the server bundle's templates render: the label they were bundled with. */
async function serverLabel(config: ResolvedConfig, cache: BundleCache) {
  const loaded = await bundleTemplatesForServer(config, cache);
  const element = ((await importTemplates(loaded)) as unknown as Record<string, () => { props: { children: string } }>).home!();
  return { label: element.props.children, cached: loaded.cached, module: loaded.file };
}

async function reopen(config: ResolvedConfig, previous?: BundleCache): Promise<BundleCache> {
  await previous?.save();
  return BundleCache.open(diskMemo(config.dirs.cache, 'fingerprint'));
}

test('server templates: reused while nothing esbuild read changed; bundled again after an edit of the same size, or when an input is gone', async () => {
  const config = await site();
  let cache = await reopen(config);
  const first = await serverLabel(config, cache);
  assert.deepEqual([first.label, first.cached], ['one', false]);

  cache = await reopen(config, cache);
  const second = await serverLabel(config, cache);
  assert.deepEqual([second.label, second.cached, second.module], ['one', true, first.module]);

  // Same size, other bytes, and dated back: only the time tells.
  await writeFile(path.join(config.dirs.templates, 'lib', 'label.tsx'), "export const label = 'two';\n");
  await ageAll(config.root, HOUR / 2);
  cache = await reopen(config, cache);
  const edited = await serverLabel(config, cache);
  assert.deepEqual([edited.label, edited.cached], ['two', false]);
  assert.notEqual(edited.module, first.module);

  cache = await reopen(config, cache);
  assert.equal((await serverLabel(config, cache)).cached, true);

  // An input gone: `../lib/label` now resolves to a folder's index.
  await rm(path.join(config.dirs.templates, 'lib', 'label.tsx'));
  await mkdir(path.join(config.dirs.templates, 'lib', 'label'));
  await writeFile(path.join(config.dirs.templates, 'lib', 'label', 'index.tsx'), "export const label = 'folder';\n");
  await ageAll(config.root, HOUR / 4);
  cache = await reopen(config, cache);
  assert.deepEqual(await serverLabel(config, cache).then((r) => [r.label, r.cached]), ['folder', false]);
});

test('server templates: a file added next to an input that shadows it (label.tsx before label.ts) is seen', async () => {
  const config = await site();
  const lib = path.join(config.dirs.templates, 'lib');
  await rm(path.join(lib, 'label.tsx'));
  await writeFile(path.join(lib, 'label.ts'), "export const label = 'ts';\n");
  await ageAll(config.root);
  let cache = await reopen(config);
  assert.equal((await serverLabel(config, cache)).label, 'ts');
  cache = await reopen(config, cache);
  assert.equal((await serverLabel(config, cache)).cached, true);

  // esbuild tries .tsx before .ts: the new file wins, though label.ts is untouched.
  await writeFile(path.join(lib, 'label.tsx'), "export const label = 'tsx';\n");
  const old = new Date(Date.now() - HOUR);
  await utimes(path.join(lib, 'label.tsx'), old, old);
  cache = await reopen(config, cache);
  assert.deepEqual(await serverLabel(config, cache).then((r) => [r.label, r.cached]), ['tsx', false]);
});

test('a folder whose time changed but whose names did not (a build staging its output next to site.config.ts) keeps the bundle', async () => {
  const config = await site();
  await ageAll(config.root);
  let cache = await reopen(config);
  assert.equal((await serverLabel(config, cache)).cached, false);
  // A file made and removed next to an input, just now: the folder's time moves, its names do not.
  const lib = path.join(config.dirs.templates, 'lib');
  const before = (await stat(lib)).mtimeMs;
  await writeFile(path.join(lib, 'public.staging-1'), '');
  await rm(path.join(lib, 'public.staging-1'));
  assert.notEqual((await stat(lib)).mtimeMs, before);
  cache = await reopen(config, cache);
  assert.equal((await serverLabel(config, cache)).cached, true);
});

test('inputs modified just before bundling are not trusted: nothing is recorded for them', async () => {
  const config = await site();
  await writeFile(path.join(config.dirs.templates, 'lib', 'label.tsx'), "export const label = 'new';\n");
  let cache = await reopen(config);
  assert.equal((await serverLabel(config, cache)).cached, false);
  cache = await reopen(config, cache);
  assert.equal((await serverLabel(config, cache)).cached, false, 'a racy input was trusted');
});

test('browser bundle: the same files and hash from the cache as from esbuild; bundled again after a template edit', async () => {
  const config = await site();
  let cache = await reopen(config);
  const fresh = await bundleClient(config, cache);
  assert.equal(fresh.cached, false);
  cache = await reopen(config, cache);
  const recalled = await bundleClient(config, cache);
  assert.equal(recalled.cached, true);
  assert.equal(recalled.hash, fresh.hash);
  assert.deepEqual(recalled.assets, fresh.assets);
  assert.deepEqual([...recalled.files].map(([f, b]) => [f, Buffer.from(b).toString('base64')]), [...fresh.files].map(([f, b]) => [f, Buffer.from(b).toString('base64')]));

  await writeFile(path.join(config.dirs.templates, 'pages', 'home.tsx'), "export default function Home() { return <h1>home, edited</h1>; }\n");
  await ageAll(config.root, HOUR / 2);
  cache = await reopen(config, cache);
  const edited = await bundleClient(config, cache);
  assert.equal(edited.cached, false);
  assert.notEqual(edited.hash, fresh.hash);
  // A cache made by other code (another fingerprint) is not used.
  await cache.save();
  const other = await BundleCache.open(diskMemo(config.dirs.cache, 'another fingerprint'));
  assert.equal((await bundleClient(config, other)).cached, false);
});

test('metafileInputs: paths against the working folder; standard input and namespaced inputs left out', () => {
  const inputs = { 'templates/a.tsx': {}, '../shared/b.ts': {}, '<stdin>': {}, 'templates/registry.tsx': {}, '(disabled):/x/node_modules/y/util.inspect': {}, 'virtual:thing': {} };
  assert.deepEqual(metafileInputs(inputs, '/site/root', '/site/root/templates/registry.tsx'), ['/site/root/templates/a.tsx', '/site/shared/b.ts']);
});

test('server templates: React is left out and shared with ir-site\'s renderer (hooks work); other packages are bundled in', async () => {
  const config = await site();
  await writeFile(
    path.join(config.dirs.templates, 'pages', 'home.tsx'),
    "import { useState } from 'react';\nimport GithubSlugger from 'github-slugger';\nexport default function Home() { const [n] = useState(2); return <p>{new GithubSlugger().slug('Hello World')} {n}</p>; }\n",
  );
  const loaded = await bundleTemplatesForServer(config, null);
  const code = await readFile(loaded.file, 'utf8');
  const imported = [...code.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]!);
  assert.ok(imported.length > 0);
  assert.deepEqual(imported.filter((url) => !/\/node_modules\/react(-dom)?\//.test(url)), [], 'only React is imported');
  assert.ok(imported.every((url) => url.startsWith(pathToFileURL(PACKAGE_ROOT).href)), 'pinned to ir-site\'s own copy');
  // A hook only works when the template's React is the renderer's.
  const html = renderToString(createElement((await importTemplates(loaded)).home as () => null));
  assert.equal(html, '<p>hello-world<!-- --> <!-- -->2</p>');
});
