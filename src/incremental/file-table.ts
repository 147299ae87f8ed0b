// Files and their states in columns, and the stat of a share of them: what the up-to-date record
// and the output manifest hold (up-to-date.ts, output-manifest.ts), and what the output files'
// helper thread does (output-stats-worker.ts), which loads nothing else (no zod: the checks here
// are typeof tests).
import type { Guard } from '../files/payload-shape.js';
import { plainFileReader } from '../files/plain-files.js';

/**
 * Files and their states: for the name at i, its size, modification and change times (ms) at
 * 3i, 3i+1 and 3i+2. Read on every build with nothing to do, so it is kept in the form v8
 * decodes fastest.
 */
export interface FileTable {
  names: string[];
  times: Float64Array;
}

/** Whether `v` is an array of strings with no holes (v8's codec keeps holes, which `every` skips). */
export const isDenseStrings = (v: unknown): v is string[] => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
};

/** A FileTable's shape, for a cache payload's check (payload-shape.ts). */
export const isFileTable: Guard<FileTable> = (v): v is FileTable => {
  const table = v as Partial<FileTable> | null;
  return typeof table === 'object' && table !== null && isDenseStrings(table.names) && table.times instanceof Float64Array && table.times.length === 3 * table.names.length;
};

/** Builds a FileTable a file at a time. */
export class TableBuilder {
  private readonly names: string[] = [];
  private readonly times: number[] = [];

  add(name: string, size: number, mtimeMs: number, ctimeMs: number): void {
    this.names.push(name);
    this.times.push(size, mtimeMs, ctimeMs);
  }

  table(): FileTable {
    return { names: this.names, times: Float64Array.from(this.times) };
  }
}

/** Whether every file of `table` is in the state `now` holds for it (statShares: NaN for one that is not a plain file matches none). */
export function allAsRecorded(table: FileTable, now: Float64Array): boolean {
  if (now.length !== table.times.length) return false;
  for (let i = 0; i < now.length; i++) if (now[i] !== table.times[i]) return false;
  return true;
}

/**
 * The state now of each of `names` (paths relative to `root`) into `now`: its size, modification
 * and change times at 3i, 3i+1 and 3i+2, or NaN for a file that is not a plain file reached
 * through plain folders (files/plain-files.ts). It takes shares of `SHARE` files from `next`,
 * shared with another thread doing the same, until all are taken.
 */
export function statShares(names: readonly string[], root: string, next: Int32Array, now: Float64Array): void {
  const plainFile = plainFileReader(root);
  const count = names.length;
  for (let from = Atomics.add(next, 0, SHARE); from < count; from = Atomics.add(next, 0, SHARE)) {
    for (let i = from; i < Math.min(from + SHARE, count); i++) {
      const stats = plainFile(names[i]!);
      now[3 * i] = stats ? stats.size : Number.NaN;
      now[3 * i + 1] = stats ? stats.mtimeMs : Number.NaN;
      now[3 * i + 2] = stats ? stats.ctimeMs : Number.NaN;
    }
  }
}

/** Files checked per share: small enough to balance two threads, large enough that taking one costs nothing. */
const SHARE = 256;
