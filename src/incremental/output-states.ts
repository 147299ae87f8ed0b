// The output files' states now (size and times, one lstat each), taken on a helper thread
// (output-stats-worker.ts) while this thread goes on. The up-to-date check compares them with
// its record; when it finds the inputs changed, the build that follows judges with the same
// states which of the last build's files it may keep (intact-files.ts). The helper is started
// first and given the files once they are known, so that its start overlaps the caller's work.
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../files/module-worker.js';
import { statShares } from './file-table.js';
import type { OutputStats } from './output-stats-worker.js';

export interface OutputStates {
  /** The files, relative to the output folder. */
  readonly names: readonly string[];
  /** Their states (statShares) once the helper has taken them all; on this thread when it could not. */
  settled(): Promise<Float64Array>;
  /** As `settled`, with this thread taking shares too. */
  shared(): Promise<Float64Array>;
}

/** A helper thread that boots now and stats the files of one `stat` call, then ends. */
export function outputStatsHelper() {
  let helper: Worker | null = null;
  try {
    helper = startModuleWorker(import.meta.url, 'output-stats-worker', {});
    helper.on('error', () => undefined); // a helper that stops early: its files are statted here
    helper.once('exit', () => (helper = null));
  } catch {
    helper = null;
  }
  return {
    stat(names: readonly string[], root: string): OutputStates {
      const next = new Int32Array(new SharedArrayBuffer(4));
      // 0 until the helper begins (then 1), or 2 when this thread took every share first.
      const state = new Int32Array(new SharedArrayBuffer(4));
      const now = new Float64Array(new SharedArrayBuffer(24 * names.length));
      const worker = helper;
      const helped = new Promise<boolean>((resolve) => {
        if (!worker) return resolve(false);
        worker.once('message', () => resolve(true));
        worker.once('exit', () => resolve(false));
      });
      worker?.postMessage({ names, root, next, now, state } satisfies OutputStats);
      let done: Promise<Float64Array> | null = null;
      const settle = (share: boolean) =>
        (done ??= (async () => {
          if (share) statShares(names, root, next, now);
          // A helper that has not begun is told not to, and not waited for.
          if (share && Atomics.compareExchange(state, 0, 0, 2) === 0) return now;
          if (await helped) return now;
          // The helper never ran, or stopped part-way: every file again, here.
          statShares(names, root, new Int32Array(1), now);
          return now;
        })());
      return { names, settled: () => settle(false), shared: () => settle(true) };
    },
    stop: () => void helper?.terminate(),
  };
}
