// Files moved into the output folder in place, and the files a build no longer makes deleted
// from it (the sink's commit, and its replay from a journal). Someone may have put something of
// another kind where the build's file or folder goes: a folder where a file goes, a file where a
// folder goes, a link anywhere on the way. It is replaced as a hand-edited file is, so the
// output is what a build into an empty folder writes; a link is removed, never followed: it may
// point at the site's sources. The kind is checked once per folder, and for a file only when its
// rename fails: a warm build moves thousands of files. Synchronously: a commit has nothing else
// to run, and a promise per file cost a rewrite of every page (72k files at 4000 articles per
// language) more than a second of the main thread.
import { accessSync, constants, lstatSync, mkdirSync, renameSync, rmSync, type Stats } from 'node:fs';
import path from 'node:path';

/** Why a rename of a file fails when a folder is where it goes. */
const FOLDER_IN_THE_WAY = new Set(['EISDIR', 'ENOTEMPTY', 'EEXIST']);

const lstatOrNull = (file: string): Stats | null => lstatSync(file, { throwIfNoEntry: false }) ?? null;

export class OutputPlacer {
  /** Folders (relative) this commit made plain: each is checked, and made, once. */
  private readonly made = new Set<string>();
  /** Folders (relative) on the way to deleted files: whether each is a plain folder. */
  private readonly onTheWay = new Map<string, boolean>();

  constructor(private readonly outDir: string) {}

  /** Moves the file at `from` to `rel`, replacing whatever is there. */
  moveIn(from: string, rel: string): void {
    this.folder(path.posix.dirname(rel));
    const to = path.join(this.outDir, rel);
    try {
      renameSync(from, to);
    } catch (error) {
      if (!FOLDER_IN_THE_WAY.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      rmSync(to, { recursive: true, force: true });
      renameSync(from, to);
    }
  }

  /**
   * Deletes `rel`, a file the build no longer makes. Not through a link: what stands where one of
   * the folders on its way was (a link, a file) is removed itself. A folder this commit put at
   * `rel` (where a link was, in a folder published without a record) stays.
   */
  remove(rel: string): void {
    if (this.made.has(rel) || !this.plainWay(path.posix.dirname(rel))) return;
    rmSync(path.join(this.outDir, rel), { recursive: true, force: true });
  }

  /** Makes `rel` a plain folder, and each folder on the way to it. */
  private folder(rel: string): void {
    if (rel === '.' || rel === '' || this.made.has(rel)) return;
    this.folder(path.posix.dirname(rel));
    const at = path.join(this.outDir, rel);
    const own = lstatOrNull(at);
    if (!own?.isDirectory()) {
      if (own) rmSync(at, { force: true });
      mkdirSync(at);
    }
    this.made.add(rel);
  }

  /** Whether `rel` is a plain folder, each on the way too; what is there instead of one is removed. */
  private plainWay(rel: string): boolean {
    if (rel === '.' || rel === '' || this.made.has(rel)) return true;
    let known = this.onTheWay.get(rel);
    if (known === undefined) {
      known = false;
      if (this.plainWay(path.posix.dirname(rel))) {
        const at = path.join(this.outDir, rel);
        const own = lstatOrNull(at);
        if (own && !own.isDirectory()) rmSync(at, { force: true });
        known = own?.isDirectory() === true;
      }
      this.onTheWay.set(rel, known);
    }
    return known;
  }
}

/**
 * Throws the system's error (EACCES, EPERM, EROFS) for the first folder of the output that moving
 * in or deleting `rels` would change and that cannot be changed (read-only, immutable): checked
 * before anything moves, so such a folder leaves the output as it was rather than part-updated.
 * For a folder still to be made, the nearest one that exists is the one that changes.
 */
export function checkFoldersWritable(outDir: string, rels: Iterable<string>): void {
  const checked = new Set<string>();
  for (const rel of rels) {
    for (let dir = path.posix.dirname(rel); !checked.has(dir); dir = path.posix.dirname(dir)) {
      checked.add(dir);
      const at = path.join(outDir, dir);
      if (lstatOrNull(at)?.isDirectory()) {
        accessSync(at, constants.W_OK);
        break;
      }
      if (dir === '.') break;
    }
  }
}
