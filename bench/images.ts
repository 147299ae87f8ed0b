// The image stage on a site: cold (empty cache) and warm (cache filled) time, and the bytes
// AVIF and WebP save against the original format at the same widths.
//
//   npx tsx bench/images.ts [siteDir=.]
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/build/config/load.js';
import { loadContent } from '../src/build/content/load.js';
import { processImages } from '../src/build/images/process.js';

const root = path.resolve(process.argv[2] ?? '.');
const config = await loadConfig({ root });
const { raw } = await loadContent(config);
const cache = await mkdtemp(path.join(tmpdir(), 'ir-images-bench-'));

let t0 = performance.now();
const cold = await processImages(raw.assets, cache, root);
const coldMs = performance.now() - t0;
t0 = performance.now();
const warm = await processImages(raw.assets, cache, root);
const warmMs = performance.now() - t0;

const bytes: Record<string, number> = {};
for (const [sitePath, file] of warm.files) {
  const format = sitePath.slice(sitePath.lastIndexOf('.') + 1);
  bytes[format] = (bytes[format] ?? 0) + (await stat(file)).size;
}
const original = (bytes.jpg ?? 0) + (bytes.png ?? 0);
const pct = (n = 0) => `${((1 - n / original) * 100).toFixed(0)}% smaller`;
console.log(`${cold.processed} images: cold ${(coldMs / 1000).toFixed(2)} s (${cold.processed} processed), warm ${warmMs.toFixed(0)} ms (${warm.processed} processed, ${warm.cached} from cache)`);
console.log(`all widths, original formats ${(original / 1024).toFixed(0)} KiB; webp ${((bytes.webp ?? 0) / 1024).toFixed(0)} KiB (${pct(bytes.webp)}); avif ${((bytes.avif ?? 0) / 1024).toFixed(0)} KiB (${pct(bytes.avif)})`);
await rm(cache, { recursive: true, force: true });
