// The image data shape (pure) and the image stage on real files: formats, widths,
// placeholder, the cache (a second run processes nothing) and errors.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, stat, truncate } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { defaultSizes, imageData, layoutNamed, variantWidths, type ProcessedImage } from '../../src/shared/image-data.js';
import { placeEntry, processImages } from '../../src/build/images/process.js';
import { fixture } from '../helpers.js';

test('widths are 0.25, 0.5, 1 and 2 times the display width, never wider than the source', () => {
  assert.deepEqual(variantWidths(320, 480), [80, 160, 320, 480]);
  assert.deepEqual(variantWidths(760, 4000), [190, 380, 760, 1520]);
  assert.deepEqual(variantWidths(40, 40), [20, 40]);
});

test('default sizes per layout', () => {
  assert.equal(defaultSizes('constrained', 320), '(min-width: 320px) 320px, 100vw');
  assert.equal(defaultSizes('fixed', 320), '320px');
  assert.equal(defaultSizes('fullWidth', 320), '100vw');
});

test('image data has the RUNTIME.md shape: avif and webp sources, the original format as fallback', () => {
  const processed: ProcessedImage = {
    width: 480,
    height: 600,
    format: 'jpeg',
    displayWidth: 320,
    placeholder: 'data:image/webp;base64,AAAA',
    variants: [80, 160, 320, 480].flatMap((w) => ['avif', 'webp', 'jpeg'].map((format) => ({ format, width: w, path: `/static/images/p-${w}.abcdef0123.${format}` }))),
  };
  const data = imageData(processed);
  assert.deepEqual(Object.keys(data).sort(), ['height', 'images', 'layout', 'placeholder', 'width']);
  assert.equal(data.layout, 'constrained');
  assert.deepEqual([data.width, data.height], [320, 400]);
  assert.equal(data.placeholder.fallback, 'data:image/webp;base64,AAAA');
  assert.deepEqual(data.images.sources.map((s) => s.type), ['image/avif', 'image/webp']);
  assert.equal(data.images.fallback.src, '/static/images/p-320.abcdef0123.jpeg');
  assert.equal(data.images.fallback.srcSet.split(', ').length, 4);
  assert.equal(data.images.fallback.sizes, '(min-width: 320px) 320px, 100vw');
});

test('the stage makes every variant once; a second run takes everything from the cache', async () => {
  const cache = await mkdtemp(path.join(tmpdir(), 'ir-images-'));
  const dir = path.join(fixture('minimal'), 'content/articles/press-one');
  const asset = { dir: 'content/articles/press-one', name: 'chart.png', absPath: path.join(dir, 'chart.png'), size: 0 };
  const first = await processImages([asset], cache, fixture('minimal'));
  assert.deepEqual([first.processed, first.cached, first.diagnostics.length], [1, 0, 0]);
  const image = first.images.get(asset.absPath)!;
  assert.deepEqual([image.width, image.height, image.format, image.displayWidth], [1200, 600, 'png', 760]);
  assert.deepEqual([...new Set(image.variants.map((v) => v.format))].sort(), ['avif', 'png', 'webp']);
  assert.match(image.placeholder, /^data:image\/webp;base64,/);
  assert.equal(first.files.size, image.variants.length);
  const second = await processImages([asset], cache, fixture('minimal'));
  assert.deepEqual([second.processed, second.cached], [0, 1]);
  assert.deepEqual(second.images.get(asset.absPath), image);
});

test('an entry another build placed meanwhile is kept, never removed under its reader; a damaged one is moved aside, then replaced', async () => {
  const cache = await mkdtemp(path.join(tmpdir(), 'ir-images-'));
  const dir = path.join(fixture('minimal'), 'content/articles/press-one');
  const asset = { dir: 'content/articles/press-one', name: 'chart.png', absPath: path.join(dir, 'chart.png'), size: 0 };
  await processImages([asset], cache, fixture('minimal'));
  const base = path.join(cache, 'images');
  const [key] = await readdir(base);
  const entry = path.join(base, key!);
  // What a second build that processed the same image at the same time has in its own folder.
  const sound = path.join(cache, 'sound');
  await cp(entry, sound, { recursive: true });
  const madeAgain = async (n: number) => {
    const tmp = `${entry}.tmp-${process.pid}-test${n}`;
    await cp(sound, tmp, { recursive: true });
    return tmp;
  };
  const mine = { made: 'by this build' } as never;
  const inode = (await stat(entry)).ino;
  const tmp1 = await madeAgain(1);
  assert.notEqual(await placeEntry(tmp1, entry, key!, mine, false), mine, 'the sound entry there is answered');
  assert.equal((await stat(entry)).ino, inode, 'and left where it is');
  assert.ok(!existsSync(tmp1), 'this build\'s own copy is dropped');

  const files = (await readdir(entry)).filter((f) => f !== 'meta.bin');
  await truncate(path.join(entry, files[0]!), 1);
  const tmp2 = await madeAgain(2);
  assert.equal(await placeEntry(tmp2, entry, key!, mine, false), mine, 'a damaged entry is replaced by this build\'s');
  assert.notEqual((await stat(entry)).ino, inode);

  const before = (await stat(entry)).ino;
  const tmp3 = await madeAgain(3);
  assert.equal(await placeEntry(tmp3, entry, key!, mine, true), mine, '--no-cache replaces a sound entry too');
  assert.notEqual((await stat(entry)).ino, before);
  const again = await processImages([asset], cache, fixture('minimal'));
  assert.deepEqual([again.processed, again.cached], [0, 1], 'what is in place is sound');
});

test("a layout is named in any case, or not at all: an Object's own names are none", () => {
  assert.equal(layoutNamed('fullWidth'), 'fullWidth');
  assert.equal(layoutNamed(' layout=Fixed '), 'fixed');
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'wide', 5]) assert.equal(layoutNamed(name), undefined, String(name));
});
