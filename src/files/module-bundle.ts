// A bundled module (the site's config, its templates) is written to the cache under its content
// hash for render workers to import. Another build or `ir-site dev` of the same site may be
// importing the same file at that moment, or be about to start workers from an older one: a
// bundle is replaced whole, never rewritten in place, and an older one is removed only once no
// build can still need it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomically } from './atomic-write.js';

/**
 * How long an older bundle is kept: longer than a build waits for the lock (10 minutes) plus the
 * time it takes to reach its render stage. Dev writes one per template edit; an hour bounds them.
 */
export const BUNDLE_KEPT_MS = 60 * 60 * 1000;

const hashOf = (code: string | Buffer, length: number): string => createHash('sha256').update(code).digest('hex').slice(0, length);

/**
 * Whether a recorded bundle is still the file it was written as: its bytes still hash to the
 * name's hash. Checked before it is reused, since a file of the cache can be cut short by a full
 * disk or changed by hand, and importing a damaged bundle fails every build, or worse renders.
 */
export function intactModuleBundle(file: string, hash: string): boolean {
  try {
    return hashOf(readFileSync(file), hash.length) === hash;
  } catch {
    return false;
  }
}

/** Writes `<dir>/<name>.<hash>.mjs` and removes `name`'s bundles untouched for `BUNDLE_KEPT_MS`. */
export async function writeModuleBundle(dir: string, name: string, code: string, hashLength: number): Promise<{ file: string; hash: string }> {
  const hash = hashOf(code, hashLength);
  const file = path.join(dir, `${name}.${hash}.mjs`);
  // Written again even when present: its time then says it is in use.
  await writeAtomically(file, code);
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.[0-9a-f]+\\.mjs$`);
  const older = (await readdir(dir)).filter((f) => pattern.test(f) && f !== path.basename(file));
  await Promise.all(
    older.map(async (f) => {
      const at = path.join(dir, f);
      const modified = await stat(at).then((s) => s.mtimeMs, () => Date.now());
      if (Date.now() - modified > BUNDLE_KEPT_MS) await rm(at, { force: true });
    }),
  );
  return { file, hash };
}
