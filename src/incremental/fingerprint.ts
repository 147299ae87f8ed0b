// What every cached result depends on besides its own input: the code that made it. That is
// ir-site's version and its own files (the version alone is not enough while ir-site itself is
// being worked on: a render change without a version bump must not serve stale pages; the files
// count by name, size and modification time: cheap, and any edit changes them), the Node that
// runs it (V8's serializer, ICU's collation and number formats), and the installed packages,
// indirect ones too (a new mdast-util-to-hast changes the HTML as surely as a new remark-rehype).
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles } from '../build/content/list-files.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { VERSION } from '../version.js';
import { installedVersion } from '../files/installed-version.js';

/**
 * The folder holding ir-site's code as it runs: `src/` under tsx, `dist/src` compiled, and
 * `dist/cli` bundled, where this module is in a chunk beside all the others.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CODE_DIR = path.basename(HERE) === 'incremental' ? path.dirname(HERE) : HERE;

let memo: string | null = null;

export function toolFingerprint(): string {
  if (memo) return memo;
  const hash = createHash('sha256').update(`ir-site@${VERSION}\nnode@${process.version}\n`);
  for (const [name, version] of dependencyVersions()) hash.update(`${name}@${version}\n`);
  hash.update(`installed@${installedTree() ?? 'unknown'}\n`);
  for (const file of listFiles(CODE_DIR).filter((f) => /\.(js|mjs|ts|tsx)$/.test(f) && !f.endsWith('.d.ts'))) {
    const { size, mtimeMs } = statSync(path.join(CODE_DIR, file));
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return (memo = hash.digest('hex').slice(0, 20));
}

/**
 * Each dependency in ir-site's package.json with the version installed where Node would find
 * it (the nearest `node_modules` above ir-site's folder), or "missing".
 */
export function dependencyVersions(root = PACKAGE_ROOT): [name: string, version: string][] {
  const { dependencies = {} } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return Object.keys(dependencies)
    .sort()
    .map((name) => [name, installedVersion(name, root)]);
}

/**
 * The whole installed tree, as the digest of npm's record of what it installed
 * (`node_modules/.package-lock.json`, in the nearest `node_modules` above `root`); null where the
 * installer writes none (pnpm, yarn), and the direct dependencies' versions then stand alone.
 */
export function installedTree(root = PACKAGE_ROOT): string | null {
  for (let dir = root; ; dir = path.dirname(dir)) {
    try {
      return createHash('sha256').update(readFileSync(path.join(dir, 'node_modules', '.package-lock.json'))).digest('hex');
    } catch {
      if (dir === path.dirname(dir)) return null;
    }
  }
}
