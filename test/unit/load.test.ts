// Stage 1 alone: what is read, with positions, and which problems it already sees.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/build/config/load.js';
import { loadContent } from '../../src/build/content/load.js';
import { findDiagnostic, fixture } from '../helpers.js';

test('entries, yaml files, strings and assets of a site, with their positions', async () => {
  const config = await loadConfig({ root: fixture('minimal') });
  const { raw, diagnostics } = await loadContent(config);
  assert.deepEqual(diagnostics, []);
  const entry = raw.entries.find((e) => e.file === 'content/articles/commentary-q2-2025/en.md')!;
  assert.equal(entry.collection, 'articles');
  assert.equal(entry.key, 'commentary-q2-2025');
  assert.equal(entry.locale, 'en');
  assert.equal(entry.fieldLines.date, 5);
  assert.equal(entry.bodyLine, 15);
  assert.equal(entry.data.date, '2025-07-15', 'dates stay strings');
  assert.equal(raw.redirects?.fieldLines['0'], 1, 'the line of the first list item');
  assert.equal(raw.portfolio.length, 1);
  assert.deepEqual(raw.strings.map((s) => s.locale), ['en', 'fr']);
  const photo = raw.assets.find((a) => a.name === 'photo.jpg')!;
  assert.deepEqual([photo.dir, photo.width, photo.height], ['content/team/jdoe', 40, 50]);
  assert.ok(raw.stylesheet?.text.length);
});

test('unreadable front matter is reported and the rest still loads', async () => {
  const config = await loadConfig({ root: fixture('content-errors') });
  const { raw, diagnostics } = await loadContent(config);
  findDiagnostic(diagnostics, { file: 'content/articles/bad-yaml/en.md', rule: 'content/invalid-yaml', line: 3 });
  findDiagnostic(diagnostics, { file: 'content/articles/js-front-matter/en.md', rule: 'content/invalid-yaml' });
  assert.ok(raw.entries.some((e) => e.key === 'bad-date'));
  assert.ok(!raw.entries.some((e) => e.key === 'bad-yaml'));
});
