// A cache file whose envelope and checksum are sound but whose payload has the wrong shape (a
// build of other code with the same fingerprint, a crafted file) is a miss like a damaged one:
// the next build succeeds and writes exactly what a build without the cache writes. Each case
// rewrites a cache file of a fresh cache in a valid envelope (same kind, fingerprint, key and
// codec) around a payload with a field of the wrong type; cache-faults.test.ts damages the
// envelope itself.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build, type BuildOptions } from '../../src/build/index.js';
import { encodeCacheFile, openCacheFile, type Codec } from '../../src/files/cache-file.js';
import { filesUnder, fileTree, freshCache as freshCacheOf, referenceTree, treeDifferences, writableFixture } from '../helpers.js';

let root = '';
const out = () => path.join(root, 'public');
const cacheDir = () => path.join(root, '.ir-site', 'cache');
const run = (options: Partial<BuildOptions> = {}) => build({ root, reporter: {}, workers: 0, ...options });

// Payloads are edited as the JSON they are: the point is to break the types they declare.
type Json = any;

/** A change to a payload in place (what the function returns is ignored), or one that makes a payload to stand in its stead. */
type Edit = ((payload: Json) => unknown) | { replace: (payload: Json) => unknown };

/** Rewrites a cache file's payload in an envelope as valid as the one it had: its own kind, fingerprint, key and codec. */
async function rewritePayload(file: string, edit: Edit): Promise<void> {
  const bytes = await readFile(file);
  const start = bytes.indexOf(0x0a) + 1;
  const header = JSON.parse(bytes.subarray(start, bytes.indexOf(0x0a, start)).toString('utf8')) as { kind: string; fingerprint: string; key: string; codec: Codec };
  const opened = await openCacheFile(file, header.kind, header.fingerprint);
  const payload: unknown = opened?.decode(() => true);
  assert.ok(payload !== null && payload !== undefined, `${file} is a sound cache file`);
  const edited = typeof edit === 'function' ? (edit(payload), payload) : edit.replace(payload);
  await writeFile(file, Buffer.concat(encodeCacheFile(header.kind, header.fingerprint, edited, { key: header.key, codec: header.codec })));
  const reopened = await openCacheFile(file, header.kind, header.fingerprint);
  assert.ok(reopened?.decode(() => true) !== null, `the rewritten ${file} has a sound envelope`);
}

/** The payload's entries: they are keyed by digests and paths the test does not know. */
const values = (record: Json): Json[] => Object.values(record);

interface ShapeCase {
  name: string;
  /** Cache files (relative to the cache folder) and what to do to each one's payload. */
  edits: [file: string | RegExp, edit: Edit][];
  /** Cache files to remove first, so that the build reads the edited ones (see `emitting`). */
  remove?: (string | RegExp)[];
}

const IMAGE = /^images\/[^/]+\/meta\.bin$/;
const FRONT_MATTER = 'build/front-matter.bin';
const DOCUMENTS = 'build/search/en.documents.bin';
const DERIVED = 'build/derived-files.bin';
const MANIFEST = /^build\/output-[0-9a-f]+\.bin$/;
const COPIES = 'build/compressed-files.bin';
const OFFLINE = 'build/offline-worker.bin';

// A build whose output key is the last one's stops before the emit stage, and one whose graph
// snapshot is sound does not make the graph: these make the build read the edited file. Another
// output key (of the right type) in the manifest, for the emit stage's caches; no graph snapshot,
// for the graph from the front matter; no manifest either, to render every page from its body.
const anotherOutputKey: [RegExp, Edit] = [MANIFEST, (p) => (p.output = 'another output key')];
const emitting = (...edits: [string | RegExp, Edit][]) => ({ edits: [...edits, anotherOutputKey] });
const graphFromFrontMatter = (edit: Edit) => ({ remove: ['build/graph.bin'], edits: [[FRONT_MATTER, edit]] as [string, Edit][] });
const renderedFromFrontMatter = (edit: Edit) => ({ remove: ['build/graph.bin', MANIFEST], edits: [[FRONT_MATTER, edit]] as [string, Edit][] });
/** Search documents are read when the language's stored index is not the one to write. */
const fromDocuments = (edit: Edit) => ({ remove: ['build/search/en.index.bin'], ...emitting([DOCUMENTS, edit]) });
/** A searchable page's document. */
const documentOf = (payload: Json): Json => values(payload).find((d) => d !== null);

