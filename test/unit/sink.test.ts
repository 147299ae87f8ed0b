import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, writeFile, mkdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { buildSinkOf, MemorySink, StagedDiskSink, type OutputSink } from '../../src/build/emit/sink.js';
import { digestOf, type FileState } from '../../src/files/digest.js';

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

test('updating in place, a record of the previous output that names a path outside the folder deletes nothing there; keep claims only recorded files', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-sink-'));
  const out = path.join(dir, 'public');
  await mkdir(out);
  await writeFile(path.join(dir, 'precious.txt'), 'mine');
  await writeFile(path.join(out, 'page.html'), 'page');
  await writeFile(path.join(out, 'gone.html'), 'gone');
  const { size, mtimeMs, ctimeMs } = await stat(path.join(out, 'page.html'));
  const before: Record<string, FileState> = { 'page.html': ['d1', size, mtimeMs, ctimeMs], 'gone.html': ['d2', 4, 0, 0], '../precious.txt': ['d3', 4, 0, 0] };
  // Another change time: the bytes decide (a chmod moves it; so does an edit whose modification time was put back).
  assert.equal(new StagedDiskSink(out, { ...before, 'page.html': ['d1', size, mtimeMs, ctimeMs - 1] }).keep('page.html', 'd1'), false, 'another change time, other bytes');
  const page = digestOf('page');
  assert.equal(new StagedDiskSink(out, { 'page.html': [page, size, mtimeMs, ctimeMs - 1] }).keep('page.html', page), true, 'another change time, the same bytes');
  const sink = new StagedDiskSink(out, before);
  assert.equal(sink.keep('page.html', 'd1'), true, 'recorded, same digest, same size and times');
  assert.equal(sink.keep('page.html', 'other'), false, 'another digest');
  assert.equal(sink.keep('never-written.html', 'd1'), false, 'not recorded');
  assert.throws(() => sink.keep('../outside.html', 'd1'), /outside the output folder/);
  await sink.commit();
  assert.deepEqual((await readdir(out)).sort(), ['page.html'], 'the unrecorded-this-time file is gone');
  assert.equal(await readFile(path.join(dir, 'precious.txt'), 'utf8'), 'mine', 'nothing outside the folder was deleted');
});

test('buildSinkOf: a BuildSink as it is; of a plain sink, each method it has, and nothing for the rest', async () => {
  const memory = new MemorySink();
  assert.equal(buildSinkOf(memory), memory);

  const written: string[] = [];
  const plain: OutputSink = { write: async (rel) => void written.push(rel), copy: async () => undefined };
  const adapted = buildSinkOf(plain);
  assert.deepEqual([adapted.keep('a.html', 'd'), adapted.previous('a.html'), adapted.directPath('a.html')], [false, null, null]);
  assert.throws(() => adapted.adopt('a.html', 'd'), /no path to write to/);
  await adapted.write('a.html', 'x');
  assert.deepEqual(written, ['a.html']);

  // A JavaScript sink with some of the methods: those are used.
  const kept: string[] = [];
  const keeping = { ...plain, keep: (rel: string) => (kept.push(rel), true), previous: (rel: string) => `/prev/${rel}`, directPath: () => ({ file: '/x' }) };
  const partial = buildSinkOf(keeping);
  assert.equal(partial.keep('b.html', 'd'), true);
  assert.deepEqual(kept, ['b.html']);
  assert.equal(partial.previous('b.html'), '/prev/b.html');
  assert.equal(partial.directPath('b.html'), null, 'a path to write to only with adopt to announce it');
});
