// A damaged build cache is a cache miss, never a failed build or a wrong file. Each file under
// .ir-site/cache is damaged in turn, four ways (bytes garbled in the middle, cut to half,
// emptied, replaced by another cache file's bytes); the next build must succeed and write
// exactly what a build without the cache writes. `--no-cache` must also repair the cache.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build, type BuildOptions } from '../../src/build/index.js';
import { siteChecks } from '../../src/commands/check/site-warnings.js';
import { buildToMemory, filesUnder, fileTree, freshCache as freshCacheOf, referenceTree, REPO, treeDifferences, writableFixture } from '../helpers.js';

let root = '';
const out = () => path.join(root, 'public');
const cacheDir = () => path.join(root, '.ir-site', 'cache');
const run = (options: Partial<BuildOptions> = {}) => build({ root, reporter: {}, workers: 0, siteChecks, ...options });

type Mode = 'garbled' | 'truncated' | 'emptied' | 'foreign';
const MODES: Mode[] = ['garbled', 'truncated', 'emptied', 'foreign'];

async function damage(file: string, mode: Mode, foreign: string): Promise<void> {
  const size = (await stat(file)).size;
  if (mode === 'emptied') return writeFile(file, '');
  if (mode === 'truncated') return truncate(file, Math.floor(size / 2));
  if (mode === 'foreign') return writeFile(file, await readFile(foreign));
  const bytes = await readFile(file);
  // Same size, bytes in the middle flipped: what a bad sector or a stray write leaves.
  const from = Math.floor(bytes.length / 2);
  for (let i = from; i < Math.min(bytes.length, from + 16); i++) bytes[i] = bytes[i]! ^ 0x5a;
  await writeFile(file, bytes);
}

/**
 * Every cache file but the image variants, of which one per image stands for the rest (they are
 * all read the same way): about fifty builds rather than two hundred.
 */
function sample(files: string[]): string[] {
  const seen = new Set<string>();
  return files.filter((rel) => {
    const image = /^images\/([^/]+)\/(?!meta\.bin$)/.exec(rel);
    if (!image) return true;
    if (seen.has(image[1]!)) return false;
    seen.add(image[1]!);
    return true;
  });
}

let reference = new Map<string, string>();

