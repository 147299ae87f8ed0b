// Every file of the build cache goes through here: one envelope, written and read in one
// place. A cache file can be damaged (a bad sector, a disk that filled up mid-write, a stray
// copy, an older ir-site), and whatever is wrong with it must cost a cache miss, never a
// failed build or a wrong output file. So a read checks everything and answers null on any
// doubt; it never throws.
//
//   IRSITE-CACHE\n
//   {"format":1,"kind":"...","fingerprint":"...","key":"...","codec":"json"|"v8","checksum":"...","size":N}\n
//   payload (N bytes)
//
// `kind` says which cache the file belongs to (a file of another kind, copied over it, is a
// miss), `fingerprint` which ir-site made it (toolFingerprint), `key` what it was made from
// (the caller's; the graph snapshot compares it before decoding anything), and the checksum
// covers the payload: CRC-32 (zlib's, Node 20.15 and later; SHA-256 before), which catches any
// accidental damage and is cheap enough for the megabytes a warm build reads. Writes go to a
// temporary file renamed into place, so a reader sees a whole old file or a whole new one.
import { lstat, open, readFile, rm, unlink } from 'node:fs/promises';
import v8 from 'node:v8';
import { diskFailure } from '../errors/disk.js';
import { writeAtomically } from './atomic-write.js';
import zlib from 'node:zlib';
import { sha256 } from './digest.js';

const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
const checksumOf = (payload: Uint8Array): string => (crc32 ? `crc32:${crc32(payload).toString(16)}` : `sha256:${sha256(payload)}`);

const MAGIC = Buffer.from('IRSITE-CACHE\n');
const FORMAT = 1;
/** A header is a few hundred bytes; anything longer is not one. */
const MAX_HEADER = 4096;

export type Codec = 'json' | 'v8';

interface Header {
  format: number;
  kind: string;
  fingerprint: string;
  key: string;
  codec: Codec;
  checksum: string;
  size: number;
}

/** A cache file whose envelope is sound: its key, and its payload still encoded (and not yet checked against its checksum). */
export interface CacheFile {
  key: string;
  decode<T>(accept: (value: unknown) => boolean): T | null;
}

/**
 * The file's key and payload when it is a whole, undamaged file of this `kind` made by this
 * ir-site (`fingerprint`); null otherwise (missing, short, foreign, damaged, older).
 */
export async function openCacheFile(file: string, kind: string, fingerprint: string): Promise<CacheFile | null> {
  const bytes = await readFile(file).catch(() => null);
  return bytes && parseCacheFile(bytes, kind, fingerprint);
}

/** openCacheFile of bytes already read (a memo kept in memory keeps the same bytes). */
export function parseCacheFile(bytes: Buffer, kind: string, fingerprint: string): CacheFile | null {
  if (bytes.length < MAGIC.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const end = bytes.indexOf(0x0a, MAGIC.length);
  if (end < 0 || end - MAGIC.length > MAX_HEADER) return null;
  let header: Header;
  try {
    header = JSON.parse(bytes.subarray(MAGIC.length, end).toString('utf8')) as Header;
  } catch {
    return null;
  }
  const payload = bytes.subarray(end + 1);
  if (
    header === null ||
    header.format !== FORMAT ||
    header.kind !== kind ||
    header.fingerprint !== fingerprint ||
    header.size !== payload.length ||
    (header.codec !== 'json' && header.codec !== 'v8') ||
    typeof header.key !== 'string'
  ) {
    return null;
  }
  return {
    key: header.key,
    decode<T>(accept: (value: unknown) => boolean): T | null {
      // Checked here, not on opening: a snapshot whose key is not wanted is never read through.
      if (checksumOf(payload) !== header.checksum) return null;
      try {
        const value: unknown = header.codec === 'v8' ? v8.deserialize(payload) : JSON.parse(payload.toString('utf8'));
        return accept(value) ? (value as T) : null;
      } catch {
        return null;
      }
    },
  };
}

/** The decoded payload of a sound cache file whose key is `key` and whose value `accept`s; null otherwise. */
export async function readCacheFile<T>(file: string, kind: string, fingerprint: string, accept: (value: unknown) => boolean, key = ''): Promise<T | null> {
  const opened = await openCacheFile(file, kind, fingerprint);
  return opened && opened.key === key ? opened.decode<T>(accept) : null;
}

/** The file's bytes: `value` as JSON (or v8.serialize's structured clone), in its envelope. */
export function encodeCacheFile(kind: string, fingerprint: string, value: unknown, { key = '', codec = 'json' as Codec } = {}): Buffer[] {
  const payload = codec === 'v8' ? v8.serialize(value) : Buffer.from(JSON.stringify(value));
  const header: Header = { format: FORMAT, kind, fingerprint, key, codec, checksum: checksumOf(payload), size: payload.length };
  return [MAGIC, Buffer.from(`${JSON.stringify(header)}\n`), payload];
}

/** Cache files this process could not write (a full disk, a read-only folder), until a build reports them. */
let failedWrites: { file: string; cause: string }[] = [];

/**
 * Writes a cache file atomically. A cache that cannot be written costs the next build time, not
 * this build its result: a full disk or a read-only folder is noted for the build to report as a
 * warning (takeCacheWriteFailures); only other errors (ir-site's own) reject.
 */
export async function writeCacheFile(file: string, encoded: Buffer[]): Promise<void> {
  await writeAtomically(file, encoded).catch((error: unknown) => noteFailedWrite(file, error));
}

/**
 * Removes a cache file, or a folder found where it goes (the path is ir-site's). One that cannot
 * be removed for the disk's or the folder's sake is noted as a failed write, as writeCacheFile
 * notes one: a record left in place is never trusted alone (the files it describes have changed
 * times), so the build goes on.
 */
export async function removeCacheFile(file: string): Promise<void> {
  try {
    const info = await lstat(file).catch(() => null);
    // unlink for a file: rm's recursive fallback, refused, would look into the file as a folder.
    if (info?.isDirectory()) await rm(file, { recursive: true, force: true });
    else if (info) await unlink(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') noteFailedWrite(file, error);
  }
}

function noteFailedWrite(file: string, error: unknown): void {
  const disk = diskFailure(error) ?? fileInTheWay(error);
  if (!disk) throw error;
  failedWrites.push({ file, cause: disk.cause });
}

/** A file where the cache needs a folder (`build` made a file by hand): not removed, since the cache folder may be anywhere. */
function fileInTheWay(error: unknown): { path: string; cause: string } | null {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  if (code !== 'ENOTDIR' && code !== 'EEXIST') return null;
  return { path: path ?? '', cause: `a file is where the cache needs a folder (${path ?? 'on the way to it'}): delete it` };
}

/** The cache writes that failed since the last call. */
export function takeCacheWriteFailures(): { file: string; cause: string }[] {
  const taken = failedWrites;
  failedWrites = [];
  return taken;
}

/** A light check of a decoded payload: a plain object holding these fields. */
export const hasFields =
  (...fields: string[]) =>
  (value: unknown): boolean =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && fields.every((f) => f in value);

/** The key in a cache file's header, read without reading (or checking) the rest: for housekeeping only. */
export async function peekCacheKey(file: string, kind: string): Promise<string | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const head = Buffer.alloc(MAGIC.length + MAX_HEADER);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const end = head.indexOf(0x0a, MAGIC.length);
    if (!head.subarray(0, MAGIC.length).equals(MAGIC) || end < 0 || end > bytesRead) return null;
    const header = JSON.parse(head.subarray(MAGIC.length, end).toString('utf8')) as Header;
    return header.kind === kind && typeof header.key === 'string' ? header.key : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
