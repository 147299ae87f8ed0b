// Which files of the previous build are still in the output folder as it left them (same
// size and modification time): the files a build may keep instead of writing. At 4000
// articles per language that is 16k stats, ~0.1 s, which used to run on the main thread in
// the middle of the render stage. They depend on nothing but the output manifest, so a
// helper thread does them while the main thread loads the content.
import { Worker } from 'node:worker_threads';
import type { FileState } from '../files/digest.js';

// Plain CommonJS run with `eval`: no module to find or compile, in tsx and dist alike.
const CHECK = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const path = require('node:path');
const { outDir, rels, sizes, mtimes } = workerData;
const intact = new Uint8Array(rels.length);
for (let i = 0; i < rels.length; i++) {
  const now = statSync(path.join(outDir, rels[i]), { throwIfNoEntry: false });
  intact[i] = now !== undefined && now.isFile() && now.size === sizes[i] && now.mtimeMs === mtimes[i] ? 1 : 0;
}
parentPort.postMessage(intact, [intact.buffer]);
`;

/** The paths of `files` (relative to `outDir`) whose size and modification time are as recorded. */
export function intactFiles(outDir: string, files: Readonly<Record<string, FileState>>): Promise<ReadonlySet<string>> {
  const rels = Object.keys(files);
  const sizes = Float64Array.from(rels, (rel) => files[rel]![1]);
  const mtimes = Float64Array.from(rels, (rel) => files[rel]![2]);
  return new Promise((resolve, reject) => {
    const worker = new Worker(CHECK, { eval: true, workerData: { outDir, rels, sizes, mtimes }, transferList: [sizes.buffer, mtimes.buffer] });
    worker.once('message', (intact: Uint8Array) => {
      resolve(new Set(rels.filter((_, i) => intact[i] === 1)));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the output check stopped early (exit code ${code})`)));
  });
}