const CASES: ShapeCase[] = [
  // An image's record: each of these crashed the image or render stage, or wrote its value out.
  { name: 'image: the image an array', edits: [[IMAGE, (p) => (p.image = [])]] },
  { name: 'image: its files null', edits: [[IMAGE, (p) => (p.files = null)]] },
  { name: 'image: a variant null', edits: [[IMAGE, (p) => (p.image.variants[0] = null)]] },
  { name: 'image: the placeholder a number', edits: [[IMAGE, (p) => (p.image.placeholder = 7)]] },
  // Front matter: bogus content errors, a crash, bodies cut at the wrong place.
  { name: 'front matter: data an array', ...graphFromFrontMatter((p) => values(p.entries).forEach((e) => (e.data = []))) },
  { name: 'front matter: data a string', ...graphFromFrontMatter((p) => values(p.entries).forEach((e) => (e.data = 'title: x'))) },
  { name: 'front matter: a file record null', edits: [[FRONT_MATTER, (p) => Object.keys(p.files).forEach((f) => (p.files[f] = null))]] },
  { name: 'front matter: body offsets null', ...renderedFromFrontMatter((p) => values(p.entries).forEach((e) => (e.bodyOffset = null))) },
  { name: 'front matter: a body line that is text', edits: [[FRONT_MATTER, (p) => values(p.entries).forEach((e) => (e.bodyLine = 'five'))]] },
  // Search documents: wrong values in the index files, or a crash.
  { name: 'search documents: a title a number', ...fromDocuments((p) => (documentOf(p).stored.title = 42)) },
  { name: 'search documents: sections a string', ...fromDocuments((p) => (documentOf(p).stored.sections = 'insights')) },
  { name: 'search documents: a document an array', ...fromDocuments((p) => (p[Object.keys(p).find((k) => p[k] !== null)!] = [])) },
  { name: 'search documents: terms numbers', ...fromDocuments((p) => (documentOf(p).terms.terms = [5, 5, 5])) },
  { name: 'search documents: a count a string', ...fromDocuments((p) => (documentOf(p).terms.counts[0][0] = '9')) },
  // A number for the sitemap's digest in both records: the build claimed the file as it was and
  // hashed the number into the deploy id, which the offline worker and app-data.json carry.
  {
    name: 'derived files and output manifest: a number for a digest',
    ...emitting([DERIVED, (p) => (p['sitemap.xml'][1] = 5)], [MANIFEST, (p) => (p.digests[p.files.names.indexOf('sitemap.xml')] = 5)]),
  },
  // A crash in the output sink, which compares each file with the one the last build left.
  { name: 'output manifest: file names null', edits: [[MANIFEST, (p) => (p.files.names = p.files.names.map(() => null))]] },
  { name: 'output manifest: a digest short', edits: [[MANIFEST, (p) => p.digests.pop()]] },
  // v8's codec keeps an array's holes, which Array.prototype.every skips.
  { name: 'output manifest: a hole among the digests', edits: [[MANIFEST, (p) => delete p.digests[0]]] },
  { name: 'output manifest: times in a plain array', edits: [[MANIFEST, (p) => (p.files.times = [...p.files.times])]] },
  // The markdown plugins' messages of each page, reported by every build that keeps the page.
  { name: 'output manifest: a page\'s plugin messages a number', edits: [[MANIFEST, (p) => (p.messages = Object.fromEntries(Object.keys(p.pages).map((k) => [k, 5])))]] },
  // Crashes: the configuration's bundle is recalled when its inputs are as they were.
  { name: 'bundles: inputs null', edits: [['build/bundles.bin', (p) => values(p).forEach((b) => (b.inputs = null))]] },
  { name: 'bundles: an input null', edits: [['build/bundles.bin', (p) => values(p).forEach((b) => (b.inputs[0] = null))]] },
  // The browser bundle's record (templates/client-bundle.ts), whole inputs and all: only its value is wrong.
  { name: 'bundles: the browser bundle\'s preload lists strings', ...emitting(['build/bundles.bin', (p) => Object.keys(p.client.value.assets.preload).forEach((k) => (p.client.value.assets.preload[k] = 'x'))]) },
  { name: 'bundles: the browser bundle\'s files an object', ...emitting(['build/bundles.bin', (p) => (p.client.value.files = {})]) },
  // Misses already (the readers compare these fields with ===, or check them), kept so that they stay misses.
  { name: 'derived files: an entry an object', ...emitting([DERIVED, (p) => (p['sitemap.xml'] = { key: p['sitemap.xml'][0] })]) },
  { name: 'output manifest: page keys numbers', ...emitting([MANIFEST, (p) => Object.keys(p.pages).forEach((k) => (p.pages[k] = 1))]) },
  { name: 'output manifest: data keys an array', ...emitting([MANIFEST, (p) => (p.graph.dataKeys = [])]) },
  { name: 'compressed files: digests numbers', ...emitting([COPIES, (p) => values(p).forEach((c) => c.fill(3))]) },
  { name: 'compressed files: a copy\'s digests a string', ...emitting([COPIES, (p) => Object.keys(p).forEach((k) => (p[k] = 'br,gz'))]) },
  { name: 'offline worker: a number', ...emitting([OFFLINE, { replace: () => 5 }]) },
  { name: 'offline worker: its text in an array', ...emitting([OFFLINE, { replace: (text) => [text] }]) },
];

let reference = new Map<string, string>();

before(async () => {
  root = await writableFixture('minimal', `cache-shapes-${process.pid}`);
  reference = await referenceTree(root, run);
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

const freshCache = () => freshCacheOf(root, run);

/** What went wrong in the build after the case's edits; null when it wrote what a build without the cache writes. */
async function failureOf(shape: ShapeCase): Promise<string | null> {
  await freshCache();
  const files = await filesUnder(cacheDir());
  const cacheFile = (match: string | RegExp) => {
    const rel = files.find((f) => (typeof match === 'string' ? f === match : match.test(f)));
    assert.ok(rel, `${shape.name}: no cache file ${String(match)} among ${files.join(', ')}`);
    return path.join(cacheDir(), rel);
  };
  for (const match of shape.remove ?? []) await rm(cacheFile(match));
  for (const [match, edit] of shape.edits) await rewritePayload(cacheFile(match), edit);
  try {
    await run();
  } catch (error) {
    return `build failed: ${String((error as Error).message).split('\n')[0]}`;
  }
  const wrong = treeDifferences(reference, await fileTree(out()));
  return wrong.length > 0 ? `wrong output: ${wrong.slice(0, 3).join('; ')}` : null;
}

for (const shape of CASES) {
  test(`a sound cache file with a payload of the wrong shape is a miss: ${shape.name}`, async () => {
    assert.equal(await failureOf(shape), null);
  });
}
