// Files made from shared data (sitemap, host redirect files, favicon) are kept by a key of
// exactly their inputs and the digest of their bytes: the same inputs, with those bytes still
// in the output, make and write nothing; any change, or the file gone from the output, makes it again.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { DerivedFileCache } from '../../src/incremental/derived-files.js';
import { digestOf } from '../../src/files/digest.js';
import { buildSinkOf, type BuildSink, type OutputSink } from '../../src/build/emit/sink.js';
import { diskMemo } from '../../src/incremental/memo.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** An output folder that still holds what was written to it, unless told to lose it. */
class FolderSink implements BuildSink {
  readonly files = new Map<string, string | Uint8Array>();
  writes = 0;
  async write(rel: string, data: string | Uint8Array, digest = digestOf(data)): Promise<void> {
    assert.equal(digest, digestOf(data));
    this.files.set(rel, data);
    this.writes++;
  }
  async copy(): Promise<void> {
    throw new Error('not used');
  }
  keep(rel: string, digest: string | undefined): boolean {
    const data = this.files.get(rel);
    return data !== undefined && digestOf(data) === digest;
  }
  previous(): null {
    return null;
  }
  directPath(): null {
    return null;
  }
  adopt(): void {
    throw new Error('not used');
  }
}

test('a file is made and written again only when its inputs, ir-site or the output folder changed', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-derived-'));
  dirs.push(dir);
  const sink = new FolderSink();
  let made = 0;
  const build = async (fingerprint: string, inputs: unknown[], text: string) => {
    const cache = await DerivedFileCache.open(diskMemo(dir, fingerprint));
    const writesBefore = sink.writes;
    await cache.writer(sink)('sitemap.xml', inputs, () => (made++, text));
    await cache.save();
    return { text: String(sink.files.get('sitemap.xml')), wrote: sink.writes > writesBefore };
  };
  assert.deepEqual(await build('tool-1', [['/a/', '/b/'], 'https://x.example'], 'first'), { text: 'first', wrote: true });
  assert.deepEqual(await build('tool-1', [['/a/', '/b/'], 'https://x.example'], 'unused'), { text: 'first', wrote: false }, 'same inputs: nothing made or written');
  assert.equal(made, 1);
  assert.deepEqual(await build('tool-1', [['/a/'], 'https://x.example'], 'second'), { text: 'second', wrote: true }, 'a route fewer');
  assert.deepEqual(await build('tool-1', [['/a/'], 'https://y.example'], 'third'), { text: 'third', wrote: true }, 'another site URL');
  assert.deepEqual(await build('tool-2', [['/a/'], 'https://y.example'], 'fourth'), { text: 'fourth', wrote: true }, 'another ir-site');
  assert.equal(made, 4);
  sink.files.set('sitemap.xml', 'edited by hand');
  assert.deepEqual(await build('tool-2', [['/a/'], 'https://y.example'], 'fourth'), { text: 'fourth', wrote: true }, 'the output lost the bytes: made again');
  assert.equal(made, 5);
});

test('bytes made asynchronously (the favicon) are kept the same way; a sink without keep always gets the file', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-derived-'));
  dirs.push(dir);
  const sink = new FolderSink();
  const icon = Uint8Array.from([0, 0, 1, 0, 1]);
  let made = 0;
  const make = async () => (made++, icon);
  for (let i = 0; i < 2; i++) {
    const cache = await DerivedFileCache.open(diskMemo(dir, 'tool'));
    await cache.writer(sink)('favicon.ico', ['<svg/>'], make);
    await cache.save();
  }
  assert.equal(made, 1);
  assert.deepEqual(sink.files.get('favicon.ico'), icon);
  const memory = new Map<string, string | Uint8Array>();
  const noKeep: OutputSink = { write: async (rel, data) => void memory.set(rel, data), copy: async () => undefined };
  await (await DerivedFileCache.open(diskMemo(dir, 'tool'))).writer(buildSinkOf(noKeep))('favicon.ico', ['<svg/>'], make);
  assert.deepEqual(memory.get('favicon.ico'), icon);
  assert.equal(made, 2);
});
