// The graph snapshot (src/incremental/graph-snapshot.ts) on a small hand-made graph: stored without
// the bodies' text (never read to store it), restored with the text reading through to the
// entries of the build that restores it, objects shared between routes still shared, and a
// header that keeps another ir-site's or a damaged snapshot from being used.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { readGraphSnapshot, restoreGraph, snapshotKeys, writeGraphSnapshot, type GraphResult } from '../../src/incremental/graph-snapshot.js';
import type { RawEntry } from '../../src/build/content/raw.js';
import type { Route, SiteGraph } from '../../src/build/graph/model.js';
import { diskMemo, memoryMemo } from '../../src/incremental/memo.js';

const entry = (file: string, body: string, bodyDigest = `digest of ${body}`) => ({ file, body, bodyLine: 5, bodyDigest, matterDigest: `matter of ${file}` }) as unknown as RawEntry;

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
      digest: e.bodyDigest,
    };
    return { path: `/p${i}/`, locale: 'en', file: e.file, alternates: shared, data: { title: `T${i}` }, markdown } as unknown as Route;
  });
  const generated = { path: '/search/', locale: 'en', file: null, alternates: shared, data: { title: 'Search' }, markdown: null } as unknown as Route;
  return { routes: [...routes, generated], redirects: [], staticQueries: [], queryHashes: { en: ['q1'] }, files: [], diagnostics: [] };
}

const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'graph-snapshot-'));
after(() => rm(cacheDir, { recursive: true, force: true }));

/** The snapshot as the next build reads it, after this one wrote `result` under `key` (and a frame key of its own). */
async function kept(key: string, result: GraphResult, entries: readonly RawEntry[] = []) {
  await writeGraphSnapshot(diskMemo(cacheDir, 'fp'), { graph: key, frame: `frame-${key}` }, result, entries);
  return (await readGraphSnapshot(diskMemo(cacheDir, 'fp')))!;
}

test('a restored graph is the stored one, its text and digest from the entries of the restoring build', async () => {
  const stored = [entry('content/articles/a/en.md', 'never read', 'd1'), entry('content/articles/b/en.md', 'never read')];
  const bytes = await kept('key-1', { graph: graphOf(stored), validation: [{ severity: 'warning', rule: 'content/unknown-field', file: 'f', message: 'm' }] }, stored);
  assert.deepEqual(snapshotKeys(bytes), { graph: 'key-1', frame: 'frame-key-1' });

  const now = [entry('content/articles/a/en.md', 'body A, edited', 'd2'), entry('content/articles/b/en.md', 'body B')];
  const restored = restoreGraph(bytes, now)!;
  assert.deepEqual(restored.validation, [{ severity: 'warning', rule: 'content/unknown-field', file: 'f', message: 'm' }]);
  const [a, b, search] = restored.graph.routes;
  assert.equal(a!.markdown!.text, 'body A, edited');
  assert.equal(a!.markdown!.digest, 'd2', 'the digest is the entry\'s, not the stored one');
  assert.equal(b!.markdown!.text, 'body B');
  assert.equal(b!.markdown!.digest, 'digest of body B');
  assert.deepEqual(Object.keys(a!.markdown!), ['text', 'file', 'line', 'locale', 'images', 'digest'], 'the shape the graph stage gives');
  assert.equal(search!.markdown, null);
  assert.equal(a!.alternates, search!.alternates, 'objects shared between routes stay shared');
  assert.deepEqual(restored.graph.queryHashes, { en: ['q1'] });

  // An entry the build cache did not read: the route says so (text null) and where its body starts.
  const unread = [entry('content/articles/a/en.md', 'body A', 'd2'), { ...entry('content/articles/b/en.md', 'x', 'd3'), body: null, bodyOffset: 42 } as unknown as RawEntry];
  const [, later] = restoreGraph(bytes, unread)!.graph.routes;
  assert.deepEqual({ text: later!.markdown!.text, digest: later!.markdown!.digest, offset: later!.markdown!.offset }, { text: null, digest: 'd3', offset: 42 });
});

