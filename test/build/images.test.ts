// Images in the built site: processed portraits and markdown images with their markup,
// the cache between builds, and image content errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildFailure, buildToMemory, findDiagnostic, fixture } from '../helpers.js';

const { result, out } = await buildToMemory(fixture('minimal'));
const html = (p: string) => out.text(`${p.slice(1)}index.html`);

test('a markdown image becomes a processed, responsive image with its placeholder and reserved box', () => {
  const page = html('/article/press-one/');
  const box = /<span class="ir-image ir-image--constrained ir-image--eager" style="max-width:760px;aspect-ratio:760 \/ 380">.*?<\/span>(?!<\/noscript>)/s.exec(page)?.[0];
  assert.ok(box, 'the image box reserves its size');
  assert.match(box, /<img class="ir-image__placeholder" src="data:image\/webp;base64,[^"]+" alt="" aria-hidden="true"/);
  assert.match(box, /<source type="image\/avif" srcSet="\/static\/images\/chart-190\.[0-9a-f]{10}\.avif 190w, [^"]*760w, [^"]*1200w"/);
  assert.match(box, /<source type="image\/webp" srcSet="[^"]*\.webp 190w/);
  assert.match(box, /<img class="ir-image__main" src="\/static\/images\/chart-760\.[0-9a-f]{10}\.png" srcSet="[^"]+" sizes="\(min-width: 760px\) 760px, 100vw" width="760" height="380" alt="Returns chart" loading="eager" decoding="sync"/);
  // The first image of a page is its likely largest paint: fetched first, shown without the fade.
  assert.match(box, /<img class="ir-image__main"[^>]*fetchPriority="high"/);
  assert.match(box, /<noscript>/);
  for (const src of box.match(/\/static\/images\/[^\s",]+/g)!) assert.ok(out.files.has(src.slice(1)), src);
});

test('portraits: the first image of a page is eager, the others lazy', () => {
  const team = html('/your-team/');
  const loading = [...team.matchAll(/class="ir-image__main"[^>]*loading="(eager|lazy)"/g)].map((m) => m[1]);
  assert.deepEqual(loading.slice(0, 1), ['eager']);
  // No alt text: the name is the heading beside the portrait (a screen reader would say it twice).
  assert.match(html('/your-team/jdoe/'), /class="ir-image__main"[^>]*alt="" loading="eager"[\s\S]*<h1>jdoe name<\/h1>/);
});

test('the page head marks images loaded, so placeholders fade out', () => {
  assert.match(html('/'), /<script>\(function\(\)\{function m\(e\)\{[^<]*ir-image__main[^<]*data-loaded/);
});

test('a second build processes no image at all', async () => {
  const again = await buildToMemory(fixture('minimal'));
  assert.equal(again.result.images.processed, 0);
  assert.equal(again.result.images.cached, result.images.processed + result.images.cached);
  assert.deepEqual([...again.out.files.keys()].filter((f) => f.startsWith('static/images/')).sort(), [...out.files.keys()].filter((f) => f.startsWith('static/images/')).sort());
});

test('a missing image in a body and a corrupt image file are content errors naming the file', async () => {
  const diagnostics = await buildFailure(fixture('image-errors'));
  const missing = findDiagnostic(diagnostics, { rule: 'content/missing-image' });
  assert.equal(missing.file, 'content/articles/pics/en.md');
  assert.equal(missing.line, 9);
  assert.match(missing.message, /"missing-chart\.png" is not next to this entry/);
  const corrupt = findDiagnostic(diagnostics, { rule: 'content/invalid-image' });
  assert.equal(corrupt.file, 'content/team/jdoe/photo.jpg');
  assert.match(corrupt.message, /cannot be read/);
});

test('the stylesheet fades the placeholder out over 500 ms linear and the image in', () => {
  const css = out.text([...out.files.keys()].find((f) => /^static\/styles\.[0-9a-f]+\.css$/.test(f))!);
  assert.match(css, /\.ir-image__placeholder \{[^}]*transition: opacity 500ms linear;/);
  assert.match(css, /\.ir-image\[data-loaded\] \.ir-image__placeholder \{\s*opacity: 0;/);
  assert.match(css, /\.ir-image__main \{[^}]*opacity: 0;[^}]*transition: opacity 500ms linear;/);
});

test('identical images next to two entries are processed once, and both pages use them', async () => {
  const { cp, mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const { processImages } = await import('../../src/build/images/process.js');
  const cache = await mkdtemp(path.join(tmpdir(), 'ir-images-twins-'));
  const source = path.join(fixture('minimal'), 'content/articles/press-one/chart.png');
  const twin = path.join(cache, 'twin.png');
  await cp(source, twin);
  const assets = [
    { dir: 'content/articles/a', name: 'chart.png', absPath: source, size: 0 },
    { dir: 'content/articles/b', name: 'chart.png', absPath: twin, size: 0 },
  ];
  const stage = await processImages(assets, path.join(cache, 'cache'), fixture('minimal'));
  assert.deepEqual(stage.diagnostics, []);
  assert.equal(stage.processed, 1);
  assert.deepEqual(stage.images.get(source), stage.images.get(twin));
  await rm(cache, { recursive: true, force: true });
});

test('the processed images are the same bytes whatever the process\'s malloc settings (the CLI sets MALLOC_ARENA_MAX=2, a library build may not)', async () => {
  const { execFileSync } = await import('node:child_process');
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-images-malloc-'));
  // Each run in a process of its own, with its own empty image cache; the files it makes are compared.
  const script = `
    const { processImages } = await import(${JSON.stringify(new URL('../../src/build/images/process.ts', import.meta.url).href)});
    const source = ${JSON.stringify(path.join(fixture('minimal'), 'content/articles/press-one/chart.png'))};
    const stage = await processImages([{ dir: 'content/articles/a', name: 'chart.png', absPath: source, size: 0 }], process.argv[1], '/');
    if (stage.diagnostics.length > 0) throw new Error(JSON.stringify(stage.diagnostics));
  `;
  const run = (name: string, env: Record<string, string | undefined>) => {
    const cache = path.join(dir, name);
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, cache], { env: { ...process.env, ...env }, encoding: 'utf8' });
    return cache;
  };
  const { readdir, readFile } = await import('node:fs/promises');
  const files = async (cache: string) => {
    const [entry] = await readdir(path.join(cache, 'images'));
    const names = (await readdir(path.join(cache, 'images', entry!))).filter((n) => n !== 'meta.bin').sort();
    return Promise.all(names.map(async (n) => [n, (await readFile(path.join(cache, 'images', entry!, n))).toString('base64')] as const));
  };
  const two = await files(run('two-arenas', { MALLOC_ARENA_MAX: '2' }));
  const many = await files(run('default-arenas', { MALLOC_ARENA_MAX: undefined }));
  assert.ok(two.some(([n]) => n.endsWith('.avif')), 'AVIF variants were made');
  assert.deepEqual(many.map(([n]) => n), two.map(([n]) => n));
  assert.deepEqual(many.filter(([, bytes], i) => two[i]![1] !== bytes).map(([n]) => n), [], 'every variant has the same bytes');
  await rm(dir, { recursive: true, force: true });
});
