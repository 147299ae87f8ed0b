// The files `dev` watches, and the turning of file events into changes: each burst of events
// becomes one call of `onChange`, one at a time, and no save is ever lost.
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isInside } from '../../files/real-path.js';
import { messageOf } from '../../errors/thrown.js';

/** Past chokidar's 50 ms change throttle: a write it swallowed shows by then. */
const RECHECK_MS = 80;

/**
 * A file as a stat sees it: the change time too, as the build cache compares files (a tool that
 * puts the modification time back moves it). With `lstat`, a link itself, not what it leads to.
 */
async function signature(file: string, look: typeof stat = stat): Promise<string> {
  try {
    const s = await look(file);
    return `${s.mtimeMs}:${s.ctimeMs}:${s.size}`;
  } catch {
    return 'gone';
  }
}

/** How often a path chokidar could not watch is looked at. */
const UNWATCHED_POLL_MS = 500;

export interface SiteWatcher {
  /** Resolves once the watcher is ready: edits after this are seen. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Watches `targets` (folders and files) and calls `onChange` with the absolute paths that changed:
 * those of one save (a write, an editor's write and rename), which come within `debounceMs` of
 * each other; then, as soon as that change is applied, all that came meanwhile (a checkout's many
 * files make two changes, not one each).
 */
export function watchSiteFiles(targets: string[], onChange: (files: string[]) => Promise<void>, debounceMs = 3): SiteWatcher {
  // Watch folders, not globs (chokidar 4+ has none); ignore editor droppings and dotfiles.
  // Each watched folder is watched from its parent: chokidar stops watching a folder that is
  // deleted, and a parent sees it come back (and reports what it holds again).
  const parents = [...new Set(targets.map((t) => path.dirname(t)))];
  const watcher: FSWatcher = watch(parents, {
    ignoreInitial: true,
    ignored: (file: string) => {
      const abs = path.resolve(file);
      if (parents.includes(abs)) return false;
      const target = targets.find((t) => isInside(abs, [t]));
      return !target || /(^|[\\/])\.[^\\/]|~$|\.sw[a-p]$|\.tmp$/.test(path.relative(target, abs));
    },
  });
  // chokidar drops a change that follows another within 50 ms and may report a write
  // at its truncation, before the content lands. So each file is signed (mtime, size)
  // before it is read; if the signature moved by the end, or moves within the throttle
  // window after, the file goes through again.
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const rechecks = new Set<NodeJS.Timeout>();
  let queue = Promise.resolve();
  let closed = false;
  /** A change is being applied: what comes meanwhile waits for its end. */
  let applying = false;
  const enqueue = (files: Iterable<string>, delay = debounceMs) => {
    for (const f of files) pending.add(f);
    if (applying) return;
    clearTimeout(timer);
    timer = setTimeout(flush, delay);
  };
  const flush = () => {
    const files = [...pending];
    pending = new Set();
    applying = true;
    queue = queue
      .then(async () => {
        const before = await Promise.all(files.map((file) => signature(file)));
        await onChange(files);
        const moved = async () => {
          const now = await Promise.all(files.map((file) => signature(file)));
          return files.filter((_, i) => now[i] !== before[i]);
        };
        const late = await moved();
        if (late.length > 0) return enqueue(late, 0);
        const recheck = setTimeout(() => {
          rechecks.delete(recheck);
          if (!closed) void moved().then((changed) => changed.length > 0 && enqueue(changed, 0));
        }, RECHECK_MS);
        rechecks.add(recheck);
      })
      .catch((error: unknown) => console.error(error))
      .finally(() => {
        applying = false;
        if (pending.size > 0 && !closed) enqueue([], 0);
      });
  };
  for (const event of ['add', 'change', 'unlink'] as const) watcher.on(event, (file: string) => enqueue([path.resolve(file)]));
  // A path chokidar cannot watch (a loop of links): the change it stands for goes through, and
  // the build reports the path; unhandled, the error would stop dev. chokidar reports no later
  // event for it, so it is looked at until it changes (removed, or made a file).
  const unwatched = new Map<string, string>();
  let polling: NodeJS.Timeout | undefined;
  const poll = async () => {
    for (const [file, was] of unwatched) {
      const now = await signature(file, lstat);
      if (now !== was) {
        unwatched.delete(file);
        enqueue([file]);
      }
    }
    polling = unwatched.size > 0 && !closed ? setTimeout(() => void poll(), UNWATCHED_POLL_MS).unref() : undefined;
  };
  watcher.on('error', (error: unknown) => {
    const file = (error as NodeJS.ErrnoException).path;
    if (!file) return console.error(`ir-site dev: a folder could not be watched: ${messageOf(error)}`);
    const abs = path.resolve(file);
    enqueue([abs]);
    void signature(abs, lstat).then((signed) => {
      unwatched.set(abs, signed);
      polling ??= setTimeout(() => void poll(), UNWATCHED_POLL_MS).unref();
    });
  });
  // A watched folder that goes or comes back (content/ deleted and made again) is a change of its
  // own, besides the files it held or holds: a folder left empty still changes the site.
  for (const event of ['addDir', 'unlinkDir'] as const) {
    watcher.on(event, (dir: string) => {
      if (targets.includes(path.resolve(dir))) enqueue([path.resolve(dir)]);
    });
  }
  return {
    ready: new Promise<void>((resolve) => watcher.once('ready', () => resolve())),
    async close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(polling);
      for (const r of rechecks) clearTimeout(r);
      await watcher.close();
      await queue;
    },
  };
}
