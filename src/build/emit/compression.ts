// Which files are worth compressing, and how: brotli and gzip from Node's zlib. The async
// calls run on libuv's thread pool, off the JavaScript thread. The build (compressing-sink.ts)
// and the servers (src/commands/server) use the same settings, so a file compressed on the
// fly has the bytes its precompressed copy would have.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Best first: when a client accepts both equally, brotli (smaller at the same cost). */
export const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];

/** The file next to the original that holds its encoded copy: `index.html.br`, `index.html.gz`. */
export const SUFFIX: Readonly<Record<Encoding, string>> = { br: '.br', gzip: '.gz' };

/**
 * Below this, a compressed answer saves less than its headers and a round of work cost: the
 * threshold of Express's `compression`. Such files get no copies and are sent as they are.
 */
export const MIN_COMPRESS_SIZE = 1024;

/** Text formats the build writes: HTML, JavaScript, CSS, JSON, SVG, XML, web manifests, text and source maps. */
const COMPRESSIBLE = /\.(?:html?|m?js|css|json|svg|xml|webmanifest|txt|map)$/i;

/** Whether a file of this name (site path, with or without the leading slash) is compressed. */
export function isCompressible(sitePath: string): boolean {
  return COMPRESSIBLE.test(sitePath);
}

/**
 * Brotli quality 5 and gzip level 6: on the demo's pages brotli 5 comes close to quality 9's
 * size in a fraction of its time, and 11 would make a large site's build take minutes.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const brotliOptions = (size: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});

/** On libuv's thread pool, for the main thread. */
export function compress(data: string | Uint8Array, encoding: Encoding): Promise<Buffer> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  return encoding === 'gzip' ? gzip(bytes, { level: GZIP_LEVEL }) : brotli(bytes, brotliOptions(bytes.byteLength));
}

/** On this thread, for a render worker (the same bytes as `compress`). */
function compressSync(bytes: Uint8Array, encoding: Encoding): Buffer {
  return encoding === 'gzip' ? zlib.gzipSync(bytes, { level: GZIP_LEVEL }) : zlib.brotliCompressSync(bytes, brotliOptions(bytes.byteLength));
}

/** The copies worth sending of these bytes, per encoding in ENCODINGS' order (null: none), made on libuv's pool. */
export async function encodedCopies(bytes: Uint8Array): Promise<(Buffer | null)[]> {
  if (bytes.byteLength < MIN_COMPRESS_SIZE) return ENCODINGS.map(() => null);
  return Promise.all(ENCODINGS.map(async (encoding) => worthOrNull(await compress(bytes, encoding), bytes.byteLength)));
}

/** `encodedCopies` on this thread, for a render worker. */
export function encodedCopiesSync(bytes: Uint8Array): (Buffer | null)[] {
  if (bytes.byteLength < MIN_COMPRESS_SIZE) return ENCODINGS.map(() => null);
  return ENCODINGS.map((encoding) => worthOrNull(compressSync(bytes, encoding), bytes.byteLength));
}

const worthOrNull = (compressed: Buffer, originalSize: number) => (worthSending(compressed, originalSize) ? compressed : null);

/** Per encoding (in ENCODINGS' order), the digest of the copy, or null when none is written (too small, or not smaller). */
export type CopyDigests = (string | null)[];

/** A copy is kept only when it is smaller than the original; otherwise the original is sent. */
export const worthSending = (compressed: Uint8Array, originalSize: number) => compressed.byteLength < originalSize;
