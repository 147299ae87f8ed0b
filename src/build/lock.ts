// One build of a site at a time, and one build into an output folder at a time. Two builds of
// the same site share its cache and its output folder: run together, one could prune image
// entries the other is copying, rename a file the other just staged, or leave a stylesheet the
// other deleted. Two sites built into one folder would remove each other's staging folder and
// journal. So a build holds `<cache>/build.lock` (created exclusively) from before it reads the
// cache until after it has published, and `<out>.lock`, next to the output folder as its journal
// is, from before it touches anything there. A second build waits for each, saying so, for at
// most `waitMs`, then stops with an error that names the holder. A lock whose build is certainly
// gone (a build that was killed) is taken over.
//
// A pid alone cannot tell that: once a build dies, its pid can be given to any later process,
// or to the next run itself (containers, where every run may be pid 1). So on Linux the lock
// also holds the machine's boot id and the process's start time in clock ticks after boot: a
// lock from an earlier boot, or whose pid now belongs to a process that started at another
// time, is stale. Elsewhere the pid alone is judged. A lock from another host cannot be
// judged at all: the build waits, and says so.
import { hostname } from 'node:os';
import { lstat, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { diskFailure } from '../errors/disk.js';
import { folderProblem } from '../files/folder-problem.js';

export interface Holder {
  pid: number;
  host: string;
  /** When the lock was taken (ISO 8601): for people. */
  started: string;
  /** Linux: the machine's boot id (/proc/sys/kernel/random/boot_id) when the lock was taken. */
  boot?: string;
  /** Linux: when the process started, in clock ticks after boot (/proc/<pid>/stat, field 22). */
  startTicks?: number;
}

/** A lock file that exists but could not be read this time (an I/O error): waited for, as a held lock. */
interface Unreadable {
  unreadable: string;
}

type ReadLock = (file: string) => Promise<string>;

const isUnreadable = (holder: Holder | 'unwritten' | Unreadable): holder is Unreadable => typeof holder === 'object' && 'unreadable' in holder;

export class BuildLockedError extends Error {
  /** `hint`: what to do when it is not "wait for the other build" (build/locked's own hint). */
  constructor(
    message: string,
    readonly lockFile: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

const UNUSABLE = 'a build takes the lock by creating this file: what is there now is no lock any build made';

/** A lock file nobody finished writing (killed between creating and writing it) is stale after this. */
const UNWRITTEN_MS = 5000;
const POLL_MS = 250;

const readText: ReadLock = (file) => readFile(file, 'utf8');

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const bootId = (): Promise<string | undefined> =>
  readFile('/proc/sys/kernel/random/boot_id', 'utf8').then(
    (id) => id.trim() || undefined,
    () => undefined,
  );

/** When process `pid` started, in clock ticks after boot; undefined without /proc (not Linux) or without that process. */
async function startTicks(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return undefined;
  // The fields after the command name (in parentheses, and it may hold spaces and parentheses) start at field 3.
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3]);
  return Number.isSafeInteger(ticks) ? ticks : undefined;
}

async function thisProcess(): Promise<Holder> {
  const [boot, ticks] = await Promise.all([bootId(), startTicks(process.pid)]);
  const me: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  if (boot !== undefined) me.boot = boot;
  if (ticks !== undefined) me.startTicks = ticks;
  return me;
}

const kindOf = (info: Stats) => (info.isDirectory() ? 'a folder' : info.isSymbolicLink() ? 'a symbolic link' : 'a special file');

/**
 * What the lock file says: its holder, 'unwritten' (not whole JSON yet), 'gone' (removed
 * meanwhile), or why it could not be read. Only a missing file is gone. Throws a
 * BuildLockedError where waiting cannot help: not a file (nothing removes a folder someone
 * made there, and reading a pipe would block), or no permission to read it.
 */
async function holderOf(file: string, read: ReadLock = readText): Promise<Holder | 'unwritten' | 'gone' | Unreadable> {
  let text: string;
  try {
    const info = await lstat(file);
    if (!info.isFile()) throw new BuildLockedError(`${file} is ${kindOf(info)}, not a lock file: remove it, then build again.`, file, UNUSABLE);
    text = await read(file);
  } catch (error) {
    if (error instanceof BuildLockedError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    const denied = diskFailure(error, file);
    if (denied) {
      throw new BuildLockedError(
        `cannot read ${denied.path}: ${denied.cause}. Another user's build may hold it: build as that user, or, if no build of this site runs any more, delete that file.`,
        file,
        'the cache folder is shared by users who cannot read each other\'s files: build as one user',
      );
    }
    return { unreadable: (error as Error).message };
  }
  try {
    const holder = JSON.parse(text) as Holder;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string') return holder;
  } catch {
    // Being written, or never finished: judged by its age below.
  }
  return 'unwritten';
}

/** Whether the lock's holder is certainly gone: a build of this machine that no longer runs, or a lock never written. */
async function stale(file: string, holder: Holder | 'unwritten', me: Holder): Promise<boolean> {
  if (holder === 'unwritten') {
    const info = await stat(file).catch(() => null);
    return info !== null && Date.now() - info.mtimeMs > UNWRITTEN_MS;
  }
  // Another machine's processes cannot be seen from here.
  if (holder.host !== me.host) return false;
  // Taken before this machine last booted: whatever has that pid now is not that build.
  if (holder.boot !== undefined && me.boot !== undefined && holder.boot !== me.boot) return true;
  // Our own pid: this very process (a second acquisition in it waits, as a second build
  // would), or an earlier run that had the same pid, which started at another time.
  if (holder.pid === me.pid) return holder.startTicks !== undefined && me.startTicks !== undefined && holder.startTicks !== me.startTicks;
  if (!alive(holder.pid)) return true;
  // Alive, but the pid may have gone to another process since that build died.
  if (holder.startTicks === undefined) return false;
  const ticks = await startTicks(holder.pid);
  return ticks !== undefined && ticks !== holder.startTicks;
}

/** What to tell while waiting for the lock's holder, and when giving up; `of`: what the lock is of ("of this site"). */
function held(file: string, holder: Holder | 'unwritten' | Unreadable, me: Holder, of: string): { waiting: string; error: string } {
  if (isUnreadable(holder)) {
    const why = `${file} exists but cannot be read (${holder.unreadable}), so which build holds it cannot be told`;
    return { waiting: `waiting: ${why}`, error: `${why}. If no build ${of} runs any more, delete that file.` };
  }
  const who = holder === 'unwritten' ? 'another build' : `the build started by pid ${holder.pid} on ${holder.host} at ${holder.started}`;
  if (holder === 'unwritten' || holder.host === me.host) {
    return {
      waiting: `waiting for ${who} to finish (it holds ${file})`,
      error: `another build ${of} is still running: ${who} holds ${file}. Wait for it to finish, or, if no such build runs any more, delete that file.`,
    };
  }
  const elsewhere = `${holder.host} is another machine, so whether that build still runs cannot be told from here`;
  return {
    waiting: `waiting for ${who} to finish (it holds ${file}; ${elsewhere}: if it does not, delete that file)`,
    error: `another build ${of} may still be running: ${who} holds ${file}. ${elsewhere}: wait for it to finish, or, if that build is dead, delete that file.`,
  };
}

/**
 * Makes the cache folder; a read-only disk is said as such (a recursive mkdir says ENOENT where it
 * could not make a folder). Something else where it goes (a file, a link to nothing) is named and
 * left alone: `paths.cache` may name any path, and what is there may be the person's.
 */
async function makeFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true }).catch(async (error: NodeJS.ErrnoException) => {
    const problem = folderProblem(dir);
    if (problem) throw new BuildLockedError(`the build cache cannot be used: ${problem}.`, dir, 'delete or move away what is there, or set paths.cache in site.config.ts to another folder; then build again');
    if (error.code !== 'ENOENT' || !error.path) throw error;
    await mkdir(error.path); // a plain mkdir says why (EROFS, EACCES), with the path
    await mkdir(dir, { recursive: true });
  });
}

