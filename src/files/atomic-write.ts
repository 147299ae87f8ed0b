// Every cache file is written under a temporary name and renamed into place: another build
// of the same site may be reading it, and an interrupted write must never leave half a file
// that a later build would take for a whole one.
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What a temporary file's name adds to the file's: `.<pid>-<n>`, unique per write, since two
 * writes of one file may overlap in one process (and `.<pid>` as earlier versions wrote it).
 */
export const TEMP_SUFFIX = String.raw`\.\d+(?:-\d+)?$`;
let writes = 0;

/**
 * `data`: a text, bytes, or bytes in parts (written one after the other, not joined first). A
 * folder where the file goes (left by hand, or by another program) is removed: the path is
 * ir-site's.
 */
export async function writeAtomically(file: string, data: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  try {
    await writeInPlace(file, data);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EISDIR' || !(await stat(file).then((s) => s.isDirectory(), () => false))) throw error;
    await rm(file, { recursive: true, force: true });
    await writeInPlace(file, data);
  }
}

async function writeInPlace(file: string, data: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true }).catch(async (error: NodeJS.ErrnoException) => {
    // A recursive mkdir that cannot make a folder (a read-only disk) says ENOENT; a plain one says why.
    if (error.code !== 'ENOENT') throw error;
    await mkdir(path.dirname(file));
  });
  const temp = `${file}.${process.pid}-${++writes}`;
  try {
    await writeFile(temp, data);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
