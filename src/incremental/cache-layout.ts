// The build cache's folders, as ir-site makes them. Something else where one of them goes (a
// file made by hand, a link) would fail every write to it, and the image stage
// cannot work without its folder. The cache is ir-site's: such an entry is removed before the
// build reads the cache.
import { lstat, rm } from 'node:fs/promises';
import path from 'node:path';

const FOLDERS = ['build', 'build/search', 'images'];

export async function clearCacheFolders(cacheDir: string): Promise<void> {
  for (const rel of FOLDERS) {
    const at = path.join(cacheDir, rel);
    // lstat: a link is not followed. One to another folder (the output's, say) would have the
    // cache write and prune there; the link alone is removed.
    const info = await lstat(at).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : 'unusable'));
    if (info === 'unusable' || (info && !info.isDirectory())) await rm(at, { force: true });
  }
}