/**
 * Creates the lock file with `text`; false if it exists. A read-only or full disk, or no
 * permission, is thrown as the system says it, with the lock's path, which build() reports as
 * `cannot write <path>: <cause>` (errors/disk.ts).
 */
async function create(file: string, text: string): Promise<boolean> {
  const handle = await open(file, 'wx').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') return null;
    // Its folder was just made, yet "no such file": a file system that makes no files (/proc, /sys).
    if (error.code === 'ENOENT') throw new BuildLockedError(`cannot create ${file}: the file system there makes no new files`, file, 'build into a folder on an ordinary disk (--out, paths.out and paths.cache in site.config.ts)');
    throw error;
  });
  if (handle === null) return false;
  try {
    await handle.writeFile(text);
  } catch (error) {
    // Not left empty, for other builds to wait on until they judge it unwritten.
    await handle.close().catch(() => undefined);
    await rm(file, { force: true });
    throw error;
  }
  await handle.close();
  return true;
}

/** The lock file of the site whose cache folder is `cacheDir`. */
export const lockFile = (cacheDir: string): string => path.join(cacheDir, 'build.lock');

interface LockOptions {
  waitMs?: number;
  onWait?: (message: string) => void;
  read?: ReadLock;
}

/**
 * Takes the site's build lock, waiting while another build holds it; resolves to its release.
 * `onWait` hears once why this build waits. `read` reads the lock file: a test seam, for
 * failures a test running as root cannot cause (EACCES).
 */
