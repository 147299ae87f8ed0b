// Where output goes: a folder on disk (build) or memory (tests, dev). Stage 5 writes
// only through a sink.
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { copyDigest, digestOf, stillAsLeft, withChangeTime, type FileState } from '../../files/digest.js';
import { withSignalsHeld } from '../../files/held-signals.js';
import { plainFileReader } from '../../files/plain-files.js';
import type { CopyDigests } from './compression.js';
import { clearJournal, INSIDE_STAGING, killPoint, removeLeftover, writeJournal } from './journal.js';
import { publishedFolder } from './published-folder.js';
import { checkFoldersWritable, OutputPlacer } from './placing.js';

/** The mode writeFile gives a new file: 0666 less the process's umask. */
const WRITTEN_MODE = 0o666 & ~process.umask();

/** Where a build's files go: all `build({ sink })` asks of a sink. */
export interface OutputSink {
  /** `rel` is a site path without its leading slash: `article/x/index.html`. `digest` saves hashing again. */
  write(rel: string, data: string | Uint8Array, digest?: string): Promise<void>;
  copy(fromAbs: string, rel: string): Promise<void>;
}

/**
 * A sink as the build drives it. It may hold the previous build's output (the output folder,
 * dev's memory), whose files the build keeps rather than writing them again, and may let render
 * workers write pages themselves. `buildSinkOf` makes one of a plain sink: it holds nothing and
 * takes every file through `write`.
 */
export interface BuildSink extends OutputSink {
  /**
   * Claims a file of the previous build that this build would write with the same bytes
   * (`digest`: as the previous build recorded it; none when it recorded none), without writing
   * it. False when the sink does not have it as it was: then the caller writes it.
   */
  keep(rel: string, digest: string | undefined): boolean;
  /** The absolute path of a file the previous build wrote, when it is still as that build left it. */
  previous(rel: string): string | null;
  /**
   * Where the caller may write `rel` itself (a render worker, saving the main thread the
   * bytes), its folder already made; or null when the sink must see the bytes: then the
   * caller uses `write`. A file written there is announced with `adopt`.
   */
  directPath(rel: string): DirectTarget | null;
  /** `rel` was written at its `directPath`, with these bytes' digest, and the copies it asked for (`DirectTarget.copies`). */
  adopt(rel: string, digest: string, copies?: CopyDigests): void;
}

/**
 * `sink` as the build drives it: itself when it is a BuildSink. Of any other, each of the four
 * methods it has is used (a JavaScript sink may have `keep` alone), and the others do nothing:
 * it keeps nothing, holds no previous file, and gets every page through `write` (a path to
 * write to is used only with `adopt` to announce what was written there).
 */
export function buildSinkOf(sink: OutputSink): BuildSink {
  const has = sink as OutputSink & Partial<BuildSink>;
  if (has.keep && has.previous && has.directPath && has.adopt) return sink as BuildSink;
  const direct = has.directPath !== undefined && has.adopt !== undefined;
  return {
    write: (rel, data, digest) => sink.write(rel, data, digest),
    copy: (fromAbs, rel) => sink.copy(fromAbs, rel),
    keep: (rel, digest) => has.keep?.call(sink, rel, digest) ?? false,
    previous: (rel) => has.previous?.call(sink, rel) ?? null,
    directPath: (rel) => (direct ? has.directPath!.call(sink, rel) : null),
    adopt: (rel, digest, copies) => {
      if (!direct) throw new Error(`${rel} was written directly, but this sink gives no path to write to`);
      has.adopt!.call(sink, rel, digest, copies);
    },
  };
}

/**
 * A commit in place that stopped part-way (a folder of the output not writable, the disk full):
 * the output folder holds some of this build's files. The journal and the staging folder are
 * left for the next build, which finishes the commit before anything else (journal.ts).
 */
export class CommitInterruptedError extends Error {
  constructor(readonly outDir: string, cause: unknown) {
    super(`the commit into ${outDir} stopped part-way: ${(cause as Error).message}`, { cause });
    this.name = 'CommitInterruptedError';
  }
}

/** Where a renderer writes a file itself, and where it also writes the file's `.br` and `.gz` copies when the sink wants them made there (compressing-sink.ts). */
export interface DirectTarget {
  file: string;
  /** Per encoding, in ENCODINGS' order (compression.ts). */
  copies?: string[];
}

