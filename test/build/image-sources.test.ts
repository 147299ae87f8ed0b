// Image sources as editors and cameras make them: a phone photo turned by its EXIF orientation,
// bytes of one format under another format's name, an image taller than AVIF and WebP allow,
// an animated WebP, and one file's bytes under two names. The image stage itself (processImages), on files made
// here with sharp.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import sharp from 'sharp';
import { readImageSize } from '../../src/build/content/load.js';
import { processImages } from '../../src/build/images/process.js';

const dir = await mkdtemp(path.join(tmpdir(), 'ir-image-sources-'));
after(() => rm(dir, { recursive: true, force: true }));

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#336699' } });

/** Writes `bytes` as `name` and runs the image stage on it as an article's image. */
async function stage(files: Record<string, Buffer>) {
  const site = await mkdtemp(path.join(dir, 'site-'));
  const assets = [];
  for (const [name, bytes] of Object.entries(files)) {
    const absPath = path.join(site, name);
    await writeFile(absPath, bytes);
    assets.push({ dir: 'content/articles/a', name, absPath, size: bytes.length });
  }
  return { site, result: await processImages(assets, path.join(site, '.cache'), site) };
}

test('a photo turned by its EXIF orientation has its upright size, and no variant is wider than it', async () => {
  // Stored 600×400, shown 400×600: a phone held upright.
  const bytes = await solid(600, 400).jpeg().withMetadata({ orientation: 6 }).toBuffer();
  const { site, result } = await stage({ 'upright.jpg': bytes });
  assert.deepEqual(result.diagnostics, []);
  const image = result.images.get(path.join(site, 'upright.jpg'))!;
  assert.deepEqual([image.width, image.height], [400, 600]);
  assert.ok(image.variants.every((v) => v.width <= 400), `variants: ${image.variants.map((v) => v.width).join(', ')}`);
  const widest = image.variants.filter((v) => v.format === 'jpeg').at(-1)!;
  const drawn = await sharp(result.files.get(widest.path)!).metadata();
  assert.deepEqual([drawn.width, drawn.height], [400, 600], 'the variant is drawn upright');
  assert.deepEqual(await readImageSize({ path: path.join(site, 'upright.jpg'), size: bytes.length, mtimeMs: 0, ctimeMs: 0 }), { width: 400, height: 600 });
});

test('bytes of another format under a raster name are an invalid image, named', async () => {
  const gif = await solid(10, 10).gif().toBuffer();
  const { result } = await stage({ 'chart.png': gif });
  assert.equal(result.diagnostics.length, 1);
  assert.equal(result.diagnostics[0]!.rule, 'content/invalid-image');
  assert.match(result.diagnostics[0]!.message, /holds GIF data, not the PNG its name says/);
});

test('an image taller than AVIF and WebP allow keeps its own format only', async () => {
  const { site, result } = await stage({ 'infographic.png': await solid(800, 17000).png().toBuffer() });
  assert.deepEqual(result.diagnostics, []);
  const image = result.images.get(path.join(site, 'infographic.png'))!;
  assert.deepEqual([...new Set(image.variants.map((v) => v.format))], ['png']);
});

test('an animated WebP keeps its frames: its variants are animated WebP, with no AVIF still', async () => {
  const frame = (colour: string) => sharp({ create: { width: 400, height: 300, channels: 3, background: colour } }).png().toBuffer();
  const animation = await sharp([await frame('#f00'), await frame('#00f')], { join: { animated: true } }).webp({ loop: 0, delay: [200, 200] }).toBuffer();
  const { site, result } = await stage({ 'spinner.webp': animation });
  assert.deepEqual(result.diagnostics, []);
  const image = result.images.get(path.join(site, 'spinner.webp'))!;
  assert.deepEqual([image.width, image.height], [400, 300]);
  assert.deepEqual([...new Set(image.variants.map((v) => v.format))], ['webp']);
  for (const variant of image.variants) {
    const drawn = await sharp(result.files.get(variant.path)!).metadata();
    assert.equal(drawn.pages, 2, `${variant.path} has both frames`);
    assert.equal(drawn.height, Math.round((300 * variant.width) / 400), 'the height of a frame');
  }
});

test('one file under two names: each name gets variants named after it', async () => {
  const bytes = await solid(300, 200).png().toBuffer();
  const { site, result } = await stage({ 'draft-name.png': bytes, 'chart.png': bytes });
  assert.deepEqual(result.diagnostics, []);
  for (const name of ['draft-name', 'chart']) {
    const image = result.images.get(path.join(site, `${name}.png`))!;
    assert.ok(image.variants.every((v) => v.path.startsWith(`/static/images/${name}-`)), `${name}: ${image.variants.map((v) => v.path).join(' ')}`);
  }
});
