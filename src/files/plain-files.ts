// Inside the output folder only what a build made is trusted: a link put there by hand would have
// a check read (and a later write land) wherever it points, the site's sources say, and a folder
// or file of the other kind is not what the build recorded. The link to the output folder
// itself is followed (emit/journal.ts, publishedFolder): only what is inside it is judged.
import { lstatSync, readFileSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * A reader of files under `root` (paths relative to it, with `/`): a file's lstat when it is a
 * plain file and every folder on the way to it a plain folder, null otherwise. Each folder is
 * checked once, so a check of many files costs about one lstat a file, as a stat would.
 */
export function plainFileReader(root: string): (rel: string) => Stats | null {
  const folders = new Map<string, boolean>();
  // Joined and split by hand: path.join and dirname cost as much as the folders' lstats, for every file of a build.
  const base = root.endsWith(path.sep) ? root : root + path.sep;
  const parentOf = (rel: string) => rel.slice(0, Math.max(0, rel.lastIndexOf('/')));
  const lstatOf = (rel: string) => {
    try {
      return lstatSync(base + rel, { throwIfNoEntry: false }) ?? null;
    } catch {
      return null; // ENOTDIR, ELOOP, EACCES: not a plain path either
    }
  };
  const isFolder = (rel: string): boolean => {
    if (rel === '') return true;
    let known = folders.get(rel);
    if (known === undefined) {
      known = isFolder(parentOf(rel)) && lstatOf(rel)?.isDirectory() === true;
      folders.set(rel, known);
    }
    return known;
  };
  return (rel) => {
    if (!isFolder(parentOf(rel))) return null;
    const own = lstatOf(rel);
    return own?.isFile() ? own : null;
  };
}

/** A file's bytes, or null when it cannot be read (gone, a folder now, no permission). */
export function bytesOrNull(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}
