// The helper thread of intact-files.ts: stats every file of the previous build's output.
import { statSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { IntactCheck } from './intact-files.js';

const { outDir, rels, sizes, mtimes } = workerData as IntactCheck;
const intact = new Uint8Array(rels.length);
for (let i = 0; i < rels.length; i++) {
  const now = statSync(path.join(outDir, rels[i]!), { throwIfNoEntry: false });
  intact[i] = now !== undefined && now.isFile() && now.size === sizes[i] && now.mtimeMs === mtimes[i] ? 1 : 0;
}
parentPort!.postMessage(intact, [intact.buffer]);