export async function acquireBuildLock(cacheDir: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  await makeFolder(cacheDir);
  return acquire(lockFile(cacheDir), 'of this site', options);
}

/**
 * Takes the lock of the output folder whose published folder is `publishedDir` (`<dir>.lock`,
 * beside it: emit/journal.ts publishedFolder), held by any build publishing there, of any site.
 */
export async function acquireOutputLock(publishedDir: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  await mkdir(path.dirname(publishedDir), { recursive: true });
  return acquire(outputLockFile(publishedDir), `into ${publishedDir}`, options);
}

/** The lock file of the output folder whose published folder is `publishedDir`. */
export const outputLockFile = (publishedDir: string): string => `${publishedDir}.lock`;

async function acquire(file: string, of: string, { waitMs = 10 * 60_000, onWait, read = readText }: LockOptions): Promise<() => Promise<void>> {
  const me = await thisProcess();
  const text = JSON.stringify(me);
  const deadline = Date.now() + waitMs;
  let told = false;
  let unwrittenLooks = 0;
  for (;;) {
    if (await create(file, text)) {
      return async () => {
        // Only our own lock: never one taken over by another build after ours was judged stale.
        if ((await readFile(file, 'utf8').catch(() => null)) === text) await rm(file, { force: true });
      };
    }
    const holder = await holderOf(file, read);
    // Released between our attempt and the look: try again at once.
    if (holder === 'gone') continue;
    if (!isUnreadable(holder) && (await stale(file, holder, me))) {
      await takeOver(file, holder, read);
      continue;
    }
    const { waiting, error } = held(file, holder, me, of);
    if (Date.now() >= deadline) throw new BuildLockedError(error, file);
    // A lock is written just after it is made: seen empty once, who holds it is told at the next look.
    if (!told && (holder === 'unwritten' ? ++unwrittenLooks > 1 : true)) {
      onWait?.(waiting);
      told = true;
    }
    await sleep(POLL_MS);
  }
}

/**
 * Removes a stale lock, unless another build replaced it meanwhile: it is moved aside first and
 * checked there, and put back if it is not the one judged stale. A build killed in between
 * leaves `build.lock.stale-<pid>`, which a later build removes (emit/journal.ts, removeLeftovers).
 */
async function takeOver(file: string, judged: Holder | 'unwritten', read: ReadLock): Promise<void> {
  const aside = `${file}.stale-${process.pid}`;
  try {
    await rename(file, aside);
  } catch {
    return; // Someone else took it over first.
  }
  const moved = await holderOf(aside, read).catch(() => null);
  const same = judged === 'unwritten' ? moved === 'unwritten' : typeof moved === 'object' && moved !== null && !isUnreadable(moved) && moved.pid === judged.pid && moved.started === judged.started;
  if (same) await rm(aside, { force: true });
  else await rename(aside, file).catch(() => rm(aside, { force: true }));
}
