// The graph snapshot (src/incremental/graph-snapshot.ts) on a small hand-made graph: stored without
// the bodies' text (never read to store it), restored with the text reading through to the
// entries of the build that restores it, objects shared between routes still shared, and a
// header that keeps another ir-site's or a damaged snapshot from being used.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { restoreGraph, serializeGraph, snapshotKey } from '../../src/incremental/graph-snapshot.js';
import type { RawEntry } from '../../src/build/content/raw.js';
import type { Route, SiteGraph } from '../../src/build/graph/model.js';

const entry = (file: string, body: string, bodyDigest?: string) => ({ file, body, bodyLine: 5, ...(bodyDigest ? { bodyDigest } : {}) }) as unknown as RawEntry;

function graphOf(entries: RawEntry[]): SiteGraph {
  const shared = [{ locale: 'en', path: '/a/' }];
  const routes = entries.map((e, i) => {
    const markdown = {
      get text() {
        if (e.body === 'never read') throw new Error('the snapshot read a body');
        return e.body;
      },
      file: e.file,
      line: 5,
      locale: 'en',
      images: {},
      ...(e.bodyDigest ? { digest: e.bodyDigest } : {}),
    };
    return { path: `/p${i}/`, locale: 'en', file: e.file, alternates: shared, data: { title: `T${i}` }, markdown } as unknown as Route;
  });
  const generated = { path: '/search/', locale: 'en', file: null, alternates: shared, data: { title: 'Search' }, markdown: null } as unknown as Route;
  return { routes: [...routes, generated], redirects: [], staticQueries: [], queryHashes: { en: ['q1'] }, files: [], diagnostics: [] };
}

test('a restored graph is the stored one, its text read from the entries of the restoring build', () => {
  const stored = [entry('content/articles/a/en.md', 'never read', 'd1'), entry('content/articles/b/en.md', 'never read')];
  const bytes = Buffer.concat(serializeGraph('fp', 'key-1', { graph: graphOf(stored), validation: [{ severity: 'warning', rule: 'content/unknown-field', file: 'f', message: 'm' }] }));
  assert.equal(snapshotKey(bytes, 'fp'), 'key-1');

  const now = [entry('content/articles/a/en.md', 'body A, edited', 'd2'), entry('content/articles/b/en.md', 'body B')];
  const restored = restoreGraph(bytes, now)!;
  assert.deepEqual(restored.validation, [{ severity: 'warning', rule: 'content/unknown-field', file: 'f', message: 'm' }]);
  const [a, b, search] = restored.graph.routes;
  assert.equal(a!.markdown!.text, 'body A, edited');
  assert.equal(a!.markdown!.digest, 'd2', 'the digest is the entry\'s, not the stored one');
  assert.equal(b!.markdown!.text, 'body B');
  assert.equal('digest' in b!.markdown!, false);
  assert.deepEqual(Object.keys(a!.markdown!), ['text', 'file', 'line', 'locale', 'images', 'digest'], 'the shape the graph stage gives');
  assert.equal(search!.markdown, null);
  assert.equal(a!.alternates, search!.alternates, 'objects shared between routes stay shared');
  assert.deepEqual(restored.graph.queryHashes, { en: ['q1'] });

  // The text keeps reading through: a body read later is the entry's at that time.
  (now[1] as { body: string }).body = 'body B, later';
  assert.equal(b!.markdown!.text, 'body B, later');
});

test('a route whose entry is gone makes the snapshot unusable', () => {
  const bytes = Buffer.concat(serializeGraph('fp', 'k', { graph: graphOf([entry('content/pages/x/en.md', 'x')]), validation: [] }));
  assert.equal(restoreGraph(bytes, []), null);
});

test('the key is read only from a whole header of this ir-site', () => {
  const bytes = Buffer.concat(serializeGraph('fp', 'k', { graph: graphOf([]), validation: [] }));
  assert.equal(snapshotKey(bytes, 'another fingerprint'), null);
  assert.equal(snapshotKey(null, 'fp'), null);
  assert.equal(snapshotKey(Buffer.from('no header line'), 'fp'), null);
  assert.equal(snapshotKey(Buffer.from('{"format":1,"fingerprint":"fp",\n'), 'fp'), null);
  assert.equal(snapshotKey(Buffer.from('{"format":0,"fingerprint":"fp","key":"k"}\nxx'), 'fp'), null);
});
