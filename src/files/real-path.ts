// Folders compared by where they lead (a link to the content folder is the content folder).
import { realpathSync } from 'node:fs';
import path from 'node:path';

/** Where `dir` leads through links, or `dir` made absolute when it does not exist (yet). */
export function realPathOr(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Whether `target` (a real path) is one of `roots` or inside one. */
export const isInside = (target: string, roots: readonly string[]) => roots.some((root) => target === root || target.startsWith(root + path.sep));

/**
 * Where `file` leads when that is outside every one of `roots` (real paths): a link out of the
 * site. Null when it stays inside, or does not exist (its reader says so).
 */
export function linkedOutside(file: string, roots: readonly string[]): string | null {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return null;
  }
  return isInside(real, roots) ? null : real;
}
