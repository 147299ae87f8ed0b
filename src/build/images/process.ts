// The image stage: every raster image next to an entry is resized to its widths in AVIF,
// WebP and its own format, with a tiny blurred placeholder. Results are cached by content
// hash and options, so a second build processes nothing. Runs between validate and graph.
import { readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Sharp } from 'sharp';
import type { RawAsset } from '../content/raw.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import * as z from 'zod';
import { encodeCacheFile, readCacheFile, writeCacheFile } from '../../files/cache-file.js';
import { digestOf } from '../../files/digest.js';
import { accepts, schemaOf } from '../../files/payload-shape.js';
import { variantWidths, type ProcessedImage } from '../../shared/image-data.js';
import { goneAsNull } from '../../files/gone.js';
import { imageKey } from '../../incremental/keys.js';

/** Bump when the output of processing changes, so caches from older versions are not used. */
const PIPELINE_VERSION = 4;
const RASTER = /\.(jpe?g|png|webp|avif)$/i;
/** Portraits are shown at most this wide; other content images at the text column's width. */
const PORTRAIT_WIDTH = 320;
const CONTENT_WIDTH = 760;
const FORMATS = ['avif', 'webp'] as const;
/** The longest side AVIF and WebP encoders take. */
const MODERN_MAX_SIDE = 16383;

export interface ImageStageResult {
  /** Source absolute path -> what it became. */
  images: Map<string, ProcessedImage>;
  /** Site path -> file in the cache, to publish. */
  files: Map<string, string>;
  diagnostics: Diagnostic[];
  processed: number;
  cached: number;
}

export const displayWidthFor = (asset: Pick<RawAsset, 'dir'>, intrinsic: number) =>
  Math.min(intrinsic, /(^|\/)team\/[^/]+$/.test(asset.dir) ? PORTRAIT_WIDTH : CONTENT_WIDTH);

interface CacheEntry {
  image: ProcessedImage;
  /** File names inside the entry's cache folder, by site path. */
  files: Record<string, string>;
  /** Each file's digest, by name: a file whose bytes no longer have it makes the entry a miss. */
  digests: Record<string, string>;
}

/** A file of the entry's folder: a name in it, never a path out of it. */
const fileName = z.string().regex(/^(?!\.\.?$)[^/\\]+$/);

const isCacheEntry = accepts(
  schemaOf<CacheEntry>()(
    z.object({
      image: schemaOf<ProcessedImage>()(
        z.object({
          width: z.number(),
          height: z.number(),
          format: z.string(),
          variants: z.array(z.object({ format: z.string(), width: z.number(), path: z.string() })),
          placeholder: z.string(),
          displayWidth: z.number(),
        }),
      ),
      files: z.record(z.string(), fileName),
      digests: z.record(z.string(), z.string()),
    }),
  ),
);

/** What an entry's `meta.bin` was made by: the entry's folder name (its key) covers the rest. */
const ENTRY_KIND = 'image';
const ENTRY_FINGERPRINT = `pipeline ${PIPELINE_VERSION}`;

/** The entry in `dir`, when its record is sound and every file still has the bytes it was written with. */
async function cachedEntry(dir: string, key: string): Promise<CacheEntry | null> {
  const entry = await readCacheFile<CacheEntry>(path.join(dir, 'meta.bin'), ENTRY_KIND, ENTRY_FINGERPRINT, isCacheEntry, key);
  if (!entry) return null;
  const sound = await Promise.all(
    Object.values(entry.files).map(async (name) => {
      const bytes = await readFile(path.join(dir, name)).catch(() => null);
      return bytes !== null && digestOf(bytes) === entry.digests[name];
    }),
  );
  return sound.every(Boolean) ? entry : null;
}

/**
 * Puts the entry made in `tmp` at `dir`, and answers the entry there. A build into memory
 * (`check`, a test, a script) takes no site lock, so another build may have placed the same
 * entry meanwhile, and may be reading it: a sound entry found there is kept and `tmp` dropped
 * (unless `replace`: `--no-cache` replaces every entry). One that is damaged, or replaced, is
 * moved aside before the new one goes in, never removed in place, so that a reader finds the
 * entry's folder at every moment. The aside folder is named as a leftover, for the next build
 * to remove if this one is killed on the way.
 */
