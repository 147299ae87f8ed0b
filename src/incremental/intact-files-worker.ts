// The helper thread of intact-files.ts: lstats every file of the previous build's output. A
// file reached through a link, or of another kind than a file, is not intact: the build writes
// it again, replacing what is in the way (emit/placing.ts).
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { stillAsLeft } from '../files/digest.js';
import { plainFileReader } from '../files/plain-files.js';
import type { IntactCheck } from './intact-files.js';

const { outDir, rels, digests, sizes, mtimes, ctimes } = workerData as IntactCheck;
const plainFile = plainFileReader(outDir);
const changed = new Float64Array(rels.length).fill(Number.NaN);
for (let i = 0; i < rels.length; i++) {
  const now = plainFile(rels[i]!);
  if (now !== null && stillAsLeft([digests[i]!, sizes[i]!, mtimes[i]!, ctimes[i]!], now, path.join(outDir, rels[i]!))) changed[i] = now.ctimeMs;
}
parentPort!.postMessage(changed, [changed.buffer]);
