// dev's watcher turns file events into changes: one save is one change, applied at once, and
// what is written while a change is applied makes one change after it, not one each.
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { watchSiteFiles, type SiteWatcher } from '../../src/commands/server/dev-watch.js';
import { REPO } from '../helpers.js';

const root = path.join(REPO, 'test', '.tmp', `dev-watch-${process.pid}`);
const content = path.join(root, 'content');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let watcher: SiteWatcher;
const calls: string[][] = [];
/** Each change waits for this before it ends, so a test can keep one going. */
let hold: Promise<void> = Promise.resolve();

async function until(what: string, check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms; changes seen: ${JSON.stringify(calls)}`);
    await sleep(5);
  }
}

before(async () => {
  await rm(root, { recursive: true, force: true });
  await mkdir(content, { recursive: true });
  await writeFile(path.join(content, 'a.md'), 'as it was');
  watcher = watchSiteFiles([content], async (files) => {
    calls.push(files.map((f) => path.relative(content, f)).sort());
    await hold;
  });
  await watcher.ready;
});

after(async () => {
  await watcher.close();
  await rm(root, { recursive: true, force: true });
});

test('one save of a file is one change, with that file', async () => {
  calls.length = 0;
  await writeFile(path.join(content, 'a.md'), 'one');
  await until('the save is applied', () => calls.length > 0);
  await sleep(200); // the throttle window and the recheck after it
  assert.deepEqual(calls, [['a.md']]);
});

test('files written while a change is applied make one change after it, with all of them', async () => {
  calls.length = 0;
  let release!: () => void;
  hold = new Promise((resolve) => (release = resolve));
  await writeFile(path.join(content, 'first.md'), 'first');
  await until('the first save is being applied', () => calls.length === 1);
  // Spread out, as a checkout or a formatter writes: each further apart than one save's events.
  for (const name of ['b.md', 'c.md', 'd.md', 'e.md']) {
    await writeFile(path.join(content, name), name);
    await sleep(30);
  }
  await sleep(200); // every event in
  hold = Promise.resolve();
  release();
  await until('the files written meanwhile are applied', () => calls.length === 2);
  await sleep(200);
  assert.deepEqual(calls, [['first.md'], ['b.md', 'c.md', 'd.md', 'e.md']]);
});
