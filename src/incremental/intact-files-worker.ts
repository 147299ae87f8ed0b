// The helper thread of intact-files.ts: reads the previous build's output manifest and stats
// every file it lists, while the main thread loads the content.
import { statSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { IntactCheck, IntactReport } from './intact-files.js';
import { readManifest } from './output-manifest.js';

const { manifestPath, outDir, fingerprint } = workerData as IntactCheck;
const manifest = await readManifest(manifestPath, outDir, fingerprint);
let report: IntactReport | null = null;
if (manifest) {
  const changed: string[] = [];
  for (const [rel, [, size, mtimeMs]] of Object.entries(manifest.files)) {
    const now = statSync(path.join(outDir, rel), { throwIfNoEntry: false });
    if (now === undefined || !now.isFile() || now.size !== size || now.mtimeMs !== mtimeMs) changed.push(rel);
  }
  report = { output: manifest.output ?? null, files: Object.keys(manifest.files).length, changed };
}
parentPort!.postMessage(report);
