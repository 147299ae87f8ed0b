// Rendering on worker threads: a template that throws in a worker is reported like one that
// throws on the main thread (a render/template error per page, with its source file), and
// the output folder is left as it was.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build, type BuildResult } from '../../src/build/index.js';
import { DiagnosticsError } from '../../src/errors/diagnostic.js';
import { writableFixture } from '../helpers.js';

let root: string;

before(async () => {
  root = await writableFixture('minimal', `render-pool-${process.pid}`, { ownTemplates: true });
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * Builds on two workers, then again with `inject(propsName)` added at the top of the article
 * template: that build must fail, leave the output as it was, and its error goes to `check`.
 */
async function failingArticleBuild(inject: (props: string) => string, check: (error: unknown, first: BuildResult) => void): Promise<void> {
  const first = await build({ root, reporter: {}, workers: 2 });
  const home = path.join(root, 'public', 'index.html');
  const before = await readFile(home, 'utf8');
  const article = path.join(root, 'templates', 'pages', 'article.tsx');
  const source = await readFile(article, 'utf8');
  await writeFile(article, source.replace(/export default function (\w+)\((\w+)[^)]*\) \{/, (whole, _name, props: string) => `${whole}\n  ${inject(props)}`));
  try {
    const error = await build({ root, reporter: {}, workers: 2 }).then(
      () => assert.fail('the build should fail'),
      (e: unknown) => e,
    );
    check(error, first);
    assert.equal(await readFile(home, 'utf8'), before);
  } finally {
    await writeFile(article, source);
  }
}

test('a template that throws in a worker fails the build with one render/template error per page, output untouched', () =>
  failingArticleBuild(
    (props) => `if (${props}.pageData.title.includes('Press')) throw new Error('broken on purpose');`,
    (error, first) => {
      assert.equal(first.render.workers, 2, 'the first build renders the fresh copy on two workers');
      const broken = first.graph.routes.filter((r) => r.template === 'article' && (r.data as { title: string }).title.includes('Press'));
      assert.ok(broken.length > 0, 'the fixture has press releases');
      assert.ok(error instanceof DiagnosticsError);
      assert.equal(error.diagnostics.length, broken.length);
      for (const d of error.diagnostics) {
        assert.equal(d.rule, 'render/template');
        assert.match(d.message, /broken on purpose/);
      }
      assert.deepEqual(new Set(error.diagnostics.map((d) => d.file)), new Set(broken.map((r) => r.file)));
    },
  ));

test('a worker that runs out of its capped heap fails the build with what to do, output untouched', () =>
  failingArticleBuild(
    // Keeps every allocation alive: 200 MiB on the first article, more than the cap.
    () => 'const kept: number[][] = ((globalThis as any).__kept ??= []); for (let i = 0; i < 400; i++) kept.push(new Array(1 << 16).fill(i));',
    (error) => assert.match(String((error as Error).message), /render worker ran out of memory .* --workers 0/),
  ));

test('a template that throws a value that is no Error (throw null, throw a string): a render/template error saying what was thrown, on workers too', async () => {
  for (const thrown of ['null', "'plain words'"]) {
    await failingArticleBuild(
      () => `if (Math.random() < 2) throw ${thrown};`,
      (error) => {
        assert.ok(error instanceof DiagnosticsError, String(error));
        assert.ok(error.diagnostics.length > 0 && error.diagnostics.every((d) => d.rule === 'render/template'));
        assert.match(error.diagnostics[0]!.message, thrown === 'null' ? /: null \(thrown, not an Error\)$/ : /: plain words \(thrown, not an Error\)$/);
      },
    );
  }
});

test('a template module that throws as it is loaded: a templates/load error at that template, output untouched', async () => {
  await build({ root, reporter: {} });
  const home = path.join(root, 'public', 'index.html');
  const before = await readFile(home, 'utf8');
  const article = path.join(root, 'templates', 'pages', 'article.tsx');
  const source = await readFile(article, 'utf8');
  await writeFile(article, `throw new Error('thrown at the top');\n${source}`);
  try {
    const error = await build({ root, reporter: {} }).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof DiagnosticsError && error.stage === 'templates', String(error));
    assert.deepEqual(error.diagnostics.map((d) => [d.rule, d.file, d.message]), [['templates/load', 'templates/pages/article.tsx', 'the templates threw as they were loaded: thrown at the top']]);
    assert.equal(await readFile(home, 'utf8'), before);
  } finally {
    await writeFile(article, source);
  }
});

test('a template without a default export: templates/missing at that template, not at the registry the build writes', async () => {
  const article = path.join(root, 'templates', 'pages', 'article.tsx');
  const source = await readFile(article, 'utf8');
  await writeFile(article, source.replace(/export default function/, 'export function'));
  try {
    const error = await build({ root, reporter: {} }).then(() => null, (e: unknown) => e);
    assert.ok(error instanceof DiagnosticsError, String(error));
    assert.deepEqual(error.diagnostics.map((d) => [d.rule, d.file]), [['templates/missing', 'templates/pages/article.tsx']]);
  } finally {
    await writeFile(article, source);
  }
});