export class MemorySink implements BuildSink {
  readonly files = new Map<string, Buffer>();
  /** The sink is the previous output (dev): a file it holds is as the previous render left it. */
  keep(rel: string): boolean {
    return this.files.has(rel);
  }
  /** No file of it is on disk. */
  previous(): null {
    return null;
  }
  /** Every file comes through `write`: the sink must hold its bytes. */
  directPath(): null {
    return null;
  }
  adopt(rel: string): void {
    throw new Error(`${rel} was written directly, but a memory sink gives no path to write to`);
  }
  async write(rel: string, data: string | Uint8Array): Promise<void> {
    this.files.set(rel, Buffer.from(data));
  }
  async copy(fromAbs: string, rel: string): Promise<void> {
    this.files.set(rel, await readFile(fromAbs));
  }
  text(rel: string): string {
    const file = this.files.get(rel);
    if (!file) throw new Error(`no output file ${rel}`);
    return file.toString('utf8');
  }
  json<T = unknown>(rel: string): T {
    return JSON.parse(this.text(rel)) as T;
  }
}

/**
 * Writes into a fresh staging folder next to the output folder, and changes the output
 * folder only in `commit`, so a failed build leaves the previous output exactly as it was.
 *
 * Without a record of the previous output (`before`), `commit` swaps the staging folder in with two
 * renames. With one (from the build cache), a file whose bytes are unchanged is
 * not written at all; `commit` moves only new and changed files into place and deletes the
 * files this build no longer makes, so a rebuild with nothing changed touches nothing.
 */
export class StagedDiskSink implements BuildSink {
  readonly staging: string;
  private readonly dirs = new Map<string, Promise<unknown>>();
  /** Every file of this build -> its digest (staged or kept). */
  private readonly digests = new Map<string, string>();
  private readonly staged = new Set<string>();
  /** Folders made synchronously for directPath. */
  private readonly madeDirs = new Set<string>();
  /** A commit in place stopped part-way: the staging folder is the journal's, kept for the next build. */
  private interrupted = false;
  /** Whether checkWritable passed: the commit need not check again. */
  private checkedWritable = false;

  /**
   * `intact`: the files of `before` known to be still as that build left them (incremental/intact-files.ts,
   * statted off the main thread); without it, each file is checked here when asked about.
   */
  readonly outDir: string;
  /** The output folder is a mount point: staged inside it, published in place (publishedFolder). */
  private readonly inside: boolean;

  constructor(
    outDir: string,
    private readonly before: Readonly<Record<string, FileState>> | null = null,
    private readonly intact: ReadonlyMap<string, FileState> | null = null,
  ) {
    const published = publishedFolder(outDir);
    const stamp = `${process.pid}-${Date.now().toString(36)}`;
    this.outDir = published.dir;
    this.inside = published.mountPoint;
    this.staging = this.inside ? path.join(this.outDir, `${INSIDE_STAGING}${stamp}`) : `${this.outDir}.staging-${stamp}`;
  }

