// Every file under a folder, as sorted '/'-separated paths relative to it, leaving out names
// that start with a dot: what fast-glob's `**/*` (onlyFiles, no dot files) returns, from
// readdir alone, without the matchers fast-glob warms up on every first walk.
//
// With `listings` (the build cache), a folder whose modification time is the one recorded with
// its listing is not read again: adding, removing or renaming anything in a folder changes its
// time, and a stat is cheaper than a readdir.
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../files/real-path.js';

/** A folder's files and subfolders, by name (dot names left out). */
export interface FolderListing {
  files: string[];
  folders: string[];
}

/** A folder's modification and change times: a name added or removed moves both; a time put back moves the change time. */
export interface FolderTimes {
  mtimeMs: number;
  ctimeMs: number;
}

/** Folder listings by their folder's times (incremental/front-matter-cache.ts keeps them). */
export interface FolderListings {
  /** The listing recorded for `dir` at these times, when it can be trusted; null otherwise. */
  listing(dir: string, times: FolderTimes): FolderListing | null;
  rememberListing(dir: string, times: FolderTimes, listing: FolderListing): void;
}

/**
 * Where symbolic links may point: the real paths of the folders content may come from. A link
 * that resolves elsewhere (`photo.jpg -> /etc/passwd`) is left out and reported, never followed:
 * content is untrusted, and a followed link would publish the file it names.
 */
export interface LinkBounds {
  within: readonly string[];
  escaped(rel: string, target: string): void;
}

export function listFiles(dir: string, listings?: FolderListings, bounds?: LinkBounds): string[] {
  const found: string[] = [];
  // Real paths of the symlinked folders followed, so a link back up the tree ends the walk.
  const followed = new Set<string>();
  const walk = (abs: string, rel: string) => {
    const join = (name: string) => (rel === '' ? name : `${rel}/${name}`);
    const times = listings ? statSync(abs, { throwIfNoEntry: false }) : undefined;
    const known = times === undefined ? null : listings!.listing(abs, times);
    if (known) {
      for (const name of known.files) found.push(join(name));
      for (const name of known.folders) walk(path.join(abs, name), join(name));
      return;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (error) {
      // The folder itself missing is an empty list; anything else (no permission) is a real problem.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && rel === '') return;
      throw error;
    }
    const listing: FolderListing | null = times === undefined ? null : { files: [], folders: [] };
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const childAbs = path.join(abs, entry.name);
      const childRel = join(entry.name);
      if (entry.isFile()) {
        found.push(childRel);
        listing?.files.push(entry.name);
      } else if (entry.isDirectory()) {
        listing?.folders.push(entry.name);
        walk(childAbs, childRel);
      } else if (entry.isSymbolicLink()) {
        // Followed like fast-glob does; a broken link is no file. What a link points to can
        // change without the folder changing: a folder with links is not remembered (below).
        const target = statSync(childAbs, { throwIfNoEntry: false });
        if (!target) continue;
        const real = realpathSync(childAbs);
        if (bounds && !isInside(real, bounds.within)) {
          bounds.escaped(childRel, real);
          continue;
        }
        if (target.isFile()) found.push(childRel);
        else if (target.isDirectory()) {
          if (followed.has(real)) continue;
          followed.add(real);
          walk(childAbs, childRel);
        }
      }
    }
    if (listing && !entries.some((entry) => entry.isSymbolicLink())) listings!.rememberListing(abs, times!, listing);
  };
  walk(dir, '');
  return found.sort();
}
