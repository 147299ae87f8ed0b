// Where the static handler reads files: a folder on disk (`serve`) or the memory sink
// of a dev build (`dev`). A source only answers for paths inside its root.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { MemorySink } from '../emit/sink.js';

export interface SourceFile {
  size: number;
  etag: string;
  lastModified?: Date;
  body(): Readable | Buffer;
}

export interface FileSource {
  /** A regular file at this site path (`/a/b.css`), or null. */
  file(sitePath: string): Promise<SourceFile | null>;
  /** Whether this site path (no trailing slash) is a folder. */
  isDirectory(sitePath: string): Promise<boolean>;
}

export class DiskSource implements FileSource {
  private rootReal: Promise<string>;

  constructor(readonly root: string) {
    this.rootReal = realpath(root);
  }

  /** The real path of a site path, if it exists and really lies inside the root (symlinks included). */
  private async resolve(sitePath: string): Promise<{ abs: string; isFile: boolean; size: number; mtime: Date } | null> {
    const root = await this.rootReal;
    const candidate = path.join(root, ...sitePath.split('/').filter(Boolean));
    if (candidate !== root && !candidate.startsWith(root + path.sep)) return null;
    try {
      const real = await realpath(candidate);
      if (real !== root && !real.startsWith(root + path.sep)) return null;
      const info = await stat(real);
      return { abs: real, isFile: info.isFile(), size: info.size, mtime: info.mtime };
    } catch {
      return null;
    }
  }

  async file(sitePath: string): Promise<SourceFile | null> {
    const found = await this.resolve(sitePath);
    if (!found?.isFile) return null;
    return {
      size: found.size,
      etag: `"${found.size.toString(16)}-${found.mtime.getTime().toString(16)}"`,
      lastModified: found.mtime,
      body: () => createReadStream(found.abs),
    };
  }

  async isDirectory(sitePath: string): Promise<boolean> {
    const found = await this.resolve(sitePath);
    return found !== null && !found.isFile;
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
    if (!etag) {
      etag = `"${createHash('sha1').update(data).digest('base64url')}"`;
      this.etags.set(data, etag);
    }
    return { size: data.length, etag, body: () => data };
  }

  async isDirectory(sitePath: string): Promise<boolean> {
    const prefix = `${sitePath.replace(/^\/+|\/+$/g, '')}/`;
    for (const key of this.current().files.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }
}
