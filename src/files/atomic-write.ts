// Every cache file is written under a temporary name and renamed into place: another build
// of the same site may be reading it, and an interrupted write must never leave half a file
// that a later build would take for a whole one.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** `data`: a text, bytes, or bytes in parts (written one after the other, not joined first). */
export async function writeAtomically(file: string, data: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true }).catch(async (error: NodeJS.ErrnoException) => {
    // A recursive mkdir that cannot make a folder (a read-only disk) says ENOENT; a plain one says why.
    if (error.code !== 'ENOENT') throw error;
    await mkdir(path.dirname(file));
  });
  const temp = `${file}.${process.pid}`;
  await writeFile(temp, data);
  await rename(temp, file);
}
