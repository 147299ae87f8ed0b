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
const env = { ...process.env, NODE_ENV: 'production' };

// Global set-up: the browser tests serve one build of the demo (test/demo-build.ts).
let demoTmp;
if (files.some((f) => f.startsWith('test/e2e/'))) {
  demoTmp = mkdtempSync(path.join(os.tmpdir(), 'ir-site-test-demo-'));
  chmodSync(demoTmp, 0o755); // readable by nginx's workers in test/e2e/nginx.test.ts
  const out = path.join(demoTmp, 'public');
  const setup = spawnSync(process.execPath, ['--import', 'tsx', 'test/demo-build.ts', out], { stdio: 'inherit', env });
  if (setup.status !== 0) {
    rmSync(demoTmp, { recursive: true, force: true });
    console.error('the global set-up (building the demo site for the browser tests) failed');
    process.exit(setup.status ?? 1);
  }
  env.IR_SITE_TEST_DEMO_OUT = out;
}

const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit', env });
if (demoTmp) rmSync(demoTmp, { recursive: true, force: true });
process.exit(result.status ?? 1);
