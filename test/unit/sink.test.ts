import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { StagedDiskSink } from '../../src/emit/sink.js';

test('commit swaps the new output in whole; the old one is gone', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-sink-'));
  const out = path.join(dir, 'public');
  await mkdir(out);
  await writeFile(path.join(out, 'old.txt'), 'old');
  const sink = new StagedDiskSink(out);
  await sink.write('a/index.html', 'new');
  assert.equal(await readFile(path.join(out, 'old.txt'), 'utf8'), 'old', 'untouched until commit');
  await sink.commit();
  assert.deepEqual(await readdir(out), ['a']);
  assert.deepEqual(await readdir(dir), ['public'], 'no staging or previous folder left');
});

test('discard leaves the previous output exactly as it was', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-sink-'));
  const out = path.join(dir, 'public');
  await mkdir(out);
  await writeFile(path.join(out, 'old.txt'), 'old');
  const sink = new StagedDiskSink(out);
  await sink.write('x.txt', 'x');
  await sink.discard();
  assert.deepEqual(await readdir(dir), ['public']);
  assert.deepEqual(await readdir(out), ['old.txt']);
});

test('a sink never writes outside its folder', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-sink-'));
  const sink = new StagedDiskSink(path.join(dir, 'public'));
  await assert.rejects(sink.write('../escape.txt', 'x'), /outside the output folder/);
});
