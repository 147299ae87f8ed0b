// The helper thread of intact-files.ts: lstats every file of the previous build's output. A
// file reached through a link, or of another kind than a file, is not intact: the build writes
// it again, replacing what is in the way (emit/placing.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { plainFileReader } from '../files/plain-files.js';
import type { IntactCheck } from './intact-files.js';

const { outDir, rels, sizes, mtimes, ctimes } = workerData as IntactCheck;
const plainFile = plainFileReader(outDir);
const intact = new Uint8Array(rels.length);
for (let i = 0; i < rels.length; i++) {
  const now = plainFile(rels[i]!);
  intact[i] = now !== null && now.size === sizes[i] && now.mtimeMs === mtimes[i] && now.ctimeMs === ctimes[i] ? 1 : 0;
}
parentPort!.postMessage(intact, [intact.buffer]);
