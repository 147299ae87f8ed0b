// The helper thread of the up-to-date check (up-to-date.ts, outputChecker): started once the
// record is read, it checks shares of the output files while the main thread walks the inputs.
import { parentPort } from 'node:worker_threads';
import { checkShares, type FileTable } from './file-table.js';

export interface OutputCheck {
  table: FileTable;
  root: string;
  next: Int32Array;
  failed: Int32Array;
  /** 0 until this thread begins (then 1), or 2 when the main thread has checked every file first. */
  state: Int32Array;
}

parentPort!.once('message', ({ table, root, next, failed, state }: OutputCheck) => {
  if (Atomics.compareExchange(state, 0, 0, 1) === 0) checkShares(table, root, next, failed);
  parentPort!.postMessage('done');
});
