// Files and their states in columns, and the check of a share of them against a folder: what
// the up-to-date record and the output manifest hold (up-to-date.ts, output-manifest.ts), and
// what the up-to-date check's helper thread checks (output-check-worker.ts), which loads nothing
// else (no zod: the checks here are typeof tests).
import type { Guard } from '../files/payload-shape.js';
import type { FileTimes } from '../files/file-times.js';
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

/** Whether the file at `i` of `table` is in this state. */
const sameAt = (table: FileTable, i: number, now: FileTimes | null): boolean =>
  now !== null && table.times[3 * i] === now.size && table.times[3 * i + 1] === now.mtimeMs && table.times[3 * i + 2] === now.ctimeMs;

/**
 * Checks the files of `table` (paths relative to `root`) in shares of `SHARE`, taking each from
 * `next` (shared with another thread doing the same), until all are taken or one is not as
 * recorded: then it sets `failed`. A file must be a plain file reached through plain folders
 * (files/plain-files.ts).
 */
export function checkShares(table: FileTable, root: string, next: Int32Array, failed: Int32Array): void {
  const plainFile = plainFileReader(root);
  const count = table.names.length;
  for (let from = Atomics.add(next, 0, SHARE); from < count && Atomics.load(failed, 0) === 0; from = Atomics.add(next, 0, SHARE)) {
    for (let i = from; i < Math.min(from + SHARE, count); i++) {
      if (!sameAt(table, i, plainFile(table.names[i]!))) {
        Atomics.store(failed, 0, 1);
        return;
      }
    }
  }
}

/** Files checked per share: small enough to balance two threads, large enough that taking one costs nothing. */
const SHARE = 256;
