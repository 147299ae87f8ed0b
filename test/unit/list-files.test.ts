// listFiles replaces fast-glob's `**/*` walk of the content folder and of ir-site's code: it
// must list the same files, symlinks and dot names included, and end on a link loop. With the
// build cache's folder listings, it must list the same files while reading fewer folders.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import fg from 'fast-glob';
import { FrontMatterCache } from '../../src/incremental/front-matter-cache.js';
import { listFiles, type FolderListings } from '../../src/build/content/list-files.js';
import { diskMemo } from '../../src/incremental/memo.js';

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

/** A tree without links, every file and folder dated an hour back. */
async function oldTree(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-list-files-cached-'));
  dirs.push(dir);
  for (const file of ['site.yaml', 'articles/a/en.md', 'articles/a/fr.md', 'articles/b/en.md', 'deep/er/file.pdf']) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), file);
  }
  await age(dir);
  return dir;
}

async function age(dir: string, msAgo = 3600_000): Promise<void> {
  const when = new Date(Date.now() - msAgo);
  for (const entry of await readdir(dir, { recursive: true })) await utimes(path.join(dir, entry), when, when);
  await utimes(dir, when, when);
}

/** The build cache's listings, counting the folders it answered. */
async function listings(cacheDir: string, previous?: FrontMatterCache) {
  // Written whatever changed (a build defers a few changes: front-matter-cache.test.ts).
  await previous?.save({ always: true });
  const cache = await FrontMatterCache.open(diskMemo(cacheDir, 'fingerprint'));
  const answered: string[] = [];
  const counted: FolderListings = {
    listing: (dir, mtimeMs) => {
      const known = cache.listing(dir, mtimeMs);
      if (known) answered.push(path.basename(dir));
      return known;
    },
    rememberListing: (dir, mtimeMs, listing) => cache.rememberListing(dir, mtimeMs, listing),
  };
  return { cache, counted, answered };
}

test('with the build cache, a folder whose time is as recorded is not read again; a file added, removed or renamed in it is seen', async () => {
  const dir = await oldTree();
  const cacheDir = path.join(await mkdtemp(path.join(tmpdir(), 'ir-list-files-cache-')), 'cache');
  dirs.push(path.dirname(cacheDir));
  let run = await listings(cacheDir);
  assert.deepEqual(listFiles(dir, run.counted), listFiles(dir));
  assert.deepEqual(run.answered, [], 'nothing recorded yet');

  run = await listings(cacheDir, run.cache);
  assert.deepEqual(listFiles(dir, run.counted), listFiles(dir));
  assert.equal(run.answered.length, 6, 'every folder answered from the cache');

  await writeFile(path.join(dir, 'articles', 'b', 'fr.md'), 'new');
  await rename(path.join(dir, 'articles', 'a', 'en.md'), path.join(dir, 'articles', 'a', 'de.md'));
  await rm(path.join(dir, 'deep', 'er', 'file.pdf'));
  run = await listings(cacheDir, run.cache);
  const listed = listFiles(dir, run.counted);
  assert.deepEqual(listed, listFiles(dir));
  assert.deepEqual(listed, ['articles/a/de.md', 'articles/a/fr.md', 'articles/b/en.md', 'articles/b/fr.md', 'site.yaml']);
  assert.deepEqual(run.answered.sort(), ['articles', 'deep', dir.split(path.sep).pop()!].sort(), 'the three changed folders were read');

  // Just changed: recorded, but not trusted by the next build (a change within the same
  // tick of the clock would not show in the time).
  run = await listings(cacheDir, run.cache);
  listFiles(dir, run.counted);
  assert.equal(run.answered.length, 3);
  await age(dir, 1800_000);
  run = await listings(cacheDir, run.cache);
  listFiles(dir, run.counted);
  assert.equal(run.answered.length, 0, 'every time changed');
  run = await listings(cacheDir, run.cache);
  assert.deepEqual(listFiles(dir, run.counted), listed);
  assert.equal(run.answered.length, 6);
});

test('with the build cache, a folder holding a link is always read: what the link points to can change', async () => {
  const dir = await oldTree();
  const target = await mkdtemp(path.join(tmpdir(), 'ir-list-files-target-'));
  dirs.push(target);
  await writeFile(path.join(target, 'one.md'), 'one');
  await symlink(target, path.join(dir, 'articles', 'linked'));
  await age(dir);
  const cacheDir = path.join(target, '.cache');
  let run = await listings(cacheDir);
  listFiles(dir, run.counted);
  run = await listings(cacheDir, run.cache);
  assert.ok(listFiles(dir, run.counted).includes('articles/linked/one.md'));
  assert.ok(!run.answered.includes('articles'), 'the folder with the link was read');
  await writeFile(path.join(target, 'two.md'), 'two');
  run = await listings(cacheDir, run.cache);
  assert.ok(listFiles(dir, run.counted).includes('articles/linked/two.md'));
});
