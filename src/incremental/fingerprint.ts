// What a cached result depends on besides its own input: the ir-site version and its code.
// The version alone is not enough while ir-site itself is being worked on (a render change
// without a version bump must not serve stale pages), so the code's files are counted too,
// by name, size and modification time: cheap, and any edit changes it.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles } from '../build/content/list-files.js';
import { VERSION } from '../version.js';

export { keyOf } from './digest.js';

/** The folder holding ir-site's code as it runs: `src/` under tsx, `dist/` once compiled (`dist/src`) and bundled (`dist/cli`). */
const CODE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let memo: string | null = null;

export function toolFingerprint(): string {
  if (memo) return memo;
  const hash = createHash('sha256').update(`ir-site@${VERSION}\n`);
  for (const file of listFiles(CODE_DIR).filter((f) => /\.(js|mjs|ts|tsx)$/.test(f) && !f.endsWith('.d.ts'))) {
    const { size, mtimeMs } = statSync(path.join(CODE_DIR, file));
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return (memo = hash.digest('hex').slice(0, 20));
}
