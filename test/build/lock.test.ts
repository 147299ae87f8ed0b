// The build lock (src/build/lock.ts) and the launcher (bin/ir-site.js) against what a real
// machine does: a lock that is a folder or that this user cannot read, a read-only disk, a pid
// that now belongs to another process or to the next run, a lock from another host, what
// killed builds leave in the cache folder, and a launcher killed with SIGKILL. Real files and
// processes; only the read failures that root cannot cause (EACCES for root, EIO) are injected.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { acquireBuildLock, BuildLockedError, type Holder } from '../../src/build/lock.js';
import { outputInterrupted, removeLeftovers } from '../../src/build/emit/journal.js';
import { diskFailure } from '../../src/errors/disk.js';
import { fileTree, REPO, writableFixture } from '../helpers.js';

const BIN = path.join(REPO, 'bin', 'ir-site.js');
const LINUX = process.platform === 'linux';
let root = '';
const out = () => path.join(root, 'public');
const cacheDir = () => path.join(root, '.ir-site', 'cache');
const lockFile = () => path.join(cacheDir(), 'build.lock');
const started: ChildProcess[] = [];
const mounts: string[] = [];

before(async () => {
  root = await writableFixture('minimal', `lock-${process.pid}`);
  await rm(path.join(root, '.ir-site'), { recursive: true, force: true });
  await mkdir(cacheDir(), { recursive: true });
});

// Each test starts without a lock, whatever the one before left when it failed.
beforeEach(() => rm(lockFile(), { recursive: true, force: true }));

after(async () => {
  for (const child of started) stop(child);
  for (const dir of mounts.reverse()) spawnSync('umount', [dir]);
  await rm(root, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  err: string;
  ms: number;
}

/** Stops what a test started, with whatever it started in turn (its process group). */
const stop = (child: ChildProcess) => {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
};

/**
 * `ir-site build` of the fixture; through the launcher's second process unless `direct`.
 * Killed after `limitMs`, in its own process group: a second process left running would hold
 * the output pipes open.
 */
function cli({ direct = true, limitMs = 60_000 } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', MALLOC_ARENA_MAX: '2' };
  if (!direct) delete env.MALLOC_ARENA_MAX;
  const t0 = Date.now();
  const child = spawn(process.execPath, [BIN, 'build', '--root', root, '--workers', '0', '-q'], { env, detached: true });
  started.push(child);
  const timer = setTimeout(() => stop(child), limitMs);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout!.resume();
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, err, ms: Date.now() - t0 });
    }),
  );
}

/** Whether `pid` runs (a zombie, dead but not yet reaped by whoever adopted it, does not). */
async function running(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** When `pid` started, in clock ticks after boot: /proc/<pid>/stat, field 22 (the fields after the command name start at 3). */
async function startTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3]);
}

const errno = (code: string, file: string) => Object.assign(new Error(`${code}: failed, open '${file}'`), { code, path: file, syscall: 'open' });
const bootId = async () => (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
const writeLock = (holder: Partial<Holder>) => writeFile(lockFile(), JSON.stringify({ host: hostname(), started: new Date().toISOString(), ...holder }));

/** A live process that is not a build, as a pid reused after a build died would be. */
async function bystander(): Promise<number> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore', detached: true });
  started.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child.pid!;
}

test('a build.lock that is a folder: the build stops at once, naming it and what to do (it spun at full CPU forever)', async () => {
  await rm(lockFile(), { recursive: true, force: true });
  await mkdir(lockFile());
  try {
    // Through the launcher: its IPC channel (bin/ir-site.js) neither keeps the build alive nor changes the exit code.
    const run = await cli({ direct: false, limitMs: 20_000 });
    assert.equal(run.code, 1, run.err);
    assert.ok(run.ms < 15_000, `stopped at once, not after ${run.ms} ms`);
    assert.match(run.err, /build\.lock is a folder, not a lock file: remove it/);
  } finally {
    await rm(lockFile(), { recursive: true, force: true });
  }
});