  /**
   * The staging folder, made on the first write by a plain mkdir: a recursive one on a read-only
   * or full disk can fail with ENOENT (a parent it could not make), which hides the cause.
   */
  private stagingMade = false;
  private makeStaging(): void {
    if (this.stagingMade) return;
    try {
      mkdirSync(this.staging);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    this.stagingMade = true;
  }

  private async ensureDir(file: string): Promise<void> {
    this.makeStaging();
    const dir = path.dirname(file);
    if (!this.dirs.has(dir)) this.dirs.set(dir, mkdir(dir, { recursive: true }));
    await this.dirs.get(dir);
  }

  private resolve(rel: string): string {
    const file = path.resolve(this.staging, rel);
    if (!file.startsWith(this.staging + path.sep)) throw new Error(`refusing to write outside the output folder: ${rel}`);
    return file;
  }

  /** The previous build wrote these bytes here, and the file is still as it left it. */
  private unchanged(rel: string, digest: string): boolean {
    return this.before?.[rel]?.[0] === digest && this.stillThere(rel);
  }

  /** The previous build's file is as it left it. */
  private stillThere(rel: string): boolean {
    return this.stateNow(rel) !== null;
  }

  /** The state now of a file of the previous build that is as it left it (the intact files, or checked here); null otherwise. */
  private stateNow(rel: string): FileState | null {
    const before = this.before?.[rel];
    if (!before) return null;
    if (this.intact) return this.intact.get(rel) ?? null;
    if (!this.checked.has(rel)) {
      this.plainFile ??= plainFileReader(this.outDir);
      const now = this.plainFile(rel);
      this.checked.set(rel, now && stillAsLeft(before, now, this.outDir, rel) ? withChangeTime(before, now.ctimeMs) : null);
    }
    return this.checked.get(rel)!;
  }

  /** The check intactFiles makes (files/plain-files.ts), when it failed, and its findings. */
  private plainFile: ((rel: string) => Stats | null) | null = null;
  private readonly checked = new Map<string, FileState | null>();

  private previousFile(rel: string): string | null {
    return this.stillThere(rel) ? path.join(this.outDir, rel) : null;
  }

  previous(rel: string): string | null {
    this.resolve(rel);
    return this.previousFile(rel);
  }

  async write(rel: string, data: string | Uint8Array, digest = digestOf(data)): Promise<void> {
    const file = this.resolve(rel);
    await this.stage(rel, file, digest, () => writeFile(file, data));
  }

  async copy(fromAbs: string, rel: string): Promise<void> {
    const file = this.resolve(rel);
    const source = await stat(fromAbs);
    // A copy takes its source's mode (an executable PDF, a file only its owner reads): the
    // published file gets the mode every written file has, the umask's.
    await this.stage(rel, file, copyDigest(source, fromAbs), () => copyFile(fromAbs, file).then(() => chmod(file, WRITTEN_MODE)));
  }

  /** Records `digest` as `rel`'s, and stages the file by `make` unless the previous build left these bytes there. */
  private async stage(rel: string, file: string, digest: string, make: () => Promise<void>): Promise<void> {
    this.digests.set(rel, digest);
    if (this.unchanged(rel, digest)) return;
    this.staged.add(rel);
    await this.ensureDir(file);
    // A failed write (a full disk) names no path by itself: the person must know where.
    await make().catch((error: NodeJS.ErrnoException) => {
      error.path ??= file;
      throw error;
    });
  }

  keep(rel: string, digest: string | undefined): boolean {
    // Nothing is written: a path the previous build wrote (checked then) is claimed as it is.
    // Only another is checked here, so that a bad path still fails loudly.
    if (!this.before?.[rel] || digest === undefined) {
      this.resolve(rel);
      return false;
    }
    if (!this.unchanged(rel, digest)) return false;
    this.digests.set(rel, digest);
    return true;
  }

  /**
   * Only a file the previous build did not write: one it did may be unchanged, which `write`
   * checks. Its folder is made here, on the thread that hands out the paths (idle while the
   * workers render): two workers making thousands of folders in the same parent contend for
   * its lock.
   */
  directPath(rel: string): DirectTarget | null {
    const file = this.resolve(rel);
    if (this.before?.[rel]) return null;
    this.makeStaging();
    const dir = path.dirname(file);
    if (!this.madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    return { file };
  }

  adopt(rel: string, digest: string): void {
    this.resolve(rel);
    this.digests.set(rel, digest);
    this.staged.add(rel);
  }

  /**
   * Whether committing would change nothing: every file of the previous build claimed as it was,
   * none staged, none to delete. The output is then left as it is, and so is its record.
   */
  untouched(): boolean {
    if (!this.before || this.staged.size > 0) return false;
    const before = Object.keys(this.before);
    // A file whose change time moved (its bytes as they were) is kept, but its record must say so.
    return before.length === this.digests.size && before.every((rel) => this.digests.has(rel) && this.stateNow(rel)?.[3] === this.before![rel]![3]);
  }

  /** Publishes the build; returns the state of every output file, for the next build's `previous`. */
  async commit(): Promise<Record<string, FileState>> {
    await withSignalsHeld(async () => {
      if (this.before) await this.applyChanges(this.before);
      else if (this.inside) await this.applyChanges(await this.filesNow());
      else await this.swap();
    });
    // Kept files are known without a look: only the ones written are stat-ed (in a one-file edit,
    // a few dozen; in a cold build, every file). Synchronously: nothing else is left to run, and a
    // promise's round trip through the thread pool costs the main thread several stats' time.
    const rels = [...this.digests.keys()].sort();
    return Object.fromEntries(
      rels.map((rel): [string, FileState] => {
        const kept = this.staged.has(rel) ? null : this.stateNow(rel);
        if (kept) return [rel, kept];
        const now = statSync(path.join(this.outDir, rel));
        return [rel, [this.digests.get(rel)!, now.size, now.mtimeMs, now.ctimeMs]];
      }),
    );
  }

  /** What the output folder holds now (but staging folders): a commit in place without a record deletes what this build does not make. */
  private async filesNow(): Promise<Record<string, FileState>> {
    const entries = await readdir(this.outDir, { recursive: true, withFileTypes: true });
    const files: Record<string, FileState> = {};
    for (const entry of entries) {
      const rel = path.relative(this.outDir, path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name)).split(path.sep).join('/');
      if (!entry.isDirectory() && !rel.startsWith(INSIDE_STAGING)) files[rel] = ['', 0, 0, 0];
    }
    return files;
  }

  private async swap(): Promise<void> {
    await mkdir(this.staging, { recursive: true });
    const previous = `${this.outDir}.previous-${process.pid}`;
    await writeJournal(this.outDir, { mode: 'swap', staging: this.staging, previous });
    killPoint('journal-written');
    let hadPrevious = true;
    try {
      await rename(this.outDir, previous);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      hadPrevious = false;
    }
    killPoint('moved-aside');
    try {
      await rename(this.staging, this.outDir);
    } catch (error) {
      if (hadPrevious) await rename(previous, this.outDir);
      await clearJournal(this.outDir);
      throw error;
    }
    await clearJournal(this.outDir);
    if (hadPrevious) await removeLeftover(previous);
  }

  /**
   * Throws, before anything changes, when a folder that the commit in place would change cannot
   * be changed (read-only, immutable: placing.ts), so the output stays as it was. The commit
   * checks too; checked earlier, the build also keeps its record of the output.
   */
  checkWritable(): void {
    if (!this.before) return;
    checkFoldersWritable(this.outDir, [...this.staged, ...this.goneSince(this.before)]);
    this.checkedWritable = true;
  }

  /** The files of `previous` this build no longer makes. Only paths inside the output folder: the record is a file in the cache, and nothing outside is ours to delete. */
  private goneSince(previous: Readonly<Record<string, FileState>>): string[] {
    const inOutput = (rel: string) => path.resolve(this.outDir, rel).startsWith(path.resolve(this.outDir) + path.sep);
    return Object.keys(previous).filter((rel) => !this.digests.has(rel) && inOutput(rel));
  }

  private async applyChanges(previous: Readonly<Record<string, FileState>>): Promise<void> {
    const gone = this.goneSince(previous);
    const staged = [...this.staged];
    if (!this.checkedWritable) checkFoldersWritable(this.outDir, [...staged, ...gone]);
    await writeJournal(this.outDir, { mode: 'in-place', staging: this.staging, staged, gone });
    killPoint('journal-written');
    const placer = new OutputPlacer(this.outDir);
    try {
      staged.forEach((rel, i) => {
        placer.moveIn(path.join(this.staging, rel), rel);
        if (i + 1 === Math.ceil(staged.length / 2)) killPoint('half-moved');
      });
      for (const rel of gone) placer.remove(rel);
    } catch (error) {
      this.interrupted = true;
      throw new CommitInterruptedError(this.outDir, error);
    }
    await clearJournal(this.outDir);
    await removeEmptyParents(this.outDir, gone);
    await removeLeftover(this.staging);
  }

  async discard(): Promise<void> {
    if (this.interrupted) return;
    // A failed render may leave writes in flight (the first failure stops the build, not its other lanes): retried while they land.
    await rm(this.staging, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}

/** Folders emptied by deleted files go too (deepest first), up to the output folder. */
async function removeEmptyParents(outDir: string, removed: readonly string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const rel of removed) for (let dir = path.dirname(rel); dir !== '.' && dir !== ''; dir = path.dirname(dir)) dirs.add(dir);
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      if ((await readdir(path.join(outDir, dir))).length === 0) await rmdir(path.join(outDir, dir));
    } catch {
      // Already gone, or not a folder any more.
    }
  }
}
