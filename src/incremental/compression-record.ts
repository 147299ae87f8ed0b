// The digests of the compressed copies made from each file's bytes, by the digest of those
// bytes, kept in the build cache (`build/compressed-files.bin`). With it, a build that writes
// a file the previous build wrote with the same bytes claims that build's `.br` and `.gz` as
// they are (the sink's `keep`) instead of compressing again. Only digests are kept, never the
// copies: the copies are the output folder's own files.
import path from 'node:path';
import type { CopyRecord } from '../build/emit/compressing-sink.js';
import type { CopyDigests } from '../build/emit/compression.js';
import * as z from 'zod';
import { encodeCacheFile, readCacheFile, writeCacheFile } from '../files/cache-file.js';
import { accepts, checked, isString, recordOf, type Guard } from '../files/payload-shape.js';

const KIND = 'compressed-files';

// An entry per compressible output file: typeof tests (payload-shape.ts).
const isDigest = (value: unknown): value is string | null => value === null || isString(value);
const isCopyDigests: Guard<CopyDigests> = (v): v is CopyDigests => Array.isArray(v) && v.every(isDigest);
const storedSchema = z.object({ copies: checked(recordOf(isCopyDigests)) });
type Stored = z.infer<typeof storedSchema>;
const isStored = accepts(storedSchema);

export class CompressionRecord implements CopyRecord {
  private readonly used: Record<string, CopyDigests> = {};
  private changed = false;

  private constructor(
    private readonly file: string | null,
    private readonly fingerprint: string,
    private readonly stored: Readonly<Record<string, CopyDigests>>,
  ) {}

  /** A record that starts empty and is never saved (a build without the cache). */
  static empty(): CompressionRecord {
    return new CompressionRecord(null, '', {});
  }

  /** The record of the last build with this fingerprint (ir-site's code: the compression settings are in it). */
  static async open(cacheDir: string, fingerprint: string): Promise<CompressionRecord> {
    const file = path.join(cacheDir, 'build', 'compressed-files.bin');
    const stored = await readCacheFile<Stored>(file, KIND, fingerprint, isStored);
    const copies = stored?.copies ?? {};
    return new CompressionRecord(file, fingerprint, copies);
  }

  /** The copies made from bytes of this digest, by this build or the last one. */
  get(digest: string): CopyDigests | undefined {
    return this.used[digest] ?? this.stored[digest];
  }

  /** Notes the copies of `digest` as this build's: the saved record holds only this build's. */
  set(digest: string, copies: CopyDigests): void {
    this.used[digest] = copies;
    const before = this.stored[digest];
    if (!before || before.length !== copies.length || before.some((d, i) => d !== copies[i])) this.changed = true;
  }

  async save(): Promise<void> {
    if (!this.file) return;
    if (!this.changed && Object.keys(this.used).length === Object.keys(this.stored).length) return;
    await writeCacheFile(this.file, encodeCacheFile(KIND, this.fingerprint, { copies: this.used } satisfies Stored));
  }
}