test("in a memory memo (dev's), restores after edits: the kept value never changes, an edited entry's routes are new, the others the same objects", async () => {
  const memo = memoryMemo('fp');
  const files = ['content/articles/a/en.md', 'content/articles/b/en.md', 'content/articles/c/en.md'];
  const first = files.map((f) => entry(f, `body of ${f}`));
  await writeGraphSnapshot(memo, { graph: 'k', frame: 'f' }, { graph: graphOf(first), validation: [] }, first);
  const snapshot = (await readGraphSnapshot(memo))!;
  const one = restoreGraph(snapshot, first)!.graph.routes;

  const edited = [first[0]!, entry(files[1]!, 'b, edited'), first[2]!];
  const two = restoreGraph(snapshot, edited)!.graph.routes;
  assert.equal(two[0], one[0], 'an unchanged entry: the same route');
  assert.equal(two[2], one[2]);
  assert.notEqual(two[1], one[1]);
  assert.equal(two[1]!.markdown!.text, 'b, edited');
  assert.equal(one[1]!.markdown!.text, `body of ${files[1]}`, 'the last restore is left as it was');

  // A second edit, of another file: the first edit's route is the one the last restore made.
  const again = [edited[0]!, edited[1]!, entry(files[2]!, 'c, edited')];
  const next = restoreGraph(snapshot, again)!.graph.routes;
  assert.equal(next[1], two[1]);
  assert.equal(next[0], one[0]);
  assert.deepEqual(next.slice(0, 3).map((r) => r.markdown!.text), [`body of ${files[0]}`, 'b, edited', 'c, edited']);

  // Back to the first text, files reordered: every route is bound again by its file.
  const reordered = [edited[2]!, first[1]!, edited[0]!];
  const three = restoreGraph(snapshot, reordered)!.graph.routes;
  assert.deepEqual(three.slice(0, 3).map((r) => r.markdown!.text), files.map((f) => `body of ${f}`));
  const kept = snapshot.decode<{ graph: { routes: Route[] } }>(() => true)!;
  assert.ok(kept.graph.routes.every((r) => !r.markdown || !('text' in r.markdown)), 'the kept value holds no body');
});

const graphSnapshotFile = (cacheDir: string) => path.join(cacheDir, 'build', 'graph.bin');

test('a route whose entry is gone makes the snapshot unusable', async () => {
  const stored = [entry('content/pages/x/en.md', 'x')];
  const bytes = await kept('k', { graph: graphOf(stored), validation: [] }, stored);
  assert.equal(restoreGraph(bytes, []), null);
});

test('only a whole, undamaged snapshot of this ir-site is read', async () => {
  await kept('k', { graph: graphOf([]), validation: [] });
  assert.equal(await readGraphSnapshot(diskMemo(cacheDir, 'another fingerprint')), null);
  for (const bytes of ['', 'no header line', 'IRSITE-CACHE\n{"format":1,"kind":"graph",\n']) {
    await writeFile(graphSnapshotFile(cacheDir), bytes);
    assert.equal(await readGraphSnapshot(diskMemo(cacheDir, 'fp')), null, JSON.stringify(bytes));
  }
  // A payload damaged after the header: its key is readable, but it never decodes.
  await kept('k', { graph: graphOf([]), validation: [] });
  const file = graphSnapshotFile(cacheDir);
  const whole = await import('node:fs/promises').then((fs) => fs.readFile(file));
  whole[whole.length - 3]! ^= 0xff;
  await writeFile(file, whole);
  const damaged = (await readGraphSnapshot(diskMemo(cacheDir, 'fp')))!;
  assert.equal(snapshotKeys(damaged).graph, 'k');
  assert.equal(restoreGraph(damaged, []), null);
  await rm(file);
  assert.equal(await readGraphSnapshot(diskMemo(cacheDir, 'fp')), null);
});
