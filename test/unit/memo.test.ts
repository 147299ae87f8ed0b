// The one memo of the build cache (src/incremental/memo.ts), on both its stores: a value comes
// back only under its kind, key and fingerprint; a kind's records are saved only when this
// build's are not the stored ones.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { diskMemo, memoKind, memoryMemo, Records, type Memo } from '../../src/incremental/memo.js';
import { isNumber, isString, recordOf } from '../../src/files/payload-shape.js';

const cache = await mkdtemp(path.join(os.tmpdir(), 'ir-memo-'));
after(() => rm(cache, { recursive: true, force: true }));

const isCount = (value: unknown): value is { count: number } => typeof value === 'object' && value !== null && isNumber((value as { count?: unknown }).count);
const COUNT = memoKind('count', isCount);
const NAMES = memoKind('names', recordOf(isString));

/** A disk memo (each in a folder of its own) and a memory one, with the same fingerprint. */
let folders = 0;
const stores = (fingerprint = 'tool'): [store: string, open: () => Memo, folder: string][] => {
  const disk = path.join(cache, String(folders++));
  const memory = memoryMemo(fingerprint);
  return [
    ['disk', () => diskMemo(disk, fingerprint), disk],
    ['memory', () => memory, ''],
  ];
};

test('a value comes back under its kind and key only; from disk as a copy its reader may change, from memory as it was written', async () => {
  for (const [store, open, folder] of stores()) {
    const memo = open();
    const value = { count: 1 };
    await memo.write(COUNT, value, 'k1');
    const read = await open().read(COUNT, 'k1');
    assert.deepEqual(read, { count: 1 }, store);
    if (folder) {
      value.count = 2; // encoded when written
      read!.count = 3;
      assert.deepEqual(await open().read(COUNT, 'k1'), { count: 1 }, `${store}: a reader's change is its own`);
    } else {
      assert.equal(read, value, 'memory keeps the value itself: nothing is encoded or decoded');
    }
    assert.equal(await open().read(COUNT, 'k2'), null, `${store}: another key`);
    assert.equal(await open().read(memoKind('other', isCount, { file: COUNT.file })), null, `${store}: another kind in its file`);
    assert.equal((await open().open(COUNT))?.key, 'k1', store);
  }
});

test('a value of the wrong shape, or made with another fingerprint, is a miss', async () => {
  const memo = diskMemo(path.join(cache, 'shape'), 'tool');
  await memo.write(memoKind('count', (v): v is unknown => true), { count: 'one' });
  assert.equal(await memo.read(COUNT), null);
  await memo.write(COUNT, { count: 1 });
  assert.equal(await diskMemo(path.join(cache, 'shape'), 'another tool').read(COUNT), null);
  await writeFile(path.join(cache, 'shape', 'build', COUNT.file), 'garbage');
  assert.equal(await memo.read(COUNT), null);
});

test('records: a build saves those it used or made, and only when they are not the stored ones', async () => {
  for (const [store, open, folder] of stores()) {
    const first = await Records.open(open(), NAMES);
    first.set('a', 'A');
    first.set('b', 'B');
    await first.save();
    assert.ok(await open().open(NAMES), store);
    const file = path.join(folder, 'build', NAMES.file);
    if (folder) await utimes(file, new Date(2000, 0, 1), new Date(2000, 0, 1));

    // The same records used again: nothing to save (the file is not rewritten).
    const same = await Records.open(open(), NAMES);
    assert.equal(same.recall('a'), 'A');
    assert.equal(same.recall('b'), 'B');
    same.set('b', 'B');
    await same.save();
    if (folder) assert.equal((await stat(file)).mtime.getFullYear(), 2000, 'not written again');

    // One not used: it goes. peek does not keep a record.
    const fewer = await Records.open(open(), NAMES);
    assert.equal(fewer.peek('b'), 'B');
    fewer.recall('a');
    await fewer.save();
    assert.deepEqual(await open().read(NAMES), { a: 'A' }, store);

    // Few changes among many records: 'when-worth-it' leaves the file as it was, 'on-change' writes it.
    const many = await Records.open(open(), NAMES);
    for (let i = 0; i < 100; i++) many.set(`k${i}`, String(i));
    await many.save();
    for (const policy of ['when-worth-it', 'on-change'] as const) {
      const edit = await Records.open(open(), NAMES);
      for (let i = 0; i < 100; i++) edit.recall(`k${i}`);
      edit.set('k0', 'changed');
      await edit.save(policy);
      assert.equal((await open().read(NAMES))?.k0, policy === 'on-change' ? 'changed' : '0', `${store}: ${policy}`);
    }
  }
});

test('records without a memo (a build without the cache) start empty and are never saved', async () => {
  const records = await Records.open(null, NAMES);
  assert.equal(records.recall('a'), undefined);
  records.set('a', 'A');
  assert.equal(records.peek('a'), 'A');
  await records.save();
});

test('prune drops the files of a folder but those named, on both stores', async () => {
  for (const [store, open, folder] of stores()) {
    const memo = open();
    const inFolder = (name: string) => memoKind('count', isCount, { file: `search/${name}` });
    for (const name of ['en.bin', 'fr.bin', 'de.bin']) await memo.write(inFolder(name), { count: 1 });
    await memo.prune('search', new Set(['en.bin', 'fr.bin']));
    assert.deepEqual(await memo.read(inFolder('de.bin')), null, store);
    assert.deepEqual(await memo.read(inFolder('en.bin')), { count: 1 }, store);
    if (folder) assert.deepEqual((await readdir(path.join(folder, 'build', 'search'))).sort(), ['en.bin', 'fr.bin']);
  }
});

test('writeAtomically: writes of one file that overlap in one process each finish, and leave one whole file and no temporary one', async () => {
  const { writeAtomically } = await import('../../src/files/atomic-write.js');
  const dir = path.join(cache, 'overlapping');
  const file = path.join(dir, 'site.config.0123.mjs');
  // Two loads of one site's configuration at once (`check --dir` reads it twice) write its bundle twice.
  const texts = Array.from({ length: 8 }, (_, i) => `export default ${i};\n`.repeat(2000));
  await Promise.all(texts.map((text) => writeAtomically(file, text)));
  assert.ok(texts.includes(await readFile(file, 'utf8')));
  assert.deepEqual(await readdir(dir), ['site.config.0123.mjs']);
});
