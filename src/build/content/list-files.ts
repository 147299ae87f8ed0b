// Every file under a folder, as sorted '/'-separated paths relative to it, leaving out names
// that start with a dot: what fast-glob's `**/*` (onlyFiles, no dot files) returns, from
// readdir alone, without the matchers fast-glob warms up on every first walk. A build with its
// cache takes the content folder's files from the walk it made before (build/up-to-date.ts).
import { readdirSync, readlinkSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../files/real-path.js';

/**
 * Where symbolic links may point: the real paths of the folders content may come from. A link
 * that resolves elsewhere (`photo.jpg -> /etc/passwd`) is left out and reported, never followed:
 * content is untrusted, and a followed link would publish the file it names.
 */
export interface LinkBounds {
  within: readonly string[];
  escaped(rel: string, target: string): void;
  /** A link that leads to no file: to nothing, or round a loop of links (`why`). */
  broken(rel: string, why: string): void;
}

export function listFiles(dir: string, bounds?: LinkBounds): string[] {
  const found: string[] = [];
  // Real paths of the symlinked folders followed, so a link back up the tree ends the walk.
  const followed = new Set<string>();
  const walk = (abs: string, rel: string) => {
    const join = (name: string) => (rel === '' ? name : `${rel}/${name}`);
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
      const childRel = join(entry.name);
      if (entry.isFile()) {
        found.push(childRel);
      } else if (entry.isDirectory()) {
        walk(childAbs, childRel);
      } else if (entry.isSymbolicLink()) {
        // Followed like fast-glob does. A link that leads nowhere is no file: without bounds
        // (ir-site's own code) it is left out; content is told about it, or about where it points.
        const target = linkTarget(childAbs);
        if (typeof target === 'string') {
          const written = path.resolve(abs, readlinkSync(childAbs));
          if (bounds && !isInside(written, bounds.within)) bounds.escaped(childRel, written);
          else bounds?.broken(childRel, target);
          continue;
        }
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
  };
  walk(dir, '');
  return found.sort();
}

/** What a link leads to, or why it leads to no file (ENOENT: to nothing; ELOOP: round a loop of links). */
function linkTarget(link: string): Stats | string {
  try {
    return statSync(link, { throwIfNoEntry: false }) ?? 'it points to nothing';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return 'it leads round a loop of links';
    throw error;
  }
}
