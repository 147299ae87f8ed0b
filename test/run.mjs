// Runs every test file with node:test (Node 20 does not expand globs itself).
// Usage: node test/run.mjs [substring...] to run only matching files.
import { spawnSync } from 'node:child_process';
import fg from 'fast-glob';

const filters = process.argv.slice(2);
const files = (await fg(['test/**/*.test.ts'], { ignore: ['test/fixtures/**'] }))
  .sort()
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
process.exit(result.status ?? 1);
