// Which files of the previous build are still in the output folder as it left them (same
// size, modification and change times): the files a build may keep instead of writing. At 4000
// articles per language that is 16k stats, ~0.1 s, which used to run on the main thread in
// the middle of the render stage. They depend on nothing but the output manifest, so a
// helper thread (intact-files-worker.ts) does them while the main thread loads the content.
import type { FileState } from '../files/digest.js';
import { startModuleWorker } from '../files/module-worker.js';

/** What the helper thread checks: each file's path (relative to `outDir`), size, modification and change times. */
export interface IntactCheck {
  outDir: string;
  rels: string[];
  sizes: Float64Array;
  mtimes: Float64Array;
  ctimes: Float64Array;
}

/** The paths of `files` (relative to `outDir`) whose size and times are as recorded. */
export function intactFiles(outDir: string, files: Readonly<Record<string, FileState>>): Promise<ReadonlySet<string>> {
  const rels = Object.keys(files);
  const sizes = Float64Array.from(rels, (rel) => files[rel]![1]);
  const mtimes = Float64Array.from(rels, (rel) => files[rel]![2]);
  const ctimes = Float64Array.from(rels, (rel) => files[rel]![3]);
  return new Promise((resolve, reject) => {
    const check: IntactCheck = { outDir, rels, sizes, mtimes, ctimes };
    const worker = startModuleWorker(import.meta.url, 'intact-files-worker', { workerData: check, transferList: [sizes.buffer, mtimes.buffer, ctimes.buffer] });
    worker.once('message', (intact: Uint8Array) => {
      resolve(new Set(rels.filter((_, i) => intact[i] === 1)));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the output check stopped early (exit code ${code})`)));
  });
}
