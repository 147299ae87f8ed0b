// Bodies compressed on the fly, for files that have no precompressed copy (every file in
// `dev`; in `serve`, a folder built with `compress: false` or copied without its copies),
// kept by the tag of the bytes they were made from, so a file is compressed once however
// often it is asked for (a HEAD needs the length too). Oldest entries go first past `maxBytes`.
import { etagOf } from './content-etag.js';
import { compress, worthSending, type Encoding } from '../../build/emit/compression.js';

export interface CompressedBody {
  data: Buffer;
  /** Strong, from the compressed bytes (the same as a precompressed copy's: the settings are the build's). */
  etag: string;
}

/** Past this, a file is sent as it is rather than held in memory whole to be compressed. */
export const MAX_ON_THE_FLY = 16 * 1024 * 1024;

export class CompressedBodies {
  private readonly entries = new Map<string, Promise<CompressedBody | null>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  /**
   * The body of `data` (whose strong tag is `tag`) in `encoding`, or null when compressing does
   * not make it smaller.
   */
  get(tag: string, encoding: Encoding, data: () => Promise<Buffer>): Promise<CompressedBody | null> {
    const key = `${encoding}:${tag}`;
    const known = this.entries.get(key);
    if (known) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    const made = data().then(async (bytes) => {
      const compressed = await compress(bytes, encoding);
      return worthSending(compressed, bytes.byteLength) ? { data: compressed, etag: etagOf(compressed) } : null;
    });
    this.entries.set(key, made);
    made.then(
      (body) => this.account(key, made, body?.data.byteLength ?? 0),
      () => {
        if (this.entries.get(key) === made) this.entries.delete(key);
      },
    );
    return made;
  }

  private account(key: string, made: Promise<CompressedBody | null>, size: number): void {
    if (this.entries.get(key) !== made) return;
    this.sizes.set(key, size);
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes || oldest === key) break;
      // Still being made: its size is not counted yet, and it is about to be used.
      if (!this.sizes.has(oldest)) continue;
      this.bytes -= this.sizes.get(oldest)!;
      this.sizes.delete(oldest);
      this.entries.delete(oldest);
    }
  }
}
