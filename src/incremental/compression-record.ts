// The digests of the compressed copies made from each file's bytes, by the digest of those
// bytes, kept in the build cache (`build/compressed-files.bin`). With it, a build that writes
// a file the previous build wrote with the same bytes claims that build's `.br` and `.gz` as
// they are (the sink's `keep`) instead of compressing again. Only digests are kept, never the
// copies: the copies are the output folder's own files.
import type { CopyRecord } from '../build/emit/compressing-sink.js';
import type { CopyDigests } from '../build/emit/compression.js';
import { isString, recordOf, type Guard } from '../files/payload-shape.js';
import { memoKind, Records, type Memo } from './memo.js';

const isDigest = (value: unknown): value is string | null => value === null || isString(value);
const isCopyDigests: Guard<CopyDigests> = (v): v is CopyDigests => Array.isArray(v) && v.every(isDigest);
const COMPRESSED_FILES = memoKind('compressed-files', recordOf(isCopyDigests));

export class CompressionRecord implements CopyRecord {
  private constructor(private readonly records: Records<CopyDigests>) {}

  /** The record of the last build with this fingerprint (ir-site's code: the compression settings are in it); an empty one, never saved, without a memo. */
  static async open(memo: Memo | null): Promise<CompressionRecord> {
    return new CompressionRecord(await Records.open(memo, COMPRESSED_FILES));
  }

  /** The copies made from bytes of this digest, by this build or the last one. */
  get(digest: string): CopyDigests | undefined {
    return this.records.peek(digest);
  }

  /** Notes the copies of `digest` as this build's: the saved record holds only this build's. */
  set(digest: string, copies: CopyDigests): void {
    this.records.set(digest, copies);
  }

  save(): Promise<void> {
    return this.records.save();
  }
}
