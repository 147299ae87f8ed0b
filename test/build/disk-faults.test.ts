// A full disk and a read-only folder, for real: small tmpfs mounts (the tests run as root, which
// ignores file permissions, so chmod could not make a folder read-only). Skipped where mounting
// is not allowed. The output's failures are a diagnostic naming the path and the cause, with the
// previous output untouched; the cache's are a warning, and the build succeeds.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build, type BuildOptions } from '../../src/build/index.js';
import { DiagnosticsError } from '../../src/errors/diagnostic.js';
import { fileTree, writableFixture } from '../helpers.js';

let root = '';
const mounts: string[] = [];
const mount = (dir: string, options: string) => spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]).status === 0 && mounts.push(dir) > 0;
const remount = (dir: string, options: string) => assert.equal(spawnSync('mount', ['-o', `remount,${options}`, dir]).status, 0);

let canMount = false;
before(async () => {
  root = await writableFixture('minimal', `disk-faults-${process.pid}`);
  await rm(path.join(root, '.ir-site'), { recursive: true, force: true });
  await mkdir(path.join(root, 'probe'), { recursive: true });
  canMount = mount(path.join(root, 'probe'), 'size=64k');
});

after(async () => {
  for (const dir of mounts.reverse()) spawnSync('umount', [dir]);
  await rm(root, { recursive: true, force: true });
});

const run = (options: Partial<BuildOptions> = {}) => build({ root, reporter: {}, workers: 0, ...options });

async function failure(options: Partial<BuildOptions>): Promise<DiagnosticsError> {
  try {
    await run(options);
  } catch (error) {
    assert.ok(error instanceof DiagnosticsError, `a diagnostic, not ${(error as Error).stack}`);
    return error;
  }
  assert.fail('the build succeeded');
}

async function editArticle(): Promise<void> {
  const file = path.join(root, 'content/articles/commentary-q2-2025/en.md');
  await writeFile(file, `${await readFile(file, 'utf8')}\nEdited by the disk test.\n`);
}

test('a read-only output folder: output/write-failed, naming the path and "read-only"; the previous output untouched', async (t) => {
  if (!canMount) return t.skip('mounting a tmpfs is not allowed here');
  const disk = path.join(root, 'ro');
  await mkdir(disk, { recursive: true });
  assert.ok(mount(disk, 'size=8m'));
  const out = path.join(disk, 'public');
  await run({ outDir: out });
  const before = await fileTree(out);
  remount(disk, 'ro');
  await editArticle();
  const error = await failure({ outDir: out });
  const [d] = error.diagnostics;
  assert.equal(d!.rule, 'output/write-failed');
  assert.match(d!.message, new RegExp(`cannot write ${disk}/public\\S*: the file system is read-only`));
  assert.equal(error.stage, 'build', 'the output lock beside the folder could not be made: the build, not its emit, failed');
  assert.deepEqual(await fileTree(out), before, 'the previous output is untouched');
  remount(disk, 'rw');
});

test('a full disk: output/write-failed, naming the path and "the disk is full"; the previous output untouched', async (t) => {
  if (!canMount) return t.skip('mounting a tmpfs is not allowed here');
  const disk = path.join(root, 'full');
  await mkdir(disk, { recursive: true });
  // Room for one output (~2.7 MB with its .br and .gz copies) but not for a second copy beside it (--no-cache swaps in a whole new folder).
  assert.ok(mount(disk, 'size=4000k'));
  const out = path.join(disk, 'public');
  await run({ outDir: out, cache: false });
  const before = await fileTree(out);
  await editArticle();
  const error = await failure({ outDir: out, cache: false });
  const [d] = error.diagnostics;
  assert.equal(d!.rule, 'output/write-failed');
  assert.match(d!.message, new RegExp(`cannot write ${disk}/public\\S*: the disk is full`));
  assert.equal(error.stage, 'emit');
  assert.deepEqual(await fileTree(out), before, 'the previous output is untouched');
  assert.deepEqual((await readdir(disk)).filter((n) => n !== 'public'), [], 'the staging folder is removed');
});

test('a read-only cache folder: the build succeeds, with a cache/write-failed warning', async (t) => {
  if (!canMount) return t.skip('mounting a tmpfs is not allowed here');
  const cacheBuild = path.join(root, '.ir-site', 'cache', 'build');
  await mkdir(cacheBuild, { recursive: true });
  assert.ok(mount(cacheBuild, 'size=1m,ro'));
  await editArticle();
  const result = await run();
  const warnings = result.diagnostics.filter((d) => d.rule === 'cache/write-failed');
  assert.ok(warnings.length > 0, 'warned');
  assert.equal(warnings[0]!.severity, 'warning');
  // One warning for the cause, not one per cache file.
  assert.equal(warnings.length, 1, JSON.stringify(warnings));
  assert.equal(warnings[0]!.severity, 'warning');
  assert.match(warnings[0]!.message, /the build cache cannot be written: .*\.ir-site\/cache\/build\/\S+( \(and \d+ more cache files?\))?: the file system is read-only/);
});

test("a read-only cache folder where the configuration's bundle goes: config/load names the path and the cause", async (t) => {
  if (!canMount) return t.skip('mounting a tmpfs is not allowed here');
  const cache = path.join(root, '.ir-site', 'cache');
  for (const dir of mounts.filter((m) => m.startsWith(cache)).reverse()) spawnSync('umount', [dir]);
  await rm(path.join(root, '.ir-site'), { recursive: true, force: true });
  await mkdir(cache, { recursive: true });
  assert.ok(mount(cache, 'size=1m,ro'));
  const error = await failure({});
  const problem = error.diagnostics.find((d) => d.rule === 'config/load');
  assert.ok(problem, JSON.stringify(error.diagnostics));
  assert.match(problem.message, /its bundle cannot be written to the build cache, .*\.ir-site\/cache\/site\.config\.[0-9a-f]+\.mjs\S*: the file system is read-only/);
  assert.match(problem.hint ?? '', /writable/);
});
