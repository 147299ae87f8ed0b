// Files moved into the output folder in place, and the files a build no longer makes deleted
// from it (the sink's commit, and its replay from a journal). Someone may have put something of
// another kind where the build's file or folder goes: a folder where a file goes, a file where a
// folder goes, a link anywhere on the way. It is replaced as a hand-edited file is, so the
// output is what a build into an empty folder writes; a link is removed, never followed: it may
// point at the site's sources. The kind is checked once per folder, and for a file only when its
// rename fails: a warm build moves thousands of files.
import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Why a rename of a file fails when a folder is where it goes. */
const FOLDER_IN_THE_WAY = new Set(['EISDIR', 'ENOTEMPTY', 'EEXIST']);

const lstatOrNull = (file: string) =>
  lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });

export class OutputPlacer {
  /** Folders (relative) this commit made plain: each is checked, and made, once. */
  private readonly made = new Map<string, Promise<void>>();
  /** Folders (relative) on the way to deleted files: whether each is a plain folder. */
  private readonly onTheWay = new Map<string, Promise<boolean>>();

  constructor(private readonly outDir: string) {}

  /** Moves the file at `from` to `rel`, replacing whatever is there. */
  async moveIn(from: string, rel: string): Promise<void> {
    await this.folder(path.posix.dirname(rel));
    const to = path.join(this.outDir, rel);
    try {
      await rename(from, to);
    } catch (error) {
      if (!FOLDER_IN_THE_WAY.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      await rm(to, { recursive: true, force: true });
      await rename(from, to);
    }
  }

  /**
   * Deletes `rel`, a file the build no longer makes. Not through a link: what stands where one of
   * the folders on its way was (a link, a file) is removed itself. A folder this commit put at
   * `rel` (where a link was, in a folder published without a record) stays.
   */
  async remove(rel: string): Promise<void> {
    if (this.made.has(rel) || !(await this.plainWay(path.posix.dirname(rel)))) return;
    await rm(path.join(this.outDir, rel), { recursive: true, force: true });
  }

  /** Makes `rel` a plain folder, and each folder on the way to it. */
  private folder(rel: string): Promise<void> {
    if (rel === '.' || rel === '') return Promise.resolve();
    let made = this.made.get(rel);
    if (!made) {
      made = this.makeFolder(rel);
      this.made.set(rel, made);
    }
    return made;
  }

  private async makeFolder(rel: string): Promise<void> {
    await this.folder(path.posix.dirname(rel));
    const at = path.join(this.outDir, rel);
    const own = await lstatOrNull(at);
    if (own?.isDirectory()) return;
    if (own) await rm(at, { force: true });
    await mkdir(at);
  }

  /** Whether `rel` is a plain folder, each on the way too; what is there instead of one is removed. */
  private plainWay(rel: string): Promise<boolean> {
    if (rel === '.' || rel === '' || this.made.has(rel)) return Promise.resolve(true);
    let known = this.onTheWay.get(rel);
    if (!known) {
      known = (async () => {
        if (!(await this.plainWay(path.posix.dirname(rel)))) return false;
        const at = path.join(this.outDir, rel);
        const own = await lstatOrNull(at);
        if (own && !own.isDirectory()) await rm(at, { force: true });
        return own?.isDirectory() === true;
      })();
      this.onTheWay.set(rel, known);
    }
    return known;
  }
}