before(async () => {
  root = await writableFixture('minimal', `cache-faults-${process.pid}`);
  reference = await referenceTree(root, run);
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

const freshCache = () => freshCacheOf(root, run);

test('every cache file, garbled, truncated, emptied or replaced, is a miss: the next build equals a build without the cache', async () => {
  await freshCache();
  const files = sample(await filesUnder(cacheDir()));
  assert.ok(files.length >= 8, `cache files: ${files.join(', ')}`);
  const failures: string[] = [];
  let cases = 0;
  for (const rel of files) {
    // Another cache file of a different kind, for the foreign bytes.
    const foreign = path.join(cacheDir(), files.find((f) => path.extname(f) !== path.extname(rel) || path.dirname(f) !== path.dirname(rel)) ?? files[0]!);
    for (const mode of MODES) {
      const file = path.join(cacheDir(), rel);
      if (!(await stat(file).then(() => true, () => false))) await freshCache();
      cases++;
      await damage(file, mode, foreign);
      let failure: string | null = null;
      try {
        await run();
        const wrong = treeDifferences(reference, await fileTree(out()));
        if (wrong.length > 0) failure = `wrong output: ${wrong.slice(0, 3).join('; ')}`;
      } catch (error) {
        failure = `build failed: ${String((error as Error).message).split('\n')[0]}`;
      }
      if (failure) {
        failures.push(`${rel} ${mode}: ${failure}`);
        await freshCache();
      }
    }
  }
  assert.equal(failures.length, 0, `${failures.length} of ${cases} cases failed:\n${failures.join('\n')}`);
});

test('--no-cache ignores a damaged cache and repairs it, images included', async () => {
  await freshCache();
  const files = await filesUnder(cacheDir());
  for (const rel of files) await damage(path.join(cacheDir(), rel), 'garbled', '');
  await run({ cache: false });
  assert.deepEqual(treeDifferences(reference, await fileTree(out())), [], 'the --no-cache build');
  // And the cache it left is sound: a build with it still writes the same bytes.
  await rm(out(), { recursive: true, force: true });
  await run();
  assert.deepEqual(treeDifferences(reference, await fileTree(out())), [], 'the next cached build');
});

/** A build by the CLI in a new process: one that imported a bundle keeps it, whatever the file holds now. */
function buildByCli(): void {
  const cli = spawnSync(process.execPath, [path.join(REPO, 'bin', 'ir-site.js'), 'build', '--root', root, '--workers', '0'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(cli.status, 0, cli.stderr.slice(-800));
}

test('a damaged module bundle in the cache (the config, the templates) is made again, not imported', async () => {
  // The bundles are recalled only when their inputs are older than the recording build (racy.ts).
  const anHourAgo = new Date(Date.now() - 3_600_000);
  await utimes(path.join(root, 'site.config.ts'), anHourAgo, anHourAgo);
  const article = path.join(root, 'content', 'articles', 'commentary-q2-2025', 'en.md');
  const original = await readFile(article, 'utf8');
  for (const mode of ['garbled', 'truncated', 'emptied'] as const) {
    for (const name of ['site.config', 'templates']) {
      await rm(path.join(root, '.ir-site'), { recursive: true, force: true });
      buildByCli();
      buildByCli();
      const bundles = (await readdir(cacheDir())).filter((f) => f.startsWith(`${name}.`) && f.endsWith('.mjs'));
      assert.equal(bundles.length, 1, `${name} bundles: ${bundles.join(', ')}`);
      await damage(path.join(cacheDir(), bundles[0]!), mode, '');
      // A body edit, so that the templates are loaded to render it.
      await writeFile(article, `${original}\nOne more paragraph (${mode}).\n`);
      try {
        buildByCli();
        await run({ outDir: 'reference', cache: false });
        assert.deepEqual(treeDifferences(await fileTree(path.join(root, 'reference')), await fileTree(out())), [], `${name} ${mode}`);
      } finally {
        await rm(path.join(root, 'reference'), { recursive: true, force: true });
        await writeFile(article, original);
      }
    }
  }
});

/** `dir/<prefix>*<suffix>`: the one entry of `dir` so named (a record's name holds its output folder's digest, an image entry's its key). */
async function located(pattern: string): Promise<string> {
  if (!pattern.includes('*')) return pattern;
  const [prefix, suffix] = path.basename(pattern).split('*') as [string, string];
  const found = (await readdir(path.dirname(pattern))).filter((n) => n.startsWith(prefix) && n.endsWith(suffix));
  assert.equal(found.length > 0, true, `nothing in the cache is named ${pattern}`);
  return path.join(path.dirname(pattern), found.sort()[0]!);
}

test('a folder where a cache file goes, or a file where a cache folder goes: the build succeeds with the output of a build without the cache', async () => {
  const article = path.join(root, 'content', 'articles', 'commentary-q2-2025', 'en.md');
  const original = await readFile(article, 'utf8');
  const obstacles: [string, 'folder' | 'file' | 'link to the output'][] = [
    ['build/search', 'link to the output'],
    ['images', 'link to the output'],
    ['build/graph.bin', 'folder'],
    ['build/front-matter.bin', 'folder'],
    ['build', 'file'],
    ['build/search', 'file'],
    ['images', 'file'],
    // The records of the output folder, which a build removes before it changes the folder.
    ['build/up-to-date-*.bin', 'folder'],
    ['build/output-*.bin', 'folder'],
    ['images/*', 'file'],
  ];
  try {
    for (const [rel, kind] of obstacles) {
      await freshCache();
      const at = await located(path.join(cacheDir(), rel));
      await rm(at, { recursive: true, force: true });
      if (kind === 'folder') await mkdir(path.join(at, 'inside'), { recursive: true });
      else if (kind === 'file') await writeFile(at, 'not a folder');
      else await symlink(out(), at);
      // An edit, so the build has something to write to the cache.
      await writeFile(article, `${original}\nEdited with ${rel} in the way.\n`);
      const result = await run();
      await run({ outDir: 'reference', cache: false });
      assert.deepEqual(treeDifferences(await fileTree(path.join(root, 'reference')), await fileTree(out())), [], `${rel} as a ${kind}`);
      await rm(path.join(root, 'reference'), { recursive: true, force: true });
      // What is in the cache's way is ir-site's to remove: nothing to warn of.
      assert.deepEqual(result.diagnostics.filter((d) => d.rule === 'cache/write-failed'), [], rel);
    }
    // A build into memory (the package's API with a sink) clears the way too.
    await rm(path.join(cacheDir(), 'images'), { recursive: true, force: true });
    await writeFile(path.join(cacheDir(), 'images'), 'not a folder');
    await buildToMemory(root);
  } finally {
    await writeFile(article, original);
  }
});
