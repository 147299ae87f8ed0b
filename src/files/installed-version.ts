// The version of a package as Node finds it from a folder: the package.json in the nearest
// `node_modules` above it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** `name`'s installed version as seen from `from`, or "missing". */
export function installedVersion(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      if (dir === path.dirname(dir)) return 'missing';
    }
  }
}
