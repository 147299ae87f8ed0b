// listFiles replaces fast-glob's `**/*` walk of the content folder and of ir-site's code: it
// must list the same files, symlinks and dot names included, and end on a link loop. With the
// build cache, the build's walk of its inputs must list the content folder as listFiles does.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import fg from 'fast-glob';
import { listFiles } from '../../src/build/content/list-files.js';
import type { ResolvedConfig } from '../../src/build/config/resolve.js';
import { walkedContent } from '../../src/build/up-to-date.js';
import { inputStates } from '../../src/incremental/up-to-date.js';

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

/** A site's folders for walkedContent: `content` and the cache (`inside`: in the content folder), the rest missing. */
function siteDirs(content: string, cacheInside = false): ResolvedConfig {
  const missing = path.join(content, '..', 'no-such-folder');
  const cache = cacheInside ? path.join(content, 'cache') : path.join(content, '..', '.cache');
  return { dirs: { content, cache, out: path.join(content, '..', 'public'), config: missing, locales: missing, templates: missing } } as ResolvedConfig;
}

const walked = (config: ResolvedConfig) => walkedContent({ key: '', at: Date.now(), files: inputStates(Object.values(config.dirs), [config.dirs.out, config.dirs.cache]) }, config);

test("with the build cache, the content folder's files and states come from the walk made before the build: as listFiles lists them, as stat finds them", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-list-files-walked-'));
  dirs.push(dir);
  for (const file of ['site.yaml', 'articles/b/en.md', 'articles/a/en.md', 'articles/a/chart.png', 'articles/.hidden/en.md', 'ärticles/é/en.md', 'deep/er/file.pdf']) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), file);
  }
  const content = walked(siteDirs(dir));
  assert.ok(content);
  assert.deepEqual(content.files, listFiles(dir));
  for (const file of content.files) {
    const { size, mtimeMs, ctimeMs } = await stat(path.join(dir, file));
    assert.deepEqual(content.stateOf(path.join(dir, file)), { size, mtimeMs, ctimeMs }, file);
  }
  assert.equal(content.stateOf(path.join(dir, 'articles/.hidden/en.md')), undefined, 'no dot names');

  // A cache folder inside the content folder is not walked, but listFiles lists it: no walk.
  await mkdir(path.join(dir, 'cache'));
  await writeFile(path.join(dir, 'cache', 'x.bin'), 'x');
  assert.equal(walked(siteDirs(dir, true)), undefined);
  // The walk gives up on a link, which listFiles follows (within bounds): no walk.
  await symlink(path.join(dir, 'site.yaml'), path.join(dir, 'deep', 'linked.yaml'));
  assert.equal(walked(siteDirs(dir)), undefined);
});