test("another user's lock file this user cannot read: a clear error at once, naming it (it spun forever)", { skip: (!LINUX || process.getuid?.() !== 0) && 'needs root, to run a process as nobody' }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-lock-'));
  try {
    await chmod(dir, 0o755);
    await writeFile(path.join(dir, 'build.lock'), JSON.stringify({ pid: 1, host: hostname(), started: '' }), { mode: 0o600 });
    const lock = path.join(REPO, 'dist', 'src', 'build', 'lock.js');
    const script = `import { acquireBuildLock } from ${JSON.stringify(lock)};
      acquireBuildLock(${JSON.stringify(dir)}, { waitMs: 2000 }).then(() => console.log('acquired'), (error) => console.log(error.message));`;
    const t0 = Date.now();
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { uid: 65534, gid: 65534, encoding: 'utf8', timeout: 15_000, killSignal: 'SIGKILL' });
    assert.equal(run.status, 0, `${run.stderr} (signal ${run.signal})`);
    assert.ok(Date.now() - t0 < 10_000);
    assert.match(run.stdout, new RegExp(`cannot read ${dir}/build\\.lock: permission denied\\. Another user's build may hold it`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a lock file that cannot be read: permission denied is an error at once; an I/O error is waited on, for at most waitMs, and named', async () => {
  // A lock this (live) process holds: read as it is, it would be waited for.
  await writeLock({ pid: process.pid, boot: await bootId().catch(() => undefined), startTicks: await startTicks(process.pid).catch(() => undefined) });
  const t0 = Date.now();
  await assert.rejects(acquireBuildLock(cacheDir(), { waitMs: 3000, read: (file) => Promise.reject(errno('EACCES', file)) }), (error: unknown) => {
    assert.ok(error instanceof BuildLockedError);
    assert.match(error.message, new RegExp(`cannot read ${lockFile()}: permission denied`));
    return true;
  });
  assert.ok(Date.now() - t0 < 2000, 'at once, not after waiting');

  let reads = 0;
  const heard: string[] = [];
  const t1 = Date.now();
  const read = (file: string) => (reads++, Promise.reject(errno('EIO', file)));
  await assert.rejects(acquireBuildLock(cacheDir(), { waitMs: 1000, read, onWait: (m) => heard.push(m) }), (error: unknown) => {
    assert.ok(error instanceof BuildLockedError);
    assert.match(error.message, new RegExp(`${lockFile()} exists but cannot be read \\(EIO: .*\\).*delete that file`));
    return true;
  });
  assert.ok(Date.now() - t1 >= 1000, 'waited');
  assert.ok(reads <= 8, `slept between looks (${reads} reads in 1 s)`);
  assert.equal(heard.length, 1);
  assert.match(heard[0]!, /EIO/);
  await rm(lockFile(), { force: true });
});

test('a read-only cache folder: the error names the lock (or the folder) and says read-only', { skip: !LINUX && 'mounts a tmpfs' }, async (t) => {
  const disk = path.join(root, 'ro');
  await mkdir(path.join(disk), { recursive: true });
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk]).status !== 0) return t.skip('mounting a tmpfs is not allowed here');
  mounts.push(disk);
  await mkdir(path.join(disk, 'cache'));
  assert.equal(spawnSync('mount', ['-o', 'remount,ro', disk]).status, 0);
  for (const [dir, named] of [
    [path.join(disk, 'cache'), path.join(disk, 'cache', 'build.lock')],
    // Not made yet: a recursive mkdir says ENOENT there; the plain one says why.
    [path.join(disk, 'new', 'cache'), path.join(disk, 'new')],
  ] as const) {
    await assert.rejects(acquireBuildLock(dir, { waitMs: 0 }), (error: unknown) => {
      assert.deepEqual(diskFailure(error), { path: named, cause: 'the file system is read-only' }, String(error));
      return true;
    });
  }
});

test('a lock whose pid now belongs to another process, or is from an earlier boot, is stale and taken over at once', { skip: !LINUX && 'reads /proc' }, async () => {
  const pid = await bystander();
  const ticks = await startTicks(pid);
  const boot = await bootId();
  assert.ok(Number.isSafeInteger(ticks));
  // The bystander itself, as recorded: a live holder, waited for.
  await writeLock({ pid, boot, startTicks: ticks });
  await assert.rejects(acquireBuildLock(cacheDir(), { waitMs: 300 }), BuildLockedError);
  for (const holder of [
    { pid, boot, startTicks: ticks - 1 }, // the build that had this pid started earlier
    { pid, boot: '00000000-0000-0000-0000-000000000000', startTicks: ticks }, // before the last boot
  ]) {
    await writeLock(holder);
    const t0 = Date.now();
    const release = await acquireBuildLock(cacheDir(), { waitMs: 5000 });
    assert.ok(Date.now() - t0 < 2000, `taken over at once: ${JSON.stringify(holder)}`);
    const mine = JSON.parse(await readFile(lockFile(), 'utf8')) as Holder;
    assert.deepEqual([mine.pid, mine.boot, mine.startTicks], [process.pid, boot, await startTicks(process.pid)], 'the lock records this process instance');
    await release();
  }
});

test("a lock with this process's own pid from an earlier run (a container's pid 1) is stale; this very process's is not", { skip: !LINUX && 'reads /proc' }, async () => {
  const boot = await bootId();
  const ticks = await startTicks(process.pid);
  await writeLock({ pid: process.pid, boot, startTicks: ticks - 100 });
  const release = await acquireBuildLock(cacheDir(), { waitMs: 5000 });
  await release();
  const held = await acquireBuildLock(cacheDir());
  await assert.rejects(acquireBuildLock(cacheDir(), { waitMs: 300 }), BuildLockedError);
  await held();
});

test('a lock from another host is waited for, and the wait message and the error say it cannot be judged from here and what to do', async () => {
  await writeLock({ pid: 1, host: 'build-2.example' });
  const heard: string[] = [];
  await assert.rejects(acquireBuildLock(cacheDir(), { waitMs: 300, onWait: (m) => heard.push(m) }), (error: unknown) => {
    assert.ok(error instanceof BuildLockedError);
    assert.match(error.message, /pid 1 on build-2\.example .* holds .*build\.lock\. build-2\.example is another machine, so whether that build still runs cannot be told from here: .*if that build is dead, delete that file/);
    return true;
  });
  assert.equal(heard.length, 1);
  assert.match(heard[0]!, /^waiting for the build started by pid 1 on build-2\.example at .*another machine.*delete that file/);
  await rm(lockFile(), { force: true });
});

