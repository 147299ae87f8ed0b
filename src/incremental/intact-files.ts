// Which files of the previous build are still in the output folder as it left them (same
// size and modification time): the files a build may keep instead of writing. At 4000
// articles per language that is 16k stats, ~0.1 s, and the manifest that lists them takes
// ~0.1 s to read: a helper thread does both while the main thread loads the content. A build
// whose output key is the one the manifest recorded, with every file intact, then never reads
// the manifest on the main thread (build/index.ts).
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../files/module-worker.js';

export interface IntactCheck {
  manifestPath: string;
  outDir: string;
  fingerprint: string;
}

/** What the helper thread found: the manifest's output key, how many files it lists, and those no longer as it recorded them. */
export interface IntactReport {
  output: string | null;
  files: number;
  changed: string[];
}

const WORKER_URL = new URL(`./intact-files-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);

/** The report on the output folder's manifest (null: there is no sound manifest for it). */
export function intactFiles(check: IntactCheck): Promise<IntactReport | null> {
  return new Promise((resolve, reject) => {
    const worker: Worker = startModuleWorker(WORKER_URL, { workerData: check });
    worker.once('message', (report: IntactReport | null) => {
      resolve(report);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the output check stopped early (exit code ${code})`)));
  });
}

/** The files of the manifest still as it recorded them, given the helper thread's report. */
export function intactSet(files: Record<string, unknown>, report: IntactReport): ReadonlySet<string> {
  const changed = new Set(report.changed);
  return new Set(Object.keys(files).filter((rel) => !changed.has(rel)));
}
