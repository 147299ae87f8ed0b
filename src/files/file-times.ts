// A file's state as every cache of ir-site compares it: its size, modification time and change
// time (ms), as git does. The change time catches an edit whose tool put the modification time
// back, and a copy made with `cp -p`: no tool can set it. When a recorded state may be trusted
// at all (not racily recent) is incremental/racy.ts.
import { statSync, type Stats } from 'node:fs';

/** A file's size, modification and change times (ms). */
export interface FileTimes {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** The state in a stat's result. */
export const timesOf = ({ size, mtimeMs, ctimeMs }: Stats | FileTimes): FileTimes => ({ size, mtimeMs, ctimeMs });

/** A plain file's state now; null for anything else (a folder, a file gone). Follows links, as reading does. */
export function plainFileTimes(abs: string): FileTimes | null {
  const stats = statSync(abs, { throwIfNoEntry: false });
  return stats?.isFile() ? timesOf(stats) : null;
}

/** Whether `now` is the state recorded as `[size, mtimeMs, ctimeMs]` (the first three of a record). */
export const sameTimes = (recorded: readonly [number, number, number, ...unknown[]] | undefined, now: FileTimes | null): boolean =>
  recorded !== undefined && now !== null && recorded[0] === now.size && recorded[1] === now.mtimeMs && recorded[2] === now.ctimeMs;
