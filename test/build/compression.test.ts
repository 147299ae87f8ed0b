// A disk build writes `.br` and `.gz` next to every compressible file (HTML, JS, CSS, JSON,
// SVG, XML, web manifests), each decoding to that file's exact bytes; `compress: false` writes
// none; a warm build keeps the copies it made as they are; an edit remakes exactly the copies
// of the files it changes; a copy lost by hand is made again.
import assert from 'node:assert/strict';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { build, type BuildOptions } from '../../src/build/index.js';
import { isCompressible, MIN_COMPRESS_SIZE } from '../../src/build/emit/compression.js';
import { writableFixture } from '../helpers.js';

let root: string;
let out: string;
const run = (options: Partial<BuildOptions> = {}) => build({ root, reporter: {}, ...options });

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
}

const isCopy = (rel: string) => /\.(br|gz)$/.test(rel);

/** Every original file with its bytes, its copies' bytes, and the copies' identity (time and inode). */
async function snapshot(dir: string) {
  const files = new Map<string, { bytes: Buffer; mtimeMs: number; ino: number }>();
  for (const rel of await listFiles(dir)) {
    const info = await stat(path.join(dir, rel));
    files.set(rel, { bytes: await readFile(path.join(dir, rel)), mtimeMs: info.mtimeMs, ino: info.ino });
  }
  return files;
}

/** Each copy decodes to its original's bytes; every compressible original of 1 KiB or more has both copies, others none. */
async function assertCopiesMatch(dir: string): Promise<{ compressed: string[] }> {
  const files = await snapshot(dir);
  const compressed: string[] = [];
  for (const [rel, file] of files) {
    if (isCopy(rel)) {
      const original = files.get(rel.slice(0, -3));
      assert.ok(original, `${rel} has no original next to it`);
      const decoded = rel.endsWith('.br') ? zlib.brotliDecompressSync(file.bytes) : zlib.gunzipSync(file.bytes);
      assert.ok(decoded.equals(original.bytes), `${rel} does not decode to ${rel.slice(0, -3)}`);
      assert.ok(file.bytes.length < original.bytes.length, `${rel} is not smaller than its original`);
      continue;
    }
    const wanted = isCompressible(rel) && file.bytes.length >= MIN_COMPRESS_SIZE;
    assert.equal(files.has(`${rel}.br`), wanted, `${rel} (${file.bytes.length} bytes): .br ${wanted ? 'missing' : 'unexpected'}`);
    assert.equal(files.has(`${rel}.gz`), wanted, `${rel} (${file.bytes.length} bytes): .gz ${wanted ? 'missing' : 'unexpected'}`);
    if (wanted) compressed.push(rel);
  }
  return { compressed };
}

