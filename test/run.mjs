// Runs every test file with node:test (Node 20 does not expand globs itself).
// Usage: node test/run.mjs [substring...] to run only matching files.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';

const filters = process.argv.slice(2);
const files = (await fg(['test/**/*.test.ts'], { ignore: ['test/fixtures/**'] }))
  .sort()
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
// Every temporary folder of the run (sites, outputs, browser profiles) is made under one folder
// (os.tmpdir() reads TMPDIR), removed when the run ends, so no run leaves sites behind nor
// records of their output folders in the fixtures' caches.
const runTmp = mkdtempSync(path.join(os.tmpdir(), 'ir-site-tests-'));
chmodSync(runTmp, 0o755); // readable by nginx's workers in test/e2e/nginx.test.ts
const env = { ...process.env, NODE_ENV: 'production', TMPDIR: runTmp };
const finish = (status) => {
  rmSync(runTmp, { recursive: true, force: true });
  process.exit(status ?? 1);
};

// Global set-up: the browser tests serve one build of the demo (test/demo-build.ts).
if (files.some((f) => f.startsWith('test/e2e/'))) {
  const demoTmp = mkdtempSync(path.join(runTmp, 'demo-'));
  chmodSync(demoTmp, 0o755);
  const out = path.join(demoTmp, 'public');
  const setup = spawnSync(process.execPath, ['--import', 'tsx', 'test/demo-build.ts', out], { stdio: 'inherit', env });
  if (setup.status !== 0) {
    console.error('the global set-up (building the demo site for the browser tests) failed');
    finish(setup.status);
  }
  env.IR_SITE_TEST_DEMO_OUT = out;
}

const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit', env });
finish(result.status);
