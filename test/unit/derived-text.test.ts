// Texts made from shared data (sitemap, host redirect files) are kept by a key of exactly
// their inputs: the same inputs give the kept text without making it, any change makes it again.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { DerivedTextCache } from '../../src/cache/derived-text.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

test('a text is made again only when its inputs or ir-site changed', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-derived-'));
  dirs.push(dir);
  let made = 0;
  const make = (text: string) => () => (made++, text);
  const build = async (fingerprint: string, inputs: unknown[], text: string) => {
    const cache = await DerivedTextCache.open(dir, fingerprint);
    const result = cache.text('sitemap.xml', inputs, make(text));
    await cache.save();
    return result;
  };
  assert.equal(await build('tool-1', [['/a/', '/b/'], 'https://x.example'], 'first'), 'first');
  assert.equal(await build('tool-1', [['/a/', '/b/'], 'https://x.example'], 'unused'), 'first', 'same inputs: the kept text');
  assert.equal(made, 1);
  assert.equal(await build('tool-1', [['/a/'], 'https://x.example'], 'second'), 'second', 'a route fewer');
  assert.equal(await build('tool-1', [['/a/'], 'https://y.example'], 'third'), 'third', 'another site URL');
  assert.equal(await build('tool-2', [['/a/'], 'https://y.example'], 'fourth'), 'fourth', 'another ir-site');
  assert.equal(made, 4);
});