export async function placeEntry(tmp: string, dir: string, key: string, made: CacheEntry, replace: boolean): Promise<CacheEntry> {
  for (let attempt = 1; ; attempt++) {
    try {
      await rename(tmp, dir);
      return made;
    } catch (error) {
      // Something at `dir` already: an entry (ENOTEMPTY, EEXIST), or a file in its place (ENOTDIR).
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') || attempt > 3) throw error;
    }
    const there = replace ? null : await cachedEntry(dir, key);
    if (there) {
      await rm(tmp, { recursive: true, force: true });
      return there;
    }
    const aside = `${tmp}old`;
    await rename(dir, aside).catch(goneAsNull);
    // Removed in the background: the new entry is in place as soon as `tmp` is renamed.
    void rm(aside, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * sharp, loaded on the first image to process: a build whose images are all in the cache
 * never loads libvips. Each image is decoded once: libvips' operation cache would
 * only hold memory through the render stage, the build's peak. One libvips thread per image
 * (two images at once keep both cores busy): with more, the AVIF encoder's bytes depended on
 * the process's malloc settings (the CLI's MALLOC_ARENA_MAX=2 made other bytes than a library
 * build without it), and a build must make the same files wherever it runs.
 */
let sharpModule: Promise<typeof import('sharp').default> | null = null;
const loadSharp = () =>
  (sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  }));

/**
 * sharp's version, from its package.json rather than from libvips (which would load it): each
 * sharp release pins the libvips it ships, and a new one may encode differently.
 */
let sharpVersionMemo: string | null = null;
function sharpVersion(): string {
  if (sharpVersionMemo) return sharpVersionMemo;
  for (let dir = path.dirname(createRequire(import.meta.url).resolve('sharp')); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'sharp' && pkg.version) return (sharpVersionMemo = pkg.version);
    } catch {
      // No package.json at this level: look further up.
    }
  }
  throw new Error('cannot find the version of the installed sharp package');
}

function encode(pipeline: Sharp, format: string): Sharp {
  switch (format) {
    case 'avif':
      return pipeline.avif({ quality: 50, effort: 2 });
    case 'webp':
      return pipeline.webp({ quality: 75 });
    case 'png':
      return pipeline.png({ compressionLevel: 9 });
    default:
      return pipeline.jpeg({ quality: 78, mozjpeg: true });
  }
}

/** What a source's variants are named after: `Q3 chart.png` -> `Q3-chart`. */
const stemOf = (asset: RawAsset) => asset.name.replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9_-]+/g, '-');

async function processOne(asset: RawAsset, bytes: Buffer, key: string, dir: string): Promise<CacheEntry> {
  const sharp = await loadSharp();
  const meta = await sharp(bytes).metadata();
  // The size as shown: a photo whose EXIF orientation turns it (a phone held upright) is drawn turned.
  const { width, height } = meta.autoOrient ?? meta;
  if (!width || !height) throw new Error('it has no pixel size');
  // libvips reports AVIF files as "heif".
  const format: string = meta.format === 'heif' ? 'avif' : (meta.format ?? 'jpeg');
  const named = /\.([^.]+)$/.exec(asset.name)?.[1]?.toLowerCase().replace('jpg', 'jpeg');
  if (format !== named) throw new Error(`it holds ${format.toUpperCase()} data, not the ${named?.toUpperCase()} its name says`);
  const display = displayWidthFor(asset, width);
  const stem = stemOf(asset);
  const ext = (f: string) => (f === 'jpeg' ? 'jpg' : f);
  const variants: ProcessedImage['variants'] = [];
  const files: Record<string, string> = {};
  const digests: Record<string, string> = {};
  await mkdir(dir, { recursive: true });
  const widths = variantWidths(display, width);
  // AVIF and WebP stop at 16383 pixels a side: a very tall image (an infographic) keeps its own
  // format only. So does an animated WebP, whose frames sharp keeps in WebP (AVIF would be a still).
  const tallest = Math.round((Math.max(...widths) * height) / width);
  const animated = format === 'webp' && (meta.pages ?? 1) > 1;
  for (const f of tallest > MODERN_MAX_SIDE || animated ? [format] : [...FORMATS, format]) {
    for (const variant of widths) {
      if (variants.some((v) => v.format === f && v.width === variant)) continue;
      const name = `${stem}-${variant}.${key.slice(0, 10)}.${ext(f)}`;
      const encoded = await encode(sharp(bytes, { animated }).autoOrient().resize({ width: variant }), f).toBuffer();
      await writeFile(path.join(dir, name), encoded);
      digests[name] = digestOf(encoded);
      const sitePath = `/static/images/${name}`;
      variants.push({ format: f, width: variant, path: sitePath });
      files[sitePath] = name;
    }
  }
  const tiny = await sharp(bytes).autoOrient().resize({ width: 20 }).blur(1.2).webp({ quality: 40 }).toBuffer();
  return {
    image: { width, height, format, variants, placeholder: `data:image/webp;base64,${tiny.toString('base64')}`, displayWidth: display },
    files,
    digests,
  };
}