before(async () => {
  root = await writableFixture('minimal', `compression-${process.pid}`);
  out = path.join(root, 'public');
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

test('a build writes a brotli and a gzip copy of every compressible file, each decoding to its bytes', async () => {
  await run({ workers: 0, cache: false });
  const madeHere = await snapshot(out);
  const result = await run({ workers: 2 });
  assert.ok(result.render.writtenByWorkers > 0, 'the render workers wrote pages (and their copies) themselves');
  // The workers compress the pages they write; the bytes are those the main thread makes.
  const madeByWorkers = await snapshot(out);
  assert.deepEqual([...madeByWorkers.keys()], [...madeHere.keys()]);
  for (const [rel, file] of madeByWorkers) assert.ok(file.bytes.equals(madeHere.get(rel)!.bytes), `${rel} differs when written by a render worker`);
  const { compressed } = await assertCopiesMatch(out);
  const kinds = new Set(compressed.map((rel) => (rel.startsWith('page-data/') ? 'page-data' : path.extname(rel))));
  // Pages (some written by the render workers, some by the main thread), page data, the
  // runtime and stylesheet, the search index, the sitemap, the offline worker (the web
  // manifests are under 1 KiB here: assertCopiesMatch checks that they have none).
  for (const kind of ['.html', 'page-data', '.js', '.css', '.json', '.xml']) assert.ok(kinds.has(kind), `no ${kind} file was compressed: ${[...kinds].join(' ')}`);
  assert.ok(compressed.includes('sw.js'));
  assert.ok(compressed.includes('index.html'));
  // Images, PDFs and the host files are left alone.
  const files = await listFiles(out);
  for (const rel of files.filter(isCopy)) assert.ok(!/\.(png|jpe?g|webp|avif|pdf|ico)\.(br|gz)$/.test(rel) && !/^(_headers|_redirects|nginx-)/.test(rel), rel);
  // The offline worker precaches the originals only.
  const worker = await readFile(path.join(out, 'sw.js'), 'utf8');
  assert.doesNotMatch(worker, /\.(br|gz)["']/);
});

test('a warm build keeps every copy as it is; an edit remakes the copies of exactly the files it changes', async () => {
  const first = await snapshot(out);
  const warmResult = await run();
  // Nothing compressed again (with nothing changed, the build does not even go through the sinks).
  assert.equal(warmResult.compressed.made, 0);
  const warm = await snapshot(out);
  for (const [rel, file] of first) {
    const now = warm.get(rel);
    assert.ok(now, `${rel} is gone`);
    assert.ok(now.bytes.equals(file.bytes) && now.mtimeMs === file.mtimeMs && now.ino === file.ino, `${rel} was written again`);
  }
  assert.equal(warm.size, first.size);

  const article = path.join(root, 'content', 'articles', 'commentary-q2-2025', 'en.md');
  await writeFile(article, `${await readFile(article, 'utf8')}\nA sentence added to the body.\n`);
  const editResult = await run();
  const edited = await snapshot(out);
  await assertCopiesMatch(out);
  const changedOriginals = [...edited].filter(([rel, f]) => !isCopy(rel) && !first.get(rel)?.bytes.equals(f.bytes)).map(([rel]) => rel);
  assert.ok(changedOriginals.includes('article/commentary-Q2-2025/index.html'), changedOriginals.join(' '));
  for (const [rel, file] of edited) {
    if (!isCopy(rel)) continue;
    const was = first.get(rel);
    const originalChanged = changedOriginals.includes(rel.slice(0, -3));
    const rewritten = !was || was.mtimeMs !== file.mtimeMs || was.ino !== file.ino;
    assert.equal(rewritten, originalChanged, `${rel}: ${rewritten ? 'written again though its original did not change' : 'kept though its original changed'}`);
  }
  // The copies of unchanged bytes are claimed from the previous build.
  assert.ok(editResult.compressed.kept > 20, `kept the copies of ${editResult.compressed.kept} files`);
  // Only the changed files were compressed (those under 1 KiB too, to learn that they get no copies), not the rest again.
  const changedCompressible = changedOriginals.filter(isCompressible);
  assert.equal(editResult.compressed.made, changedCompressible.length, `compressed ${editResult.compressed.made} files for ${changedCompressible.length} changed ones: ${changedCompressible.join(' ')}`);
});

test('a copy deleted or changed by hand is made again by the next build', async () => {
  await rm(path.join(out, 'index.html.br'));
  await writeFile(path.join(out, 'fr', 'index.html.gz'), 'not gzip');
  await run();
  await assertCopiesMatch(out);
});

test('compress: false writes no copies, and removes those of an earlier build', async () => {
  const config = path.join(root, 'site.config.ts');
  const text = await readFile(config, 'utf8');
  await writeFile(config, text.replace('locales: [', 'compress: false,\n  locales: ['));
  try {
    await run();
    const files = await listFiles(out);
    assert.deepEqual(files.filter(isCopy), []);
    assert.ok(files.includes('index.html'));
    // And without the cache (the output folder swapped in whole).
    await run({ cache: false });
    assert.deepEqual((await listFiles(out)).filter(isCopy), []);
  } finally {
    await writeFile(config, text);
  }
  await run({ cache: false });
  await assertCopiesMatch(out);
});
