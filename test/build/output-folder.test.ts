// The output folder as a deploy set-up may have it: a link to a folder elsewhere (the link
// must stay a link), or a mount point (a container's volume), which cannot be renamed or
// replaced. Both are built into, cold and incrementally, with the output of a build into a
// plain folder and nothing left beside or inside them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFile, cp, lstat, mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build, type BuildOptions } from '../../src/build/index.js';
import { buildFailure, fileTree, findDiagnostic, referenceTree, treeDifferences, writableFixture } from '../helpers.js';

let root = '';
const mounted: string[] = [];
const run = (options: Partial<BuildOptions> = {}) => build({ root, reporter: {}, workers: 0, ...options });
const ARTICLE = 'content/articles/commentary-q2-2025/en.md';

/** The output of a build without the cache into a plain folder, for the site as it is now. */
const reference = () => referenceTree(root, run);

/** Builds (cold: no cache; then with it, after an edit) and checks each output against the reference. */
async function buildTwice(outDir: string, what: string): Promise<void> {
  const article = path.join(root, ARTICLE);
  const original = await readFile(article, 'utf8');
  try {
    await run({ outDir, cache: false });
    // A build's folder: a file left in it by someone goes with the next build that has no record of it.
    await writeFile(path.join(root, outDir, 'stray.txt'), 'left by someone');
    await run({ outDir, cache: false });
    assert.deepEqual(await fileTree(path.join(root, outDir)), await reference(), `${what}: a build without the cache`);
    await run({ outDir });
    await writeFile(article, `${original}\nEdited.\n`);
    await run({ outDir });
    assert.deepEqual(await fileTree(path.join(root, outDir)), await reference(), `${what}: an incremental build`);
  } finally {
    await writeFile(article, original);
  }
  const beside = (await readdir(root)).filter((n) => n.startsWith(`${outDir}.`));
  assert.deepEqual(beside, [], `${what}: nothing left beside it`);
  const inside = (await readdir(path.join(root, outDir))).filter((n) => n.startsWith('.ir-site'));
  assert.deepEqual(inside, [], `${what}: nothing left inside it`);
}

before(async () => {
  root = await writableFixture('minimal', `output-folder-${process.pid}`);
});

after(async () => {
  for (const dir of mounted) spawnSync('umount', [dir]);
  await rm(root, { recursive: true, force: true });
});

test('an output folder that is a link to a folder: built into the folder, and the link stays a link', async () => {
  await mkdir(path.join(root, 'elsewhere', 'site'), { recursive: true });
  await symlink(path.join(root, 'elsewhere', 'site'), path.join(root, 'linked'));
  await buildTwice('linked', 'a link');
  assert.ok((await lstat(path.join(root, 'linked'))).isSymbolicLink(), 'still a link');
  assert.ok((await readdir(path.join(root, 'elsewhere', 'site'))).includes('index.html'), 'the output is where the link points');
  assert.deepEqual((await readdir(path.join(root, 'elsewhere'))).filter((n) => n !== 'site'), [], 'nothing left beside the folder it points to');
});

test('an output folder that is a mount point: built in place, and still the mount point', async (t) => {
  const dir = path.join(root, 'volume');
  await mkdir(dir, { recursive: true });
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir]).status !== 0) {
    assert.notEqual(process.env.CI, 'true', 'CI runs as root and can mount a tmpfs');
    return t.skip('mounting a tmpfs is not allowed here');
  }
  mounted.push(dir);
  await buildTwice('volume', 'a mount point');
  assert.notEqual((await stat(dir)).dev, (await stat(root)).dev, 'still the mount point');
});