/**
 * `fresh`: take nothing from the image cache, and replace each entry (`build --no-cache`, which
 * must repair a damaged cache, not only step around it).
 */
export async function processImages(assets: readonly RawAsset[], cacheDir: string, root: string, { fresh = false } = {}): Promise<ImageStageResult> {
  const result: ImageStageResult = { images: new Map(), files: new Map(), diagnostics: [], processed: 0, cached: 0 };
  const base = path.join(cacheDir, 'images');
  await mkdir(base, { recursive: true });
  // sharp runs one thread per image (loadSharp): two images at once keep both cores busy. The
  // cache is checked eight images at a time (reads that overlap the loading of the content); a
  // source's bytes are held only while it is hashed, or encoded.
  const encoding = pLimit(2);
  const reading = pLimit(8);
  const entryKey = (asset: RawAsset, bytes: Buffer) =>
    imageKey(bytes, { pipeline: PIPELINE_VERSION, sharp: `sharp@${sharpVersion()}`, kind: asset.dir.includes('team/') ? 'portrait' : 'content', stem: stemOf(asset) });
  // Identical files of one name (one chart next to two articles) share a key: process each key
  // once. The name is in the key because the variants are named after it.
  const jobs = new Map<string, Promise<CacheEntry | null>>();
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');

  await Promise.all(
    assets
      .filter((a) => RASTER.test(a.name))
      .map(async (asset) => {
        const key = await reading(async () => {
          const bytes = await readFile(asset.absPath).catch(goneAsNull);
          return bytes && entryKey(asset, bytes);
        });
        if (key === null) {
          // Listed (the build's walk of its inputs), then removed before it was read.
          result.diagnostics.push(diagnostic('content/changed-during-build', { file: rel(asset.absPath), message: 'this file changed while the build was running (it is gone)' }));
          return;
        }
        const dir = path.join(base, key);
        let job = jobs.get(key);
        const first = !job;
        job ??= (async () => {
          const cached = fresh ? null : await reading(() => cachedEntry(dir, key));
          if (cached) {
            result.cached += 1;
            return cached;
          }
          // Build into a temporary folder and rename, so an interrupted build leaves no half entry.
          const tmp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
          try {
            const made = await encoding(async () => {
              const bytes = await readFile(asset.absPath);
              if (entryKey(asset, bytes) !== key) throw new Error('it changed while the build was reading it');
              return processOne(asset, bytes, key, tmp);
            });
            await writeCacheFile(path.join(tmp, 'meta.bin'), encodeCacheFile(ENTRY_KIND, ENTRY_FINGERPRINT, made, { key }));
            const placed = await placeEntry(tmp, dir, key, made, fresh);
            result.processed += 1;
            return placed;
          } catch (error) {
            await rm(tmp, { recursive: true, force: true });
            result.diagnostics.push(
              diagnostic('content/invalid-image', { file: rel(asset.absPath), message: `this image cannot be read: ${(error as Error).message.split('\n')[0]}` }),
            );
            return null;
          }
        })();
        if (first) jobs.set(key, job);
        const entry = await job;
        if (!entry) return;
        result.images.set(asset.absPath, entry.image);
        for (const [sitePath, name] of Object.entries(entry.files)) result.files.set(sitePath, path.join(dir, name));
      }),
  );
  return result;
}

/**
 * Removes cache entries no current image uses (called after a successful build). Entries still
 * being made (`<key>.tmp-…`, perhaps by `ir-site dev`, which takes no lock) are left to the next
 * build's removal of leftovers, which waits until they are old (emit/journal.ts).
 */
export async function pruneImageCache(cacheDir: string, keep: Iterable<string>): Promise<void> {
  const base = path.join(cacheDir, 'images');
  const used = new Set([...keep].map((f) => path.basename(path.dirname(f))));
  const entries = await readdir(base).catch(() => [] as string[]);
  await Promise.all(entries.filter((e) => !used.has(e) && !e.includes('.tmp-')).map((e) => rm(path.join(base, e), { recursive: true, force: true })));
}