test('a lock seen the moment it is made, before its holder is written, is told by its holder once written', async () => {
  await writeFile(lockFile(), '');
  const heard: string[] = [];
  const waiting = assert.rejects(acquireBuildLock(cacheDir(), { waitMs: 700, onWait: (m) => heard.push(m) }), BuildLockedError);
  await new Promise((resolve) => setTimeout(resolve, 60));
  await writeLock({ pid: 1, host: 'build-2.example' });
  await waiting;
  assert.equal(heard.length, 1);
  assert.match(heard[0]!, /^waiting for the build started by pid 1 on build-2\.example/);
  await rm(lockFile(), { force: true });
});

test('removeLeftovers removes old build.lock.stale-<pid> and <bundle>.mjs.<pid> files from the cache folder, and nothing recent or whole', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-leftovers-'));
  try {
    const old = (Date.now() - 5 * 60_000) / 1000;
    const leftovers = ['build.lock.stale-4242', 'templates.0123abcd.mjs.4242', 'site.config.89ef.mjs.77'];
    const oldButWhole = ['templates.0123abcd.mjs', 'build.lock', 'notes.4242'];
    // Being written: ir-site dev writes bundles without the lock.
    const recent = ['templates.4567.mjs.4243', 'build.lock.stale-4244'];
    for (const name of [...leftovers, ...oldButWhole, ...recent]) await writeFile(path.join(dir, name), 'x');
    for (const name of [...leftovers, ...oldButWhole]) await utimes(path.join(dir, name), old, old);
    await removeLeftovers(path.join(dir, 'public'), dir);
    const expected = [...oldButWhole, ...recent];
    assert.deepEqual((await readdir(dir)).sort(), expected.sort());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** Starts `ir-site build` through the launcher; resolves once its second process runs and `ready` matches what it has done. */
async function launch(ready: (child: number, err: string) => Promise<boolean>): Promise<{ launcher: ChildProcess; child: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.MALLOC_ARENA_MAX;
  const launcher = spawn(process.execPath, [BIN, 'build', '--root', root, '--workers', '0'], { env, detached: true });
  started.push(launcher);
  let err = '';
  launcher.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  launcher.stdout!.resume();
  for (const t0 = Date.now(); Date.now() - t0 < 30_000; await sleep(20)) {
    const children = await readFile(`/proc/${launcher.pid}/task/${launcher.pid}/children`, 'utf8').catch(() => '');
    const child = Number(children.trim().split(' ')[0]);
    if (child > 0 && (await ready(child, err))) return { launcher, child };
  }
  throw new Error(`the build never got there: ${err}`);
}

/** SIGKILLs the launcher; whether its second process stopped within `ms`. Stops it regardless. */
async function killLauncher(launcher: ChildProcess, child: number, ms = 5000): Promise<boolean> {
  launcher.kill('SIGKILL');
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(50)) if (!(await running(child))) return true;
  process.kill(child, 'SIGKILL');
  return false;
}

test('a launcher killed with SIGKILL: the build it started stops within seconds; public/ is the old or a whole new one; the next build leaves no staging folder', { skip: !LINUX && 'the launcher runs a second process on Linux only', timeout: 120_000 }, async () => {
  assert.equal((await cli()).code, 0);
  const previous = await fileTree(out());
  const file = path.join(root, 'content/articles/commentary-q2-2025/en.md');
  await writeFile(file, `${await readFile(file, 'utf8')}\nEdited by the lock test.\n`);

  // Waiting for the lock this process holds: without the launcher it would wait 10 minutes.
  const held = await acquireBuildLock(cacheDir());
  try {
    const { launcher, child } = await launch(async (_, err) => /waiting for the build started by pid/.test(err));
    assert.ok(await killLauncher(launcher, child), 'the build stopped with its launcher');
  } finally {
    await held();
  }
  assert.deepEqual(await fileTree(out()), previous, 'nothing published');

  // Killed while building: once it holds the lock.
  const holds = async (child: number) => (await readFile(lockFile(), 'utf8').catch(() => '')).includes(`"pid":${child},`);
  const { launcher, child } = await launch(holds);
  assert.ok(await killLauncher(launcher, child), 'the build stopped with its launcher');
  const interrupted = outputInterrupted(out());
  const killed = interrupted ? null : await fileTree(out());

  const next = await cli();
  assert.equal(next.code, 0, next.err);
  const now = await fileTree(out());
  if (killed) assert.ok([previous, now].some((whole) => isDeepStrictEqual(whole, killed)), 'public/ was the old output or a whole new one');
  assert.deepEqual((await readdir(root)).filter((n) => n.startsWith('public.')), [], 'no staging or moved-aside folder');
  assert.equal(existsSync(lockFile()), false, 'the killed build\'s lock was taken over and released');
  assert.ok((await stat(out())).isDirectory());
});
