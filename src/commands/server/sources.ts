// Where the static handler reads files: a folder on disk (`serve`) or the memory sink
// of a dev build (`dev`). A source only answers for paths inside its root.
import { constants } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { MemorySink } from '../../build/emit/sink.js';
import { isInside } from '../../files/real-path.js';
import { codeOf } from '../../errors/thrown.js';
import { EtagCache, etagOf, etagOfFile } from './content-etag.js';

export interface SourceFile {
  size: number;
  /** Strong, from the bytes. */
  etag: string;
  lastModified?: Date;
  /**
   * Bytes `start` to `end` (inclusive) of the file as it was when `file()` found it, even if it
   * has been replaced or deleted since. A disk file's stream fails rather than come up short.
   */
  read(start: number, end: number): AsyncIterable<Buffer> | Buffer;
  /** Lets go of the file (a disk file's descriptor). Call it once the answer is done, sent or not; repeating is harmless. */
  close(): Promise<void>;
}

export interface FileSource {
  /** A regular file at this site path (`/a/b.css`), or null. */
  file(sitePath: string): Promise<SourceFile | null>;
  /** Whether this site path (no trailing slash) is a folder. */
  isDirectory(sitePath: string): Promise<boolean>;
}

/** The source cannot answer for now (its folder is being replaced, no file descriptors left): a 503, not a 404. */
export class SourceUnavailableError extends Error {}

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EISDIR', 'ENAMETOOLONG']);
const EXHAUSTED = new Set(['EMFILE', 'ENFILE']);

const STREAM_CHUNK = 64 * 1024;
// Never blocks on a FIFO someone left in the folder; never follows a symlink put in place of the
// file itself after realpath (a folder on the way is checked on the descriptor: openedPath).
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Where an open descriptor leads, from Linux's /proc; null where that cannot be told. realpath
 * and open each walk the path, so a folder swapped for a link between the two leads the open
 * elsewhere: what was opened is checked, not the path.
 */
async function openedPath(handle: FileHandle): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  return readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
}

class DiskFile implements SourceFile {
  readonly size: number;
  readonly lastModified: Date;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly handle: FileHandle,
    private readonly abs: string,
    info: { size: number; mtime: Date },
    readonly etag: string,
  ) {
    this.size = info.size;
    this.lastModified = info.mtime;
  }

  read(start: number, end: number): AsyncIterable<Buffer> {
    return this.chunks(start, end);
  }

  /** Positional reads from the descriptor opened with the stat: the bytes the headers describe. */
  private async *chunks(start: number, end: number): AsyncGenerator<Buffer> {
    try {
      for (let pos = start; pos <= end; ) {
        const length = Math.min(STREAM_CHUNK, end - pos + 1);
        const { bytesRead, buffer } = await this.handle.read(Buffer.allocUnsafe(length), 0, length, pos);
        // Written over in place while being sent: end the answer as broken, never short and complete.
        if (bytesRead === 0) throw new Error(`${this.abs} shrank to ${pos} bytes while it was being sent (${this.size} announced)`);
        yield bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
        pos += bytesRead;
      }
    } finally {
      await this.close();
    }
  }

  close(): Promise<void> {
    return (this.closing ??= this.handle.close().catch(() => undefined));
  }
}

export class DiskSource implements FileSource {
  readonly root: string;
  private rootReal: string | null = null;
  private readonly etags = new EtagCache();

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private async realRoot(again: boolean): Promise<string | null> {
    if (this.rootReal === null || again) this.rootReal = await realpath(this.root).catch(() => null);
    return this.rootReal;
  }

  /** The real path of a site path, if it exists and really lies inside the root (symlinks included); null otherwise. */
  private async resolve(sitePath: string): Promise<string | null> {
    const candidate = path.join(this.root, ...sitePath.split('/').filter(Boolean));
    if (!isInside(candidate, [this.root])) return null;
    let real: string;
    try {
      real = await realpath(candidate);
    } catch (error) {
      if (MISSING.has(codeOf(error))) return null;
      throw error;
    }
    return (await this.isInsideRoot(real)) ? real : null;
  }

  /** The root's real path is looked up again before refusing: a root that is a symlink may have been switched to a new release. */
  private async isInsideRoot(real: string): Promise<boolean> {
    const inside = (root: string | null) => root !== null && isInside(real, [root]);
    return inside(await this.realRoot(false)) || inside(await this.realRoot(true));
  }

  /**
   * After a miss: throws SourceUnavailableError while the root folder is missing (a build is
   * between the two renames that swap a new folder in). Once it is there again, the lookup is
   * worth one more try: the miss may have been of the old folder, on its way out.
   */
  private async ensureRoot(): Promise<void> {
    const info = await stat(this.root).catch(() => null);
    if (!info?.isDirectory()) throw new SourceUnavailableError(`${this.root} is missing (a build may be replacing it)`);
  }

  async file(sitePath: string): Promise<SourceFile | null> {
    const found = await this.openFile(sitePath);
    if (found !== undefined) return found;
    await this.ensureRoot();
    return (await this.openFile(sitePath)) ?? null;
  }

  /** The file; null when the path is something else; undefined when nothing is there. */
  private async openFile(sitePath: string): Promise<SourceFile | null | undefined> {
    const real = await this.resolve(sitePath);
    if (!real) return undefined;
    // Open first, then stat the descriptor: size, time and bytes all belong to the same file,
    // even if a build renames another one over this path a moment later.
    let handle: FileHandle;
    try {
      handle = await open(real, OPEN_FLAGS);
    } catch (error) {
      if (MISSING.has(codeOf(error))) return undefined;
      if (EXHAUSTED.has(codeOf(error))) throw new SourceUnavailableError(`cannot open ${real}: ${(error as Error).message}`);
      throw error;
    }
    try {
      // Led out of the root on the way (or the file moved out, with an old output set aside): not
      // this site's file. Undefined, so the caller looks once more.
      const opened = await openedPath(handle);
      if (opened !== null && !(await this.isInsideRoot(opened))) {
        await handle.close();
        return undefined;
      }
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      const etag = await this.etags.get(real, info, () => etagOfFile(handle, info.size));
      return new DiskFile(handle, real, info, etag);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  async isDirectory(sitePath: string): Promise<boolean> {
    const found = await this.isDirectoryNow(sitePath);
    if (found !== undefined) return found;
    await this.ensureRoot();
    return (await this.isDirectoryNow(sitePath)) ?? false;
  }

  private async isDirectoryNow(sitePath: string): Promise<boolean | undefined> {
    const real = await this.resolve(sitePath);
    const info = real ? await stat(real).catch(() => null) : null;
    return info ? info.isDirectory() : undefined;
  }
}

export class MemorySource implements FileSource {
  private etags = new WeakMap<Buffer, string>();

  /** A function, because dev replaces its sink whole on a full rebuild. */
  constructor(private readonly current: () => MemorySink) {}

  async file(sitePath: string): Promise<SourceFile | null> {
    const data = this.current().files.get(sitePath.replace(/^\/+/, ''));
    if (!data) return null;
    let etag = this.etags.get(data);
    if (!etag) this.etags.set(data, (etag = etagOf(data)));
    return { size: data.length, etag, read: (start, end) => data.subarray(start, end + 1), close: async () => undefined };
  }

  async isDirectory(sitePath: string): Promise<boolean> {
    const prefix = `${sitePath.replace(/^\/+|\/+$/g, '')}/`;
    for (const key of this.current().files.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }
}
