// The helper thread of output-states.ts: stats shares of the output files, with the thread that
// started it when that one helps, then says so and ends.
import { parentPort } from 'node:worker_threads';
import { statShares } from './file-table.js';

export interface OutputStats {
  names: readonly string[];
  root: string;
  next: Int32Array;
  now: Float64Array;
  /** 0 until this thread begins (then 1), or 2 when the other thread took every share first. */
  state: Int32Array;
}

parentPort!.once('message', ({ names, root, next, now, state }: OutputStats) => {
  if (Atomics.compareExchange(state, 0, 0, 1) === 0) statShares(names, root, next, now);
  parentPort!.postMessage('done');
});
