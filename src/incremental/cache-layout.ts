// The build cache's folders, as ir-site makes them. Something else where one of them goes (a
// file made by hand, a link to nowhere) would fail every write to it, and the image stage
// cannot work without its folder. The cache is ir-site's: such an entry is removed before the
// build reads the cache.
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';

const FOLDERS = ['build', 'build/search', 'images'];

export async function clearCacheFolders(cacheDir: string): Promise<void> {
  for (const rel of FOLDERS) {
    const at = path.join(cacheDir, rel);
    const info = await stat(at).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : 'unusable'));
    if (info === 'unusable' || (info && !info.isDirectory())) await rm(at, { force: true });
  }
}
