// The output files' states as the helper thread takes them (incremental/output-states.ts): what
// the up-to-date check compares and the build keeps files by. A file reached through a link, or
// of another kind, has no state; the helper's shares and this thread's add up to every file.
import assert from 'node:assert/strict';
import { lstat, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { outputStatsHelper } from '../../src/incremental/output-states.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** An output folder: `count` plain files in folders, and each kind of path that is not one. */
async function outputFolder(count: number): Promise<{ root: string; plain: string[]; notPlain: string[] }> {
  const root = await mkdtemp(path.join(tmpdir(), 'ir-output-states-'));
  dirs.push(root);
  const plain: string[] = [];
  for (let i = 0; i < count; i++) {
    const rel = `page-${i % 37}/${i}.html`;
    await mkdir(path.join(root, path.dirname(rel)), { recursive: true });
    await writeFile(path.join(root, rel), 'x'.repeat(i));
    plain.push(rel);
  }
  await symlink(path.join(root, plain[1]!), path.join(root, 'link.html'));
  await symlink(path.join(root, 'page-1'), path.join(root, 'linked-folder'));
  return { root, plain, notPlain: ['missing.html', 'page-2', 'link.html', `linked-folder/${path.basename(plain[1]!)}`, `${plain[3]}/under-a-file.html`] };
}

async function expected(root: string, names: readonly string[], notPlain: readonly string[]): Promise<number[]> {
  const states: number[] = [];
  for (const rel of names) {
    if (notPlain.includes(rel)) states.push(Number.NaN, Number.NaN, Number.NaN);
    else {
      const { size, mtimeMs, ctimeMs } = await lstat(path.join(root, rel));
      states.push(size, mtimeMs, ctimeMs);
    }
  }
  return states;
}

test('the helper alone, and the helper with this thread taking shares, find each file its size and times; NaN for a path that is no plain file', async () => {
  const { root, plain, notPlain } = await outputFolder(1500);
  const names = [...plain.slice(0, 700), ...notPlain, ...plain.slice(700)];
  const want = await expected(root, names, notPlain);
  for (const how of ['settled', 'shared'] as const) {
    const helper = outputStatsHelper();
    const states = helper.stat(names, root);
    assert.deepEqual([...(await states[how]())], want, how);
    assert.equal(await states.settled(), await states.shared(), 'one result, however asked');
    helper.stop();
  }
});

test('a helper stopped before it began, or gone before it was given the files: this thread stats every file itself', async () => {
  const { root, plain, notPlain } = await outputFolder(300);
  const names = [...plain, ...notPlain];
  const want = await expected(root, names, notPlain);
  const stopped = outputStatsHelper();
  stopped.stop();
  assert.deepEqual([...(await stopped.stat(names, root).settled())], want, 'stopped');
  const gone = outputStatsHelper();
  gone.stop();
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual([...(await gone.stat(names, root).settled())], want, 'gone');
});
