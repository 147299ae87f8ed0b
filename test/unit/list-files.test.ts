// listFiles replaces fast-glob's `**/*` walk of the content folder and of ir-site's code: it
// must list the same files, symlinks and dot names included, and end on a link loop.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import fg from 'fast-glob';
import { listFiles } from '../../src/content/list-files.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tree(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-list-files-'));
  dirs.push(dir);
  const files = ['site.yaml', 'articles/b/en.md', 'articles/b/fr.md', 'articles/a/en.md', 'articles/a/chart.png', 'articles/.hidden/en.md', 'articles/a/.DS_Store', 'portfolio/x.yaml', 'deep/er/still/file.pdf'];
  for (const file of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), file);
  }
  await mkdir(path.join(dir, 'empty/folder'), { recursive: true });
  const outside = await mkdtemp(path.join(tmpdir(), 'ir-list-files-outside-'));
  dirs.push(outside);
  await mkdir(path.join(outside, 'c'));
  await writeFile(path.join(outside, 'c', 'en.md'), 'linked');
  await symlink(path.join(outside, 'c'), path.join(dir, 'articles', 'c'));
  await symlink(path.join(dir, 'site.yaml'), path.join(dir, 'portfolio', 'linked.yaml'));
  await symlink(path.join(dir, 'nowhere'), path.join(dir, 'portfolio', 'broken.yaml'));
  await symlink(dir, path.join(dir, 'deep', 'loop'));
  return dir;
}

test('lists what fast-glob lists: sorted, no dot names, symlinked files and folders followed, broken links left out', async () => {
  const dir = await tree();
  const listed = listFiles(dir);
  const globbed = fg.sync(['**/*'], { cwd: dir, onlyFiles: true, dot: false, ignore: ['deep/loop/**'] }).sort();
  // fast-glob goes round the loop a few times before giving up; listFiles walks the tree once.
  assert.deepEqual(listed.filter((f) => !f.startsWith('deep/loop/')), globbed);
  assert.ok(listed.includes('articles/c/en.md'), 'a symlinked folder is walked');
  assert.ok(listed.includes('portfolio/linked.yaml'), 'a symlinked file is listed');
  assert.ok(!listed.includes('portfolio/broken.yaml'), 'a broken link is no file');
  assert.ok(!listed.some((f) => f.includes('/.') || f.startsWith('.')), 'no dot names');
  assert.deepEqual(listed, [...listed].sort());
});

test('a missing folder lists nothing; a file where a folder should be is an error', async () => {
  const dir = await tree();
  assert.deepEqual(listFiles(path.join(dir, 'no-such-folder')), []);
  assert.throws(() => listFiles(path.join(dir, 'site.yaml')), /ENOTDIR/);
});
