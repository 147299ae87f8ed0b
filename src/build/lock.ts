// One build of a site at a time. Two builds of the same site share its cache and its output
// folder: run together, one could prune image entries the other is copying, rename a file
// the other just staged, or leave a stylesheet the other deleted. So a build holds
// `<cache>/build.lock` (created exclusively: pid, host, start time) from before it reads the
// cache until after it has published. A second build waits for it, saying so, for at most
// `waitMs`, then stops with an error that names the holder. A lock whose process is gone (a
// build that was killed) is taken over.
import { hostname } from 'node:os';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

interface Holder {
  pid: number;
  host: string;
  started: string;
}

export class BuildLockedError extends Error {
  constructor(
    message: string,
    readonly lockFile: string,
  ) {
    super(message);
  }
}

/** A lock file nobody finished writing (killed between creating and writing it) is stale after this. */
const UNWRITTEN_MS = 5000;
const POLL_MS = 250;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

async function holderOf(file: string): Promise<Holder | 'unwritten' | 'gone'> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return 'gone';
  try {
    const holder = JSON.parse(text) as Holder;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string') return holder;
  } catch {
    // Being written, or never finished: judged by its age below.
  }
  return 'unwritten';
}

/** Whether the lock's holder is certainly gone: a process of this machine that no longer runs, or a lock never written. */
async function stale(file: string, holder: Holder | 'unwritten'): Promise<boolean> {
  if (holder === 'unwritten') {
    const info = await stat(file).catch(() => null);
    return info !== null && Date.now() - info.mtimeMs > UNWRITTEN_MS;
  }
  return holder.host === hostname() && holder.pid !== process.pid && !alive(holder.pid);
}

/**
 * Takes the site's build lock, waiting while another build holds it; resolves to its release.
 * `onWait` hears once why this build waits.
 */
export async function acquireBuildLock(cacheDir: string, { waitMs = 10 * 60_000, onWait }: { waitMs?: number; onWait?: (message: string) => void } = {}): Promise<() => Promise<void>> {
  const file = path.join(cacheDir, 'build.lock');
  await mkdir(cacheDir, { recursive: true });
  const me: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const text = JSON.stringify(me);
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      return async () => {
        // Only our own lock: never one taken over by another build after ours was judged stale.
        if ((await readFile(file, 'utf8').catch(() => null)) === text) await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await holderOf(file);
    if (holder === 'gone') continue;
    if (await stale(file, holder)) {
      await takeOver(file, holder);
      continue;
    }
    const who = holder === 'unwritten' ? 'another build' : `the build started by pid ${holder.pid} on ${holder.host} at ${holder.started}`;
    if (Date.now() >= deadline) {
      throw new BuildLockedError(
        `another build of this site is still running: ${who} holds ${file}. Wait for it to finish, or, if no such build runs any more, delete that file.`,
        file,
      );
    }
    if (!told) onWait?.(`waiting for ${who} to finish (it holds ${file})`);
    told = true;
    await sleep(POLL_MS);
  }
}

/**
 * Removes a stale lock, unless another build replaced it meanwhile: it is moved aside first and
 * checked there, and put back if it is not the one judged stale.
 */
async function takeOver(file: string, judged: Holder | 'unwritten'): Promise<void> {
  const aside = `${file}.stale-${process.pid}`;
  try {
    await rename(file, aside);
  } catch {
    return; // Someone else took it over first.
  }
  const moved = await holderOf(aside);
  const same = judged === 'unwritten' ? moved === 'unwritten' : typeof moved === 'object' && moved.pid === judged.pid && moved.started === judged.started;
  if (same) await rm(aside, { force: true });
  else await rename(aside, file).catch(() => rm(aside, { force: true }));
}
