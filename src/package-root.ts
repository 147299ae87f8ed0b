// Where ir-site itself is installed: the nearest folder above this module holding
// ir-site's package.json. The same from dist/src (compiled) and src (tests, tsx).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'ir-site') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('ir-site cannot find its own package.json');
    dir = parent;
  }
}

export const PACKAGE_ROOT = findRoot();
