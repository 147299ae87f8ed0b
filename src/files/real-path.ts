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