test('an output folder that holds files no build made, or that leads (through a link) to a folder of the site, is refused and left as it was; an empty one is built into', async () => {
  await mkdir(path.join(root, 'notes'), { recursive: true });
  await writeFile(path.join(root, 'notes', 'todo.md'), 'the editor\'s');
  await symlink(path.join(root, 'content'), path.join(root, 'to-content'));
  await mkdir(path.join(root, 'empty'), { recursive: true });
  const content = await fileTree(path.join(root, 'content'));
  const cases: [string, RegExp][] = [
    ['notes', /cannot build into it: it holds files that no build made \(todo\.md\)/],
    ['to-content', /the output folder .* is or holds the content folder .* \(.*to-content leads to .*content\)/],
  ];
  for (const [outDir, message] of cases) {
    const diagnostics = await buildFailure(root, { outDir, sink: undefined, reporter: {}, workers: 0 });
    assert.match(findDiagnostic(diagnostics, { rule: 'output/write-failed' }).message, message, outDir);
  }
  assert.equal(await readFile(path.join(root, 'notes', 'todo.md'), 'utf8'), 'the editor\'s');
  assert.deepEqual(await fileTree(path.join(root, 'content')), content, 'the content folder is as it was');
  await run({ outDir: 'empty', cache: false });
  assert.ok((await readdir(path.join(root, 'empty'))).includes('index.html'));
  await rm(path.join(root, 'empty'), { recursive: true });
  await rm(path.join(root, 'notes'), { recursive: true });
  await rm(path.join(root, 'to-content'));
});

test('an output path that is no folder (a file, a link to a file or to nothing, a loop of links, a path through a file) is an error naming it, and nothing is replaced', async () => {
  await writeFile(path.join(root, 'precious.txt'), 'the editor\'s');
  await writeFile(path.join(root, 'a-file'), 'not a folder');
  await symlink(path.join(root, 'precious.txt'), path.join(root, 'to-a-file'));
  await symlink(path.join(root, 'nowhere'), path.join(root, 'to-nothing'));
  await symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
  await symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
  const cases: [string, RegExp][] = [
    ['a-file', /a-file is a file, not a folder/],
    ['to-a-file', /to-a-file is a link to a file/],
    ['to-nothing', /to-nothing is a link to nothing/],
    ['loop-a', /loop-a is a link in a loop/],
    ['a-file/out', /a file is on the way to .*a-file\/out/],
  ];
  for (const [outDir, message] of cases) {
    const diagnostics = await buildFailure(root, { outDir, sink: undefined, workers: 0 });
    const problem = findDiagnostic(diagnostics, { rule: 'output/write-failed' });
    assert.match(problem.message, message, outDir);
  }
  assert.equal(await readFile(path.join(root, 'precious.txt'), 'utf8'), 'the editor\'s');
  assert.equal(await readFile(path.join(root, 'a-file'), 'utf8'), 'not a folder');
  assert.ok((await lstat(path.join(root, 'to-nothing'))).isSymbolicLink());
});

test('an output folder on a file system that makes no files (/proc): an error naming the file it could not make, not a stack', { skip: process.platform !== 'linux' && 'needs /proc' }, async () => {
  const outDir = `/proc/ir-site-test-${process.pid}`;
  const diagnostics = await buildFailure(root, { outDir, sink: undefined, workers: 0 });
  const problem = findDiagnostic(diagnostics, { rule: 'build/locked' });
  assert.equal(problem.file, `${outDir}.lock`);
  assert.match(problem.message, /cannot create .*: the file system there makes no new files/);
  assert.match(problem.hint ?? '', /--out/);
});

/** Runs `work` with the article `slug` deleted from the content, then puts it back. */
async function withoutArticle(slug: string, work: () => Promise<void>): Promise<void> {
  const article = path.join(root, 'content', 'articles', slug);
  const saved = path.join(root, `saved-${slug}`);
  await cp(article, saved, { recursive: true });
  await rm(article, { recursive: true });
  try {
    await work();
  } finally {
    await rename(saved, article);
  }
}

