// Where a build publishes: the output folder as it is on disk. Kept apart from the journal so that
// the up-to-date check, which needs only this, loads nothing of the commit.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The folder a build publishes into: the output folder, or the folder it links to (the link
 * stays a link); and whether it is a mount point (a container's volume, a disk of its own),
 * which cannot be renamed or replaced, and where the staging folder goes inside it so that
 * publishing is renames on one file system.
 */
export function publishedFolder(outDir: string): { dir: string; mountPoint: boolean } {
  const resolved = path.resolve(outDir);
  let dir = resolved;
  try {
    dir = realpathSync(resolved);
  } catch {
    // Not there yet: named through its parent's real path, as it will be once made (its lock and journal too).
    try {
      return { dir: path.join(realpathSync(path.dirname(resolved)), path.basename(resolved)), mountPoint: false };
    } catch {
      return { dir, mountPoint: false };
    }
  }
  const own = statSync(dir, { throwIfNoEntry: false });
  const parent = statSync(path.dirname(dir), { throwIfNoEntry: false });
  return { dir, mountPoint: own !== undefined && parent !== undefined && own.isDirectory() && own.dev !== parent.dev };
}
