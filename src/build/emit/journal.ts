// A commit that a kill cannot leave half done. Publishing a build changes the output folder
// with many renames (in place: every new or changed file, then the deletions; a swap: the old
// folder aside, the staging folder in). Before the first of them, the build writes what it is
// about to do to `<out>.journal` (atomically); after the last, it deletes it. A build killed in
// between leaves the journal, and the next build, before anything else and under the build
// lock, finishes the commit it describes (`replayJournal`): the output is then the interrupted
// build's, whole. `ir-site serve` refuses to serve an output folder while its journal exists
// (outputInterrupted).
//
// Interrupted builds also leave their staging folder, the previous output a swap had moved
// aside, and temporary cache files: the next build removes them (`removeLeftovers`).
import { existsSync } from 'node:fs';
import { lstat, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { TEMP_SUFFIX, writeAtomically } from '../../files/atomic-write.js';
import { OutputPlacer } from './placing.js';
import { publishedFolder } from './published-folder.js';

export type Journal =
  /** Move each staged file into the output folder, then delete `gone`. */
  | { mode: 'in-place'; staging: string; staged: string[]; gone: string[] }
  /** Put the staging folder in place of the output folder, whose old copy is at `previous`. */
  | { mode: 'swap'; staging: string; previous: string };

/** The folder in a mount point where a build stages its files: `<out>/.ir-site-staging-<pid>-<time>`. */
export const INSIDE_STAGING = '.ir-site-staging-';

export const journalFile = (outDir: string) => `${publishedFolder(outDir).dir}.journal`;

/** Whether a commit into `outDir` was interrupted and not yet finished by a later build. */
export const outputInterrupted = (outDir: string): boolean => existsSync(journalFile(outDir));

export const writeJournal = (outDir: string, journal: Journal) => writeAtomically(journalFile(outDir), JSON.stringify(journal));

export const clearJournal = (outDir: string) => rm(journalFile(outDir), { force: true });

/**
 * A test seam: `IR_SITE_TEST_KILL_AT=<point>` kills the process (SIGKILL, as a power cut or
 * `kill -9` would; `IR_SITE_TEST_KILL_WITH` names another signal) when the commit reaches that
 * point. Points: `journal-written` (nothing moved yet), `half-moved` (in place: half the files
 * moved), `moved-aside` (swap: the old output moved aside, the new not yet in).
 */
export function killPoint(point: string): void {
  if (process.env.IR_SITE_TEST_KILL_AT === point) process.kill(process.pid, (process.env.IR_SITE_TEST_KILL_WITH as NodeJS.Signals | undefined) ?? 'SIGKILL');
}

/** Finishes the commit an interrupted build journaled; does nothing without a journal. */
export async function replayJournal(given: string): Promise<void> {
  const outDir = publishedFolder(given).dir;
  const file = journalFile(outDir);
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return;
  let journal: Journal | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isJournal(parsed, outDir)) journal = parsed;
  } catch {
    // Written atomically, so only a damaged disk gets here: the staging folder cannot be trusted either.
  }
  // A journal that is not one this build could have written is not replayed. The output is then
  // as the interrupted commit left it, and the next build rewrites it whole: the output's record
  // was removed before that commit began (build/commit-output.ts).
  if (journal?.mode === 'in-place') {
    const placer = new OutputPlacer(outDir);
    // A file an earlier run of the commit already moved in is no longer staged.
    for (const rel of journal.staged) if (existsSync(path.join(journal.staging, rel))) placer.moveIn(path.join(journal.staging, rel), rel);
    for (const rel of journal.gone) placer.remove(rel);
  } else if (journal?.mode === 'swap') {
    if (existsSync(journal.staging)) {
      await rm(outDir, { recursive: true, force: true });
      await rename(journal.staging, outDir);
    } else if (!existsSync(outDir) && existsSync(journal.previous)) {
      await rename(journal.previous, outDir);
    }
  }
  await rm(file, { force: true });
}

/**
 * Whether `value` is a journal a build of `outDir` writes: its folders next to or inside the
 * output folder, its files inside it. Anything else would move or delete files elsewhere.
 */
function isJournal(value: unknown, outDir: string): value is Journal {
  const j = value as Partial<Record<string, unknown>> | null;
  if (typeof j !== 'object' || j === null) return false;
  const ours = (dir: unknown, ...prefixes: string[]) => typeof dir === 'string' && prefixes.some((p) => dir.startsWith(p) && !dir.slice(p.length).includes('/'));
  const staging = ours(j.staging, `${outDir}.staging-`, path.join(outDir, INSIDE_STAGING));
  const inOutput = (rels: unknown) =>
    Array.isArray(rels) && rels.every((rel) => typeof rel === 'string' && rel !== '' && path.resolve(outDir, rel).startsWith(outDir + path.sep));
  if (j.mode === 'in-place') return staging && inOutput(j.staged) && inOutput(j.gone);
  return j.mode === 'swap' && staging && ours(j.previous, `${outDir}.previous-`);
}

