// Where output goes: a folder on disk (build) or memory (tests, dev). Stage 5 writes
// only through a sink.
import { copyFile, mkdir, rename, rm, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface OutputSink {
  /** `rel` is a site path without its leading slash: `article/x/index.html`. */
  write(rel: string, data: string | Uint8Array): Promise<void>;
  copy(fromAbs: string, rel: string): Promise<void>;
}

export class MemorySink implements OutputSink {
  readonly files = new Map<string, Buffer>();
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
 * Writes into a fresh staging folder next to the output folder; `commit` swaps it in
 * with renames, so a failed build leaves the previous output exactly as it was.
 */
export class StagedDiskSink implements OutputSink {
  readonly staging: string;
  private readonly dirs = new Set<string>();

  constructor(readonly outDir: string) {
    this.staging = `${outDir}.staging-${process.pid}-${Date.now().toString(36)}`;
  }

  private async ensureDir(file: string): Promise<void> {
    const dir = path.dirname(file);
    if (this.dirs.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.dirs.add(dir);
  }

  private resolve(rel: string): string {
    const file = path.resolve(this.staging, rel);
    if (!file.startsWith(this.staging + path.sep)) throw new Error(`refusing to write outside the output folder: ${rel}`);
    return file;
  }

  async write(rel: string, data: string | Uint8Array): Promise<void> {
    const file = this.resolve(rel);
    await this.ensureDir(file);
    await writeFile(file, data);
  }

  async copy(fromAbs: string, rel: string): Promise<void> {
    const file = this.resolve(rel);
    await this.ensureDir(file);
    await copyFile(fromAbs, file);
  }

  async commit(): Promise<void> {
    await mkdir(this.staging, { recursive: true });
    const previous = `${this.outDir}.previous-${process.pid}`;
    let hadPrevious = true;
    try {
      await rename(this.outDir, previous);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      hadPrevious = false;
    }
    try {
      await rename(this.staging, this.outDir);
    } catch (error) {
      if (hadPrevious) await rename(previous, this.outDir);
      throw error;
    }
    if (hadPrevious) await rm(previous, { recursive: true, force: true });
  }

  async discard(): Promise<void> {
    await rm(this.staging, { recursive: true, force: true });
  }
}
