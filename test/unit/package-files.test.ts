// What `npm pack` puts in the package: everything the tool loads when installed from the
// registry, not from a clone. Without a `files` list npm leaves out what .gitignore lists, dist/
// among it, and every subpath of package.json's `exports` failed to import.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fg from 'fast-glob';

test('the package holds bin/, the built dist/ (every export and the CLI) and the src/ files the build bundles for the browser', () => {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as [{ files: { path: string }[] }];
  const files = new Set(packed.files.map((f) => f.path));
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string>; exports: Record<string, Record<string, string>> };
  const promised = [...Object.values(pkg.bin), ...Object.values(pkg.exports).flatMap((targets) => Object.values(targets))].map((p) => p.replace(/^\.\//, ''));
  for (const file of promised) assert.ok(files.has(file), `package.json names ${file}, which the package lacks`);
  const local = fg.sync(['bin/**', 'dist/**', 'src/**'], { dot: false });
  assert.ok(local.some((f) => f.startsWith('dist/cli/')), 'dist/ is built (npm test builds it first)');
  const missing = local.filter((f) => !files.has(f));
  assert.deepEqual(missing, [], 'files of bin/, dist/ or src/ the package leaves out');
});
