// What the last successful build left in an output folder: every file with its content
// digest, size and modification time, and every page with the key it was rendered from.
// The next build compares against it to render only pages whose key changed and to leave
// files whose bytes did not change alone. Kept in the cache, one per output folder.
import { createHash } from 'node:crypto';
import { open, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomically } from './atomic-write.js';
import type { FileState } from '../build/emit/digest.js';

export interface OutputManifest {
  format: 1;
  outDir: string;
  files: Record<string, FileState>;
  /** Page path -> the key it was rendered with. */
  pages: Record<string, string>;
  /** Page path -> key of the markdown body its page data holds (previous-body.ts). */
  bodies: Record<string, string>;
  /** The key of the graph's inputs (graph-key.ts), and for that graph each page's routeDataKey; absent when unknown. */
  graph?: { key: string; dataKeys: Record<string, string> };
}

export function manifestFile(cacheDir: string, outDir: string): string {
  const id = createHash('sha256').update(path.resolve(outDir)).digest('hex').slice(0, 12);
  return path.join(cacheDir, 'build', `output-${id}.json`);
}

/** The manifest, or null when there is none or it describes another folder (then the build starts clean). */
export async function readManifest(file: string, outDir: string): Promise<OutputManifest | null> {
  try {
    const manifest = JSON.parse(await readFile(file, 'utf8')) as OutputManifest;
    return manifest.format === 1 && manifest.outDir === path.resolve(outDir) ? manifest : null;
  } catch {
    return null;
  }
}

export async function writeManifest(file: string, manifest: OutputManifest): Promise<void> {
  // `format` and `outDir` first: pruneManifests reads the folder from the first bytes.
  const { format, outDir, ...rest } = manifest;
  await writeAtomically(file, JSON.stringify({ format, outDir, ...rest }));
}

/**
 * Removes the manifests of output folders that no longer exist (a temporary `--out`, a
 * folder deleted by hand): one ~3 MB file each at 4000 articles, which nothing would read
 * again. A manifest's folder is in its first bytes (`{"format":1,"outDir":"..."`).
 */
export async function pruneManifests(cacheDir: string): Promise<void> {
  const dir = path.join(cacheDir, 'build');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((f) => /^output-[0-9a-f]+\.json$/.test(f));
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const outDir = await outDirOf(file);
      if (outDir !== null && !(await stat(outDir).then(() => true, () => false))) await rm(file, { force: true });
    }),
  );
}

async function outDirOf(file: string): Promise<string | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const head = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const match = /^\{"format":1,"outDir":("(?:[^"\\]|\\.)*")/.exec(head.subarray(0, bytesRead).toString('utf8'));
    return match ? (JSON.parse(match[1]!) as string) : null;
  } finally {
    await handle.close();
  }
}

/** Forgotten before an output folder is changed in place: if that is interrupted, the next build starts clean. */
export async function forgetManifest(file: string): Promise<void> {
  await rm(file, { force: true });
}
