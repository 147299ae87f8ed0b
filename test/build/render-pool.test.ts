// Rendering on worker threads: a template that throws in a worker is reported like one that
// throws on the main thread (a render/template error per page, with its source file), and
// the output folder is left as it was.
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../../src/core/build.js';
import { DiagnosticsError } from '../../src/errors/diagnostic.js';
import { fixture, REPO } from '../helpers.js';

// Same depth as test/fixtures/<name>, so the fixture's relative locale path still holds.
const root = path.join(REPO, 'test', '.tmp', `render-pool-${process.pid}`);

before(async () => {
  await rm(root, { recursive: true, force: true });
  await mkdir(path.dirname(root), { recursive: true });
  await cp(fixture('minimal'), root, { recursive: true });
  // Templates of its own (they import ../../src/shared: a link keeps that true for the copy).
  await cp(path.join(REPO, 'templates'), path.join(root, 'templates'), { recursive: true });
  await symlink(path.join(REPO, 'src'), path.join(root, 'src'), 'dir');
  const config = path.join(root, 'site.config.ts');
  await writeFile(config, (await readFile(config, 'utf8')).replace(`templates: '../../../templates'`, `templates: 'templates'`));
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

test('a template that throws in a worker fails the build with one render/template error per page, output untouched', async () => {
  const first = await build({ root, reporter: {}, workers: 2 });
  assert.equal(first.render.workers, 2);
  const home = path.join(root, 'public', 'index.html');
  const before = await readFile(home, 'utf8');

  const article = path.join(root, 'templates', 'pages', 'article.tsx');
  const source = await readFile(article, 'utf8');
  await writeFile(
    article,
    source.replace(/export default function (\w+)\((\w+)[^)]*\) \{/, (whole, _name, props: string) => `${whole}\n  if (${props}.pageData.title.includes('Press')) throw new Error('broken on purpose');`),
  );
  const broken = first.graph.routes.filter((r) => r.template === 'article' && (r.data as { title: string }).title.includes('Press'));
  assert.ok(broken.length > 0, 'the fixture has press releases');

  const error = await build({ root, reporter: {}, workers: 2 }).then(
    () => assert.fail('the build should fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DiagnosticsError);
  assert.equal(error.diagnostics.length, broken.length);
  for (const d of error.diagnostics) {
    assert.equal(d.rule, 'render/template');
    assert.match(d.message, /broken on purpose/);
  }
  assert.deepEqual(new Set(error.diagnostics.map((d) => d.file)), new Set(broken.map((r) => r.file)));
  assert.equal(await readFile(home, 'utf8'), before);
  await writeFile(article, source);
});
