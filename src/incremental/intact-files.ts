// Which files of the previous build are still in the output folder as it left them (same
// size and times, or the same bytes: stillAsLeft): the files a build may keep instead of
// writing. A stat per output file depends on nothing but the output manifest, so a helper
// thread (intact-files-worker.ts) does them while the main thread loads the content.
import { withChangeTime, type FileState } from '../files/digest.js';
import { startModuleWorker } from '../files/module-worker.js';

/** What the helper thread checks: each file's path (relative to `outDir`) and state (FileState), in columns. */
export interface IntactCheck {
  outDir: string;
  rels: string[];
  digests: string[];
  sizes: Float64Array;
  mtimes: Float64Array;
  ctimes: Float64Array;
}

/**
 * The files of `files` (paths relative to `outDir`) still as the build that recorded them left
 * them (stillAsLeft), each with its state now: its change time may have moved.
 */
export function intactFiles(outDir: string, files: Readonly<Record<string, FileState>>): Promise<ReadonlyMap<string, FileState>> {
  const rels = Object.keys(files);
  const [digests, sizes, mtimes, ctimes] = [new Array<string>(rels.length), new Float64Array(rels.length), new Float64Array(rels.length), new Float64Array(rels.length)];
  rels.forEach((rel, i) => ([digests[i], sizes[i], mtimes[i], ctimes[i]] = files[rel]!));
  return new Promise((resolve, reject) => {
    const check: IntactCheck = { outDir, rels, digests, sizes, mtimes, ctimes };
    const worker = startModuleWorker(import.meta.url, 'intact-files-worker', { workerData: check, transferList: [sizes.buffer, mtimes.buffer, ctimes.buffer] });
    // Per file, its change time now, or NaN when it is not intact.
    worker.once('message', (now: Float64Array) => {
      const intact = new Map<string, FileState>();
      rels.forEach((rel, i) => {
        const state = files[rel]!;
        if (!Number.isNaN(now[i]!)) intact.set(rel, now[i] === state[3] ? state : withChangeTime(state, now[i]!));
      });
      resolve(intact);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the output check stopped early (exit code ${code})`)));
  });
}
