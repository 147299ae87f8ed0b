// Writes a `.br` and a `.gz` copy next to every compressible file of a disk build
// (compression.ts), so hosts that serve precompressed files (nginx's gzip_static and
// brotli_static, `ir-site serve`) never compress a request. It wraps the build's sink and sees
// every file go by, however it gets there:
//
// - `write` and `copy`: the bytes are at hand (or in the copied file);
// - `adopt`: a render worker wrote the page at its `directPath`, and its copies next to it
//   (it has the bytes, and a core of its own);
// - `keep`: the previous build's file stays; so do its copies when the record
//   (the build cache's copy record) says which copies those bytes make and the output still holds them,
//   otherwise they are made again from the kept file.
//
// Compression runs in the background (libuv's thread pool) while the build goes on; `settle`
// waits for all of it and must come before the sink's commit or discard.
import { readFile } from 'node:fs/promises';
import pLimit from 'p-limit';
import { digestOf } from '../../files/digest.js';
import { encodedCopies, ENCODINGS, isCompressible, SUFFIX, type CopyDigests } from './compression.js';
import type { BuildSink, DirectTarget } from './sink.js';

/** What copies the bytes of each digest made (the build cache's incremental/compression-record.ts). */
export interface CopyRecord {
  get(digest: string): CopyDigests | undefined;
  set(digest: string, copies: CopyDigests): void;
  save(): Promise<void>;
}

/** Files compressed at once: two encodings each keep the four threads of libuv's pool busy. */
const CONCURRENCY = 2;
/** Files waiting with their bytes in memory before `write` waits for the queue to shorten. */
const MAX_QUEUED = 256;

type Bytes = string | Uint8Array;

export class CompressingSink implements BuildSink {
  private readonly limit = pLimit(CONCURRENCY);
  private readonly jobs = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;
  private made = 0;
  private kept = 0;
  /**
   * Writers waiting for the queue to shorten; each finished file wakes one. (Not Promise.race
   * over the jobs: every race adds a reaction to every pending job, which with a full queue and
   * many waiting writers grew to gigabytes and minutes of garbage collection.)
   */
  private readonly waitingForRoom: (() => void)[] = [];

  constructor(
    private readonly inner: BuildSink,
    private readonly record: CopyRecord,
  ) {}

  async write(rel: string, data: Bytes, digest = digestOf(data)): Promise<void> {
    await this.inner.write(rel, data, digest);
    if (!isCompressible(rel)) return;
    // Bounded memory: a long queue of pages held with their bytes makes the writer wait.
    if (this.keepCopies(rel, digest)) return;
    while (this.limit.pendingCount > MAX_QUEUED) await new Promise<void>((resolve) => this.waitingForRoom.push(resolve));
    this.schedule(rel, digest, () => data);
  }

  async copy(fromAbs: string, rel: string): Promise<void> {
    await this.inner.copy(fromAbs, rel);
    if (isCompressible(rel)) this.schedule(rel, null, () => readFile(fromAbs));
  }

  keep(rel: string, digest: string | undefined): boolean {
    // Its copies are known by the digest: a file with none recorded is written again, with them.
    if (digest === undefined || !this.inner.keep(rel, digest)) return false;
    if (isCompressible(rel) && !this.keepCopies(rel, digest)) {
      const file = this.inner.previous(rel);
      // Kept means still there; if the sink cannot say where, the build fails rather than ship a file without its copies.
      if (!file) throw new Error(`the output sink kept ${rel} but cannot say where the previous build left it`);
      this.schedule(rel, digest, () => readFile(file));
    }
    return true;
  }

  previous(rel: string): string | null {
    return this.inner.previous(rel);
  }

  /**
   * A compressible file is written directly only with its copies, which the writer then makes
   * too; when the inner sink will not take them all that way, it comes through `write`.
   */
  directPath(rel: string): DirectTarget | null {
    const target = this.inner.directPath(rel);
    if (!target || !isCompressible(rel)) return target;
    const copies = ENCODINGS.map((encoding) => this.inner.directPath(rel + SUFFIX[encoding])?.file);
    return copies.every((file): file is string => file !== undefined) ? { file: target.file, copies } : null;
  }

  adopt(rel: string, digest: string, copies?: CopyDigests): void {
    this.inner.adopt(rel, digest);
    if (!isCompressible(rel)) return;
    if (!copies) throw new Error(`${rel} was written without the compressed copies its directPath asked for`);
    ENCODINGS.forEach((encoding, i) => {
      if (copies[i]) this.inner.adopt(rel + SUFFIX[encoding], copies[i]!);
    });
    this.record.set(digest, copies);
    this.made++;
  }

  /** Waits for every copy to be written; rejects with the first failure. Call before committing or discarding. */
  async settle(): Promise<void> {
    while (this.jobs.size > 0) await Promise.all(this.jobs);
    if (this.failure) throw this.failure.error;
  }

  /** Keeps the record of the copies for the next build (after the commit: it describes the published output). */
  saveRecord(): Promise<void> {
    return this.record.save();
  }

  /** Claims the previous build's copies of these bytes; false when they are unknown or gone. */
  private keepCopies(rel: string, digest: string): boolean {
    const copies = this.record.get(digest);
    if (!copies || copies.length !== ENCODINGS.length) return false;
    // Every copy is tried, so that one that is still there is claimed even when another is not.
    const kept = ENCODINGS.map((encoding, i) => copies[i] === null || this.inner.keep(rel + SUFFIX[encoding], copies[i]!));
    if (!kept.every(Boolean)) return false;
    this.record.set(digest, copies);
    this.kept++;
    return true;
  }

  /** Makes and writes the copies of `rel` in the background; `digest` (of its bytes) when known, whose copies were not claimed. */
  private schedule(rel: string, digest: string | null, load: () => Bytes | Promise<Bytes>): void {
    const job = this.limit(() => this.compressFile(rel, digest, load)).then(
      () => undefined,
      (error: unknown) => {
        this.failure ??= { error: new Error(`could not write the compressed copies of ${rel}: ${(error as Error).message}`, { cause: error }) };
      },
    );
    this.jobs.add(job);
    void job.finally(() => {
      this.jobs.delete(job);
      this.waitingForRoom.shift()?.();
    });
  }

  private async compressFile(rel: string, known: string | null, load: () => Bytes | Promise<Bytes>): Promise<void> {
    if (this.failure) return;
    const data = await load();
    const digest = known ?? digestOf(data);
    if (known === null && this.keepCopies(rel, digest)) return;
    const made = await encodedCopies(typeof data === 'string' ? Buffer.from(data) : data);
    const copies: CopyDigests = await Promise.all(
      made.map(async (copy, i) => {
        if (!copy) return null;
        const copyDigest = digestOf(copy);
        await this.inner.write(rel + SUFFIX[ENCODINGS[i]!], copy, copyDigest);
        return copyDigest;
      }),
    );
    this.record.set(digest, copies);
    this.made++;
  }

  /** Files compressed by this build, and files whose copies it kept from the previous one. */
  counts(): { made: number; kept: number } {
    return { made: this.made, kept: this.kept };
  }
}
