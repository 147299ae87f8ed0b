// The digest of an output file's bytes (SHA-256, shortened to 128 bits: plenty for telling files
// apart). The sink records it for every file it writes; the build cache keys by it too.
import crypto from 'node:crypto';
import path from 'node:path';
import type { FileTimes } from './file-times.js';
import { bytesOrNull } from './plain-files.js';

/**
 * SHA-256 in hex. Node's one-shot `crypto.hash` (20.12 and later) is cheaper per call than a
 * Hash object, which counts at the tens of thousands of digests and keys of a large build.
 */
export const sha256: (data: string | Uint8Array) => string =
  typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'hex') : (data) => crypto.createHash('sha256').update(data).digest('hex');

/** Digest of a file's bytes. */
export const digestOf = (data: string | Uint8Array): string => sha256(data).slice(0, 32);

/**
 * A file the output gets as it is (a published document, a processed image), by its size and
 * times: the sink keeps such a copy, and the output key counts it, by this one rule.
 */
export const copiedState = (file: FileTimes): string => `${file.size}:${file.mtimeMs}:${file.ctimeMs}`;

/** What the sink records for a copy of `fromAbs` (`source`: its stat): its source and the source's state, not its bytes. */
export const copyDigest = (source: FileTimes, fromAbs: string): string => `copy:${copiedState(source)}:${fromAbs}`;

/** The file a copy was made from, by its record (copyDigest); null for a file written from bytes. */
const copySource = (digest: string): string | null => /^copy:[^:]*:[^:]*:[^:]*:(.*)$/s.exec(digest)?.[1] ?? null;

/** Digest, size, modification and change times (ms) of an output file as a build left it. */
export type FileState = [digest: string, size: number, mtimeMs: number, ctimeMs: number];

/** `state` with the change time it has now (stillAsLeft found its bytes as they were). */
export const withChangeTime = ([digest, size, mtimeMs]: FileState, ctimeMs: number): FileState => [digest, size, mtimeMs, ctimeMs];

/**
 * Whether the output file `rel` under `outDir` is as a build left it (`state`), given its size
 * and times now (the path is joined only when the bytes must be read).
 * When only its change time moved (a chmod, a hard link a deploy made, or an edit whose
 * modification time was put back: no tool can set the change time), its bytes decide, as git
 * decides: those the digest names, or for a copy, its source's.
 */
export function stillAsLeft(state: FileState, now: FileTimes, outDir: string, rel: string): boolean {
  const [digest, size, mtimeMs, ctimeMs] = state;
  if (now.size !== size || now.mtimeMs !== mtimeMs) return false;
  if (now.ctimeMs === ctimeMs) return true;
  const data = bytesOrNull(path.join(outDir, rel));
  if (data === null) return false;
  const source = copySource(digest);
  if (source === null) return digestOf(data) === digest;
  const original = bytesOrNull(source);
  return original !== null && Buffer.compare(data, original) === 0;
}
