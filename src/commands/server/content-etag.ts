// Strong ETags made from the bytes, the same for a file on disk and a buffer in memory: a
// rebuild that writes identical bytes (new inode, new time) keeps every tag, so browsers
// keep their copies and revalidate with a 304.
import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';

const tagOf = (hash: Hash) => `"${hash.digest('base64url')}"`;

export function etagOf(data: Uint8Array): string {
  return tagOf(createHash('sha1').update(data));
}

const HASH_CHUNK = 1024 * 1024;

/** Hashes an open file with positional reads, so the handle can still be read from any offset. */
export async function etagOfFile(handle: FileHandle, size: number): Promise<string> {
  const hash = createHash('sha1');
  const buffer = Buffer.allocUnsafe(Math.min(HASH_CHUNK, Math.max(size, 1)));
  for (let pos = 0; pos < size; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - pos), pos);
    if (bytesRead === 0) break; // shrank since its stat: the tag is then of what is there
    hash.update(buffer.subarray(0, bytesRead));
    pos += bytesRead;
  }
  return tagOf(hash);
}

/**
 * ETags of disk files by real path, each valid for the file identity it was computed for
 * (inode, size, modification and change times): a repeat request costs no read, and any
 * replacement or in-place write makes a new entry. Oldest entries go first past `max`.
 */
export class EtagCache {
  private readonly entries = new Map<string, { identity: string; etag: Promise<string> }>();

  constructor(private readonly max = 20_000) {}

  get(file: string, info: Stats, compute: () => Promise<string>): Promise<string> {
    const identity = `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
    const known = this.entries.get(file);
    if (known?.identity === identity) return known.etag;
    const etag = compute();
    this.entries.delete(file);
    this.entries.set(file, { identity, etag });
    etag.catch(() => {
      if (this.entries.get(file)?.etag === etag) this.entries.delete(file);
    });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return etag;
  }
}
