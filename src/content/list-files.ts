// Every file under a folder, as sorted '/'-separated paths relative to it, leaving out names
// that start with a dot: what fast-glob's `**/*` (onlyFiles, no dot files) returns, from
// readdir alone. fast-glob spent 125-155 ms on its first walk of 8000 entry folders (most of
// it its matchers warming up) where this takes 40-60 ms, on every build.
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';

export function listFiles(dir: string): string[] {
  const found: string[] = [];
  // Real paths of the symlinked folders followed, so a link back up the tree ends the walk.
  const followed = new Set<string>();
  const walk = (abs: string, rel: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (error) {
      // The folder itself missing is an empty list; anything else (no permission) is a real problem.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && rel === '') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const childAbs = path.join(abs, entry.name);
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isFile()) found.push(childRel);
      else if (entry.isDirectory()) walk(childAbs, childRel);
      else if (entry.isSymbolicLink()) {
        // Followed like fast-glob does; a broken link is no file.
        const target = statSync(childAbs, { throwIfNoEntry: false });
        if (target?.isFile()) found.push(childRel);
        else if (target?.isDirectory()) {
          const real = realpathSync(childAbs);
          if (followed.has(real)) continue;
          followed.add(real);
          walk(childAbs, childRel);
        }
      }
    }
  };
  walk(dir, '');
  return found.sort();
}