test('another folder put at the output path (a link retargeted, a copy restored from a backup): the record of the folder that was there is not used', async () => {
  const live = path.join(root, 'live');
  const restored = path.join(root, 'restored');
  await mkdir(path.join(root, 'blue'));
  await mkdir(path.join(root, 'green'));
  await symlink('green', live);
  await run({ outDir: 'live' });
  await run({ outDir: 'restored' });
  // cp -a, as a backup is taken: the same files, times and sizes, in a new folder.
  assert.equal(spawnSync('cp', ['-a', restored, path.join(root, 'backup')]).status, 0);
  try {
    await withoutArticle('english-only', async () => {
      await rm(live);
      await symlink('blue', live);
      await run({ outDir: 'live' });
      await rm(live);
      await symlink('green', live);
      await run({ outDir: 'live' });
      await run({ outDir: 'restored' });
      await rm(restored, { recursive: true });
      await rename(path.join(root, 'backup'), restored);
      await run({ outDir: 'restored' });
      const expected = await reference();
      assert.deepEqual(treeDifferences(expected, await fileTree(live)), [], 'a link retargeted to the folder it named before');
      assert.deepEqual(treeDifferences(expected, await fileTree(restored)), [], 'a folder restored from a backup');
    });
  } finally {
    for (const dir of ['live', 'blue', 'green', 'restored', 'backup']) await rm(path.join(root, dir), { recursive: true, force: true });
  }
});

test('paths of the wrong kind inside the output folder (a folder where a file goes, a file where a folder goes, links) are replaced, never written or deleted through', async () => {
  const out = path.join(root, 'public');
  const sources = path.join(root, 'content', 'articles', 'press-one');
  const copy = path.join(root, 'moved-away');
  await rm(out, { recursive: true, force: true });
  await run();
  await rm(path.join(out, 'robots.txt'));
  await mkdir(path.join(out, 'robots.txt'));
  await writeFile(path.join(out, 'robots.txt', 'x'), '');
  await rm(path.join(out, 'article', 'press-one'), { recursive: true });
  await writeFile(path.join(out, 'article', 'press-one'), 'hi');
  await rm(path.join(out, 'press-one'), { recursive: true });
  await symlink(sources, path.join(out, 'press-one'));
  await rm(path.join(out, 'sitemap.xml'));
  await symlink(path.join(sources, 'en.md'), path.join(out, 'sitemap.xml'));
  // The folder moved out and linked back: its files are still as the build left them.
  await mkdir(copy);
  await rename(path.join(out, 'your-team'), path.join(copy, 'your-team'));
  await symlink(path.join(copy, 'your-team'), path.join(out, 'your-team'));
  const en = path.join(sources, 'en.md');
  const original = await readFile(en, 'utf8');
  try {
    await appendFile(en, '\nEdited.\n');
    const sourcesBefore = await fileTree(sources);
    const copyBefore = await fileTree(copy);
    await run();
    assert.deepEqual(treeDifferences(await reference(), await fileTree(out)), [], 'the output is a build\'s into an empty folder');
    assert.deepEqual(await fileTree(sources), sourcesBefore, 'nothing written into the folder a link named');
    assert.deepEqual(await fileTree(copy), copyBefore, 'nor into the other');
    for (const dir of ['press-one', 'your-team', 'article/press-one']) assert.ok((await lstat(path.join(out, dir))).isDirectory(), `${dir} is a folder`);
    assert.ok((await lstat(path.join(out, 'sitemap.xml'))).isFile(), 'sitemap.xml is a file');

    // A page deleted since, its folder a link to a copy: the link goes, the copy stays.
    await cp(path.join(out, 'article', 'commentary-Q2-2025'), path.join(copy, 'article'), { recursive: true });
    await rm(path.join(out, 'article', 'commentary-Q2-2025'), { recursive: true });
    await symlink(path.join(copy, 'article'), path.join(out, 'article', 'commentary-Q2-2025'));
    const copyNow = await fileTree(copy);
    await withoutArticle('commentary-q2-2025', async () => {
      await run();
      assert.deepEqual(treeDifferences(await reference(), await fileTree(out)), [], 'a page deleted since');
    });
    assert.deepEqual(await fileTree(copy), copyNow, 'nothing deleted through the link');
  } finally {
    await writeFile(en, original);
    await rm(copy, { recursive: true, force: true });
  }
});