/** Leftovers that a process without the lock (`ir-site dev`) may still be writing are removed only once this old (see removeLeftovers). */
const ROOT_LEFTOVER_MS = 60_000;

/** Temporary files of atomic writes (files/atomic-write.ts), and those of server and config bundles. */
const atomicTemp = new RegExp(TEMP_SUFFIX);
const bundleTemp = new RegExp(String.raw`\.mjs` + TEMP_SUFFIX);

/**
 * Removes what interrupted builds left: staging folders and moved-aside outputs next to
 * `outDir`, temporary files of atomic cache writes, half-made image entries, locks moved aside
 * by a build killed while taking one over. Called under the build lock, after replayJournal,
 * so none of them belongs to a running build; what `ir-site dev` makes without the lock (image
 * entries, bundles) is removed only once old.
 */
export async function removeLeftovers(given: string, cacheDir: string): Promise<void> {
  const outDir = publishedFolder(given).dir;
  const parent = path.dirname(outDir);
  const base = path.basename(outDir);
  const names = await readdir(parent).catch(() => [] as string[]);
  const ours = names.filter((n) => n.startsWith(`${base}.staging-`) || n.startsWith(`${base}.previous-`) || n.startsWith(`${base}.journal.`));
  await Promise.all(ours.map((n) => removeLeftover(path.join(parent, n))));
  // The output lock's leftovers (build/lock.ts, takeOver): only old ones, as for the cache's.
  await removeOld(parent, (n) => n.startsWith(`${base}.lock.stale-`));
  const inside = (await readdir(outDir).catch(() => [] as string[])).filter((n) => n.startsWith(INSIDE_STAGING));
  await Promise.all(inside.map((n) => removeLeftover(path.join(outDir, n))));
  // Atomic writes go to `<file>.<pid>-<n>`; only builds, under the lock, write there.
  for (const dir of ['build', 'build/search']) {
    const entries = await readdir(path.join(cacheDir, dir)).catch(() => [] as string[]);
    await Promise.all(entries.filter((n) => atomicTemp.test(n)).map((n) => removeLeftover(path.join(cacheDir, dir, n))));
  }
  // Image entries are made in `<key>.tmp-<pid>-<random>`, by `ir-site dev` too, without the lock: only old ones.
  await removeOld(path.join(cacheDir, 'images'), (n) => /\.tmp-\d+-[a-z0-9]+$/.test(n));
  // In the cache folder itself: `build.lock.stale-<pid>` (lock.ts, takeOver), and atomic writes
  // of server bundles (`<name>.<hash>.mjs.<pid>-<n>`, files/module-bundle.ts). Only old ones:
  // `ir-site dev` writes bundles there without taking the lock.
  await removeOld(cacheDir, (n) => /^build\.lock\.stale-\d+$/.test(n) || bundleTemp.test(n));
}

/**
 * The same for the folder site.config.ts's bundle is always kept in (`.ir-site/cache`, config/load.ts)
 * when `paths.cache` moved the cache elsewhere: its bundles and their record (`build/bundles.bin`).
 * Only old ones: a build of the site that still reads the configuration holds no lock yet.
 */
export async function removeConfigCacheLeftovers(dir: string): Promise<void> {
  await Promise.all([removeOld(dir, (n) => bundleTemp.test(n)), removeOld(path.join(dir, 'build'), (n) => atomicTemp.test(n))]);
}

/**
 * Removes a leftover of a build. One that cannot be removed (a folder made read-only or
 * immutable) is no part of the output: it stays for the next build to try again, and does not
 * fail this one.
 */
export const removeLeftover = (file: string): Promise<void> => rm(file, { recursive: true, force: true }).catch(() => undefined);

/** The files and folders of `dir` whose names `leftover` picks, last written over ROOT_LEFTOVER_MS ago. */
async function removeOld(dir: string, leftover: (name: string) => boolean): Promise<void> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter(leftover);
  await Promise.all(
    names.map(async (n) => {
      const file = path.join(dir, n);
      const info = await lstat(file).catch(() => null);
      if (info && Date.now() - info.mtimeMs > ROOT_LEFTOVER_MS) await removeLeftover(file);
    }),
  );
}
