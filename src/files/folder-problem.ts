// A path where ir-site must find or make a folder (the output folder, the cache folder) that holds
// something else, which only a person or another program put there: ir-site says so, naming the
// path, rather than fail later with a raw ENOTDIR or EEXIST from deep inside a write.
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Why `dir` cannot be used as a folder, or null (a folder, a link to one, or nothing yet): a
 * file is there, a link to a file or to nothing, links in a loop, or a file is on its path.
 */
export function folderProblem(dir: string): string | null {
  const resolved = path.resolve(dir);
  try {
    const own = lstatSync(resolved);
    if (own.isDirectory()) return null;
    if (!own.isSymbolicLink()) return `${resolved} is a file, not a folder`;
    return statSync(resolved).isDirectory() ? null : `${resolved} is a link to a file, not to a folder`;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') return lstatSync(resolved, { throwIfNoEntry: false }) ? `${resolved} is a link to nothing` : null;
    if (code === 'ELOOP') return `${resolved} is a link in a loop of links`;
    if (code === 'ENOTDIR') return `a file is on the way to ${resolved}`;
    return null; // the caller's own writes will say what is wrong
  }
}
