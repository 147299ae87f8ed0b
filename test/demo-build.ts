// The demo site built once per test run (test/run.mjs calls this file before the tests and
// passes the folder in IR_SITE_TEST_DEMO_OUT): the browser tests serve that one build
// instead of building the demo in every file. They only read it.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from '../src/build/index.js';
import { REPO } from './helpers.js';

export const DEMO_OUT_VARIABLE = 'IR_SITE_TEST_DEMO_OUT';

/** A built copy of the demo: the run's shared one, or (a file run on its own) a new one. */
export async function demoBuild(): Promise<{ dir: string; shared: boolean }> {
  const shared = process.env[DEMO_OUT_VARIABLE];
  if (shared) return { dir: shared, shared: true };
  const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'ir-site-demo-')), 'public');
  await build({ root: REPO, outDir: dir, reporter: {} });
  return { dir, shared: false };
}

// `node --import tsx test/demo-build.ts <out>`: the global set-up.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: demo-build.ts <output folder>');
  await build({ root: REPO, outDir: out, reporter: {} });
}
