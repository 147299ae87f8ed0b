// The build cache (.ir-site/cache/build) on a writable copy of the minimal fixture: a warm
// build equals a cold one byte for byte and rewrites nothing; an edit changes exactly the
// files that show what was edited; deleting an entry removes its files; a failed build, a
// hand-edited output file or a lost manifest never leave wrong output behind.
import assert from 'node:assert/strict';
import { chmod, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { routeDataKey } from '../../src/incremental/keys.js';
import { manifestFile, outputManifest } from '../../src/incremental/output-manifest.js';
import { diskMemo } from '../../src/incremental/memo.js';
import { toolFingerprint } from '../../src/incremental/fingerprint.js';
import { outputKeyOf } from '../../src/incremental/output-state.js';
import { textReader } from '../../src/build/bodies.js';
import { build, type BuildOptions, type BuildResult } from '../../src/build/index.js';
import { DiagnosticsError } from '../../src/errors/diagnostic.js';
import { htmlFileFor, pageDataUrl } from '../../src/shared/paths.js';
import { copyFixture, REPO } from '../helpers.js';

// Same depth as test/fixtures/<name>, so the fixture's relative template paths still hold.
const root = path.join(REPO, 'test', '.tmp', `cache-${process.pid}`);
const out = path.join(root, 'public');

interface FileSnapshot {
  text: string;
  mtimeMs: number;
  ino: number;
}

async function snapshot(dir: string): Promise<Map<string, FileSnapshot>> {
  const files = new Map<string, FileSnapshot>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name);
    const info = await stat(file);
    files.set(path.relative(dir, file).split(path.sep).join('/'), { text: (await readFile(file)).toString('latin1'), mtimeMs: info.mtimeMs, ino: info.ino });
  }
  return files;
}

/** Files added, removed, or whose bytes changed, and files rewritten with the same bytes. */
function compare(before: Map<string, FileSnapshot>, after: Map<string, FileSnapshot>) {
  const changed = new Set<string>();
  const rewritten = new Set<string>();
  for (const [rel, now] of after) {
    const was = before.get(rel);
    if (!was || was.text !== now.text) changed.add(rel);
    else if (was.mtimeMs !== now.mtimeMs || was.ino !== now.ino) rewritten.add(rel);
  }
  for (const rel of before.keys()) if (!after.has(rel)) changed.add(rel);
  return { changed, rewritten };
}

const run = (options: Partial<BuildOptions> = {}) => build({ root, reporter: {}, ...options });

/** The two files of every page built from `file` (a press release is published twice). */
function pageFilesOf(result: BuildResult, file: string): string[] {
  return result.graph.routes.filter((r) => r.file === file).flatMap((r) => [htmlFileFor(r.path), pageDataUrl(r.path).slice(1)]);
}

/**
 * A graph as JSON, every body's text included (read from its file where the cache did not read it),
 * what the cache knows of bodies (digest, offset in the file) left out: a build without the cache has none.
 */
const comparable = ({ graph, config }: BuildResult) => {
  const withText = textReader(config);
  const routes = graph.routes.map((r) => {
    const { markdown } = withText(r);
    if (!markdown) return r;
    const { digest: _digest, offset: _offset, ...source } = markdown;
    return { ...r, markdown: source };
  });
  return JSON.parse(JSON.stringify({ ...graph, routes })) as unknown;
};

/** The output (and, given the build's result, the graph) equals what a build without any cache makes in a fresh folder. */
async function assertSameAsColdBuild(result?: BuildResult): Promise<void> {
  const reference = path.join(root, 'reference');
  await rm(reference, { recursive: true, force: true });
  const cold = await run({ outDir: 'reference', cache: false, workers: 0 });
  assert.deepEqual([...compare(await snapshot(reference), await snapshot(out)).changed], [], 'differs from a cold build');
  if (result) assert.deepStrictEqual(comparable(result), comparable(cold), 'the graph differs from a cold build\'s');
  await rm(reference, { recursive: true, force: true });
}

/** The file a compressed copy was made from; any other file itself. */
const originalOf = (rel: string) => rel.replace(/\.(br|gz)$/, '');

const isSearchIndex = (rel: string, locale: string) => rel === `search-index/${locale}.json` || rel.startsWith(`search-index/${locale}/`);

before(async () => {
  await rm(root, { recursive: true, force: true });
  await mkdir(path.dirname(root), { recursive: true });
  await copyFixture('minimal', root);
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

test('a warm build with nothing changed renders only what it must, rewrites no file, and equals a cold build byte for byte', async () => {
  // Cold, on worker threads (forced: the fixture is small), with an empty cache.
  const cold = await run({ workers: 2 });
  assert.equal(cold.render.workers, 2);
  assert.equal(cold.render.rendered, cold.pages);
  // The workers analysed every page's search document (null where a page is not searchable);
  // the comparison with a main-thread build below shows the index they make is the same.
  assert.equal(cold.render.searchDocuments, cold.pages);
  // And wrote the pages' files themselves, but for the precached not-found pages (the offline
  // worker needs their bytes): the comparison below shows the same output either way.
  assert.ok(cold.render.writtenByWorkers > cold.pages, `workers wrote ${cold.render.writtenByWorkers} files`);
  assert.ok(cold.render.writtenByWorkers < cold.pages * 2);
  const first = await snapshot(out);
  const manifest = manifestFile(path.join(root, '.ir-site', 'cache'), out);
  const recorded = await stat(manifest);

  const warm = await run();
  assert.equal(warm.render.kept, warm.pages);
  const after = await stat(manifest);
  assert.deepEqual([after.ino, after.mtimeMs], [recorded.ino, recorded.mtimeMs], 'nothing changed: the record of the output is not written again');
  // Nothing esbuild read changed: both bundles come from the cache, and the comparisons below
  // show that they are the same bytes.
  assert.deepEqual(warm.bundles, { server: true, client: true });
  // Not even the offline pages, which the offline worker precaches: their bytes are read back.
  assert.equal(warm.render.rendered, 0);
  const { changed, rewritten } = compare(first, await snapshot(out));
  assert.deepEqual([...changed], [], 'no file differs');
  assert.deepEqual([...rewritten], [], 'no file was written again');

  // Without the cache, on the main thread, into another folder: the same bytes.
  await assertSameAsColdBuild();
});

test('an article body edit changes only its own pages, its language\'s search index and the offline worker (sw.js, and app-data.json for its deploy id)', async () => {
  await run();
  const file = 'content/articles/commentary-q2-2025/en.md';
  const source = await readFile(path.join(root, file), 'utf8');
  const previous = await snapshot(out);
  const documents = path.join(root, '.ir-site', 'cache', 'build', 'search', 'en.documents.bin');
  const documentsBefore = await readFile(documents, 'utf8');
  await writeFile(path.join(root, file), `${source}\nA sentence added by the cache test.\n`);
  const result = await run();
  // One document analysed anew: the stored documents are not rewritten for it (the next build
  // that indexes English analyses it again); the index itself is new, as the comparisons below show.
  assert.equal(await readFile(documents, 'utf8'), documentsBefore);
  const { changed, rewritten } = compare(previous, await snapshot(out));
  const own = pageFilesOf(result, file);
  assert.ok(own.length >= 2);
  for (const rel of own) assert.ok(changed.has(rel), `${rel} should have changed`);
  // A compressed copy (`.br`, `.gz`) changes with its original.
  const unexpected = [...changed].map(originalOf).filter((rel) => !own.includes(rel) && !isSearchIndex(rel, 'en') && rel !== 'sw.js' && rel !== 'page-data/app-data.json');
  assert.deepEqual(unexpected, [], 'files that do not show the body changed');
  assert.ok([...changed].some((rel) => isSearchIndex(rel, 'en')), 'the English search index has the new words');
  assert.ok(![...changed].some((rel) => isSearchIndex(rel, 'fr')), 'the French search index is untouched');
  assert.deepEqual([...rewritten], []);
  assert.match(await readFile(path.join(out, own[0]!), 'utf8'), /A sentence added by the cache test/);
  // Only a body changed: the routes' data keys were taken from the previous build, and are
  // what hashing each route gives.
  assert.equal(result.render.dataKeysKnown, true);
  await assertDataKeysAsHashed(result);
  // Nor were the entries validated and the graph built again: the last build's graph was
  // taken, its text reading through to the entries, and it is the graph a cold build makes.
  assert.equal(result.graphFromSnapshot, 'same');
  await assertSameAsColdBuild(result);
});

test('kept pages whose search documents the cache lost are indexed from their page data: the same index as a cold build', async () => {
  await run();
  await rm(path.join(root, '.ir-site', 'cache', 'build', 'search'), { recursive: true, force: true });
  const result = await run();
  assert.equal(result.render.rendered, 0, 'no page was rendered again');
  assert.equal(result.render.searchDocuments, 0, 'so no render analysed a page');
  await assertSameAsColdBuild(result);
});

/** The data keys the manifest holds for the next build are those of this build's routes. */
async function assertDataKeysAsHashed(result: BuildResult): Promise<void> {
  const manifest = (await outputManifest(diskMemo(path.join(root, '.ir-site', 'cache'), toolFingerprint()), out).read())!;
  assert.ok(manifest.graph, 'the manifest records the graph inputs');
  assert.equal(Object.keys(manifest.graph.dataKeys).length, result.graph.routes.length);
  for (const route of result.graph.routes) assert.equal(manifest.graph.dataKeys[route.path], routeDataKey(route), route.path);
}

test('a title edit re-renders exactly the pages that show the title', async () => {
  await run();
  const file = 'content/articles/commentary-q2-2025/fr.md';
  const source = await readFile(path.join(root, file), 'utf8');
  const title = 'Titre changé par le test du cache';
  await writeFile(path.join(root, file), source.replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`));
  const previous = await snapshot(out);
  const result = await run();
  const { changed } = compare(previous, await snapshot(out));
  const showing = result.graph.routes.filter((r) => JSON.stringify(r).includes(title));
  assert.ok(showing.length > 2, 'the article and the listings that show it');
  const changedPages = [...changed].filter((rel) => rel.endsWith('.html')).sort();
  assert.deepEqual(changedPages, showing.map((r) => htmlFileFor(r.path)).sort());
  assert.equal(result.render.rendered, showing.length);
  // Only a headline changed: the last graph was taken with the new title put in, and the routes
  // it did not replace kept their data keys.
  assert.equal(result.graphFromSnapshot, 'headlines', 'no validation, no graph stage, no site checks');
  assert.equal(result.render.dataKeysKnown, true);
  await assertDataKeysAsHashed(result);
  await assertSameAsColdBuild(result);
  // The new graph was kept: the next build takes it.
  const next = await run();
  assert.equal(next.graphFromSnapshot, 'same');
  assert.deepStrictEqual(comparable(next), comparable(result));
});

test('two articles retitled at once, one of them with its body edited too: the headlines are put in, and the output is a cold build\'s', async () => {
  await run();
  const edits = [
    ['content/articles/press-one/en.md', 'Press one, retitled by the cache test', 'A body sentence added with the title.'],
    ['content/articles/commentary-q2-2025/en.md', 'Commentary retitled by the cache test', null],
  ] as const;
  for (const [file, title, sentence] of edits) {
    const source = await readFile(path.join(root, file), 'utf8');
    await writeFile(path.join(root, file), source.replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`) + (sentence ? `\n${sentence}\n` : ''));
  }
  const result = await run();
  assert.equal(result.graphFromSnapshot, 'headlines');
  assert.equal(result.render.dataKeysKnown, true);
  await assertDataKeysAsHashed(result);
  await assertSameAsColdBuild(result);
  const pressOne = result.graph.routes.find((r) => r.file === 'content/articles/press-one/en.md')!;
  assert.match(await readFile(path.join(out, htmlFileFor(pressOne.path)), 'utf8'), /A body sentence added with the title\./);
});

test('a title edit that moves a line (a description added above the body) takes the graph stage, and equals a cold build', async () => {
  await run();
  const file = 'content/articles/press-one/en.md';
  const source = await readFile(path.join(root, file), 'utf8');
  await writeFile(path.join(root, file), source.replace(/^title: .*$/m, (line) => `${line}\ndescription: "Added by the cache test"`));
  const result = await run();
  assert.equal(result.graphFromSnapshot, null, 'the lines after it moved: the snapshot\'s lines would be wrong');
  await assertSameAsColdBuild(result);
});

test('a French navigation title edit re-renders the French pages only: each language\'s pages are keyed by its own shared data', async () => {
  await run();
  const file = 'content/pages/contact-us/fr.md';
  const source = await readFile(path.join(root, file), 'utf8');
  const title = 'Nous joindre, titre changé par le test';
  await writeFile(path.join(root, file), source.replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`));
  const previous = await snapshot(out);
  const result = await run();
  const french = result.graph.routes.filter((r) => r.locale === 'fr');
  assert.ok(french.length > 5 && french.length < result.pages, 'both languages have pages');
  assert.equal(result.render.rendered, french.length, 'every French page shows the navigation, no English page does');
  const changedPages = [...compare(previous, await snapshot(out)).changed].filter((rel) => rel.endsWith('.html')).sort();
  assert.deepEqual(changedPages, french.map((r) => htmlFileFor(r.path)).sort());
  await assertSameAsColdBuild(result);
});

test('a deleted entry loses its files in place; other files are not touched', async () => {
  await run();
  const previous = await snapshot(out);
  const file = 'content/articles/english-only/en.md';
  const before = await run();
  const own = pageFilesOf(before, file);
  await rm(path.join(root, 'content/articles/english-only'), { recursive: true });
  await run();
  const after = await snapshot(out);
  for (const rel of own) {
    assert.ok(!after.has(rel), `${rel} should be gone`);
    await assert.rejects(stat(path.join(out, path.dirname(rel))), 'its emptied folder is gone too');
  }
  const { rewritten } = compare(previous, after);
  assert.deepEqual([...rewritten], []);
  // The sitemap is made from every route: the kept copy of the last one must not be reused.
  const gone = before.graph.routes.find((r) => r.file === file)!.path;
  assert.match(previous.get('sitemap.xml')?.text ?? '', new RegExp(`${gone}</loc>`));
  assert.doesNotMatch(await readFile(path.join(out, 'sitemap.xml'), 'utf8'), new RegExp(`${gone}</loc>`));
  await assertSameAsColdBuild();
});

test('a failed build leaves the output exactly as it was', async () => {
  await run();
  const previous = await snapshot(out);
  const file = path.join(root, 'content/articles/press-one/en.md');
  const source = await readFile(file, 'utf8');
  await writeFile(file, source.replace(/^date: .*$/m, 'date: 2024-13-45'));
  await assert.rejects(run(), DiagnosticsError);
  const { changed, rewritten } = compare(previous, await snapshot(out));
  assert.deepEqual([...changed], []);
  assert.deepEqual([...rewritten], []);
  assert.deepEqual((await readdir(root)).filter((f) => f.includes('staging')), [], 'no staging folder left');
  await writeFile(file, source);
});

test('an output file edited by hand is written again, and a lost cache only costs time', async () => {
  const result = await run();
  const page = htmlFileFor(result.graph.routes.find((r) => r.template === 'article')!.path);
  const good = await readFile(path.join(out, page), 'utf8');
  await writeFile(path.join(out, page), 'edited by hand');
  // A precached page too: the offline worker's manifest must not take the edited bytes.
  const sw = await readFile(path.join(out, 'sw.js'), 'utf8');
  const notFound = await readFile(path.join(out, '404.html'), 'utf8');
  await writeFile(path.join(out, '404.html'), 'edited by hand');
  const repaired = await run();
  assert.equal(repaired.render.rendered, 2, 'the two edited pages, nothing else');
  assert.equal(await readFile(path.join(out, page), 'utf8'), good);
  assert.equal(await readFile(path.join(out, '404.html'), 'utf8'), notFound);
  assert.equal(await readFile(path.join(out, 'sw.js'), 'utf8'), sw);

  // Edited to the same size, its modification time put back: the change time tells.
  const { mtime } = await stat(path.join(out, page));
  const edited = good.replace('<html', '<HTML');
  assert.notEqual(edited, good);
  await writeFile(path.join(out, page), edited);
  await utimes(path.join(out, page), mtime, mtime);
  assert.equal((await stat(path.join(out, page))).size, Buffer.byteLength(good));
  assert.equal((await run()).render.rendered, 1, 'the edited page, nothing else');
  assert.equal(await readFile(path.join(out, page), 'utf8'), good);

  // Every output file's change time moved, its bytes as they were (a chmod, a deploy's hard links): nothing is rendered again,
  // and the record takes the new times, so the next build need not read the files again.
  const record = async () => (await outputManifest(diskMemo(path.join(root, '.ir-site', 'cache'), toolFingerprint()), out).read())!.files;
  const recorded = async (rel: string) => assert.equal((await record())[rel]![3], (await stat(path.join(out, rel))).ctimeMs, `${rel}: its new change time is recorded`);
  const outputFiles = [...(await snapshot(out)).keys()];
  for (const rel of outputFiles) await chmod(path.join(out, rel), 0o644);
  const moved = await run();
  assert.equal(moved.outputUnchanged, true, 'nothing rendered or written: pages by their bytes, copies by their sources');
  const image = outputFiles.find((rel) => /\.(webp|avif|jpe?g|png)$/.test(rel))!;
  for (const rel of [page, image]) await recorded(rel);
  // A copy edited in place, its modification time put back: copied again from its source.
  const copied = await readFile(path.join(out, image));
  const spoiled = Buffer.from(copied);
  spoiled.writeUInt8(spoiled.readUInt8(spoiled.length - 1) ^ 1, spoiled.length - 1);
  const copyTime = (await stat(path.join(out, image))).mtime;
  await writeFile(path.join(out, image), spoiled);
  await utimes(path.join(out, image), copyTime, copyTime);
  assert.equal((await run()).outputUnchanged, false);
  assert.deepEqual(await readFile(path.join(out, image)), copied);

  const previous = await snapshot(out);
  await rm(path.join(root, '.ir-site', 'cache', 'build'), { recursive: true, force: true });
  const cold = await run();
  assert.equal(cold.render.kept, 0);
  assert.deepEqual([...compare(previous, await snapshot(out)).changed], []);
});

test('an output folder deleted by hand is written again in full', async () => {
  await run();
  const previous = await snapshot(out);
  await rm(out, { recursive: true, force: true });
  const result = await run();
  assert.equal(result.render.kept, 0, 'no page can be kept: its files are gone');
  assert.deepEqual([...compare(previous, await snapshot(out)).changed], []);
});

test('a build with --no-cache leaves no record behind that a later build could trust', async () => {
  await run();
  const manifest = manifestFile(path.join(root, '.ir-site', 'cache'), out);
  await stat(manifest);
  await run({ cache: false });
  await assert.rejects(stat(manifest), 'the output manifest is forgotten');
  const after = await run();
  assert.equal(after.render.kept, 0, 'the next cached build starts clean');
  const again = await run();
  assert.ok(again.render.kept > 0);
});

test('the record of an output folder that is gone is pruned; the others stay', async () => {
  const cacheDir = path.join(root, '.ir-site', 'cache');
  const elsewhere = path.join(root, 'public-elsewhere');
  await run({ outDir: 'public-elsewhere' });
  await stat(manifestFile(cacheDir, elsewhere));
  await rm(elsewhere, { recursive: true, force: true });
  await run();
  await assert.rejects(stat(manifestFile(cacheDir, elsewhere)), 'the gone folder\'s manifest is removed');
  await stat(manifestFile(cacheDir, out));
});

test('content files untouched for a while are not read again; pages rendered anyway read their bodies then, on workers too', async () => {
  const { listFiles } = await import('../../src/build/content/list-files.js');
  const content = path.join(root, 'content');
  const markdown = listFiles(content).filter((f) => f.endsWith('.md'));
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (const f of markdown) await utimes(path.join(content, f), anHourAgo, anHourAgo);
  await run(); // records every file by size and time

  const untouched = await run();
  assert.equal(untouched.render.rendered, 0);

  // A body replaced by one of the same size with its old time put back (touch -d) is seen, as
  // git sees it: putting the time back moved the file's change time.
  const article = markdown.find((f) => f.startsWith('articles/'))!;
  const file = path.join(content, article);
  const original = await readFile(file, 'utf8');
  const lastLine = original.trimEnd().split('\n').at(-1)!;
  const swapped = original.replace(lastLine, lastLine.split('').reverse().join(''));
  assert.notEqual(swapped, original);
  assert.equal(Buffer.byteLength(swapped), Buffer.byteLength(original));
  await writeFile(file, swapped);
  await utimes(file, anHourAgo, anHourAgo);
  const seen = await run();
  assert.ok(seen.render.rendered > 0, 'the edited pages are rendered');
  await assertSameAsColdBuild();
  await writeFile(file, original);
  await utimes(file, anHourAgo, anHourAgo);

  // Likewise a folder: an entry added, the folder's time put back, is listed.
  const folder = path.join(content, 'articles');
  const folderTime = (await stat(folder)).mtime;
  await utimes(folder, folderTime, folderTime);
  await run();
  await mkdir(path.join(folder, 'unseen-note'));
  await writeFile(path.join(folder, 'unseen-note', 'en.md'), '---\ntitle: Unseen note\nslug: unseen-note\ndate: 2025-08-01\ntype: news\ntranslation: none\n---\nA note.\n');
  await utimes(folder, folderTime, folderTime);
  assert.equal(Math.round((await stat(folder)).mtimeMs), folderTime.getTime(), 'the folder\'s time is as recorded');
  const listed = await run();
  assert.ok(listed.graph.routes.some((r) => r.path === '/article/unseen-note/'), 'the new entry is built');
  await rm(path.join(folder, 'unseen-note'), { recursive: true });

  // With the output gone every page is rendered, on two workers: bodies are read from their files as they are sent.
  await rm(out, { recursive: true, force: true });
  const full = await run({ workers: 2 });
  assert.equal(full.render.kept, 0);
  assert.ok(full.render.workers > 0);
  await assertSameAsColdBuild();
});

test('the cache holds whatever folder the build runs from', async () => {
  const { tmpdir } = await import('node:os');
  await run();
  const previous = await snapshot(out);
  const cwd = process.cwd();
  process.chdir(tmpdir());
  try {
    const elsewhere = await run();
    // esbuild hashes the inputs' paths relative to its working folder: the template bundles must not see this one.
    assert.equal(elsewhere.render.rendered, 0);
  } finally {
    process.chdir(cwd);
  }
  assert.deepEqual([...compare(previous, await snapshot(out)).changed], []);
});

test('a build whose inputs are all as the last build read them writes nothing; a copied file replaced or an output file gone makes it build', async () => {
  const { utimes } = await import('node:fs/promises');
  const ago = (ms: number) => new Date(Date.now() - ms);
  const content = path.join(root, 'content');
  for (const f of await readdir(content, { recursive: true })) await utimes(path.join(content, f), ago(3_600_000), ago(3_600_000));
  await run();
  const first = await snapshot(out);
  const same = await run();
  assert.equal(same.outputUnchanged, true);
  assert.equal(same.render.kept, same.pages);
  assert.equal(same.timings.render, undefined, 'nothing rendered, not even a page kept through the sinks');
  const quiet = compare(first, await snapshot(out));
  assert.deepEqual([...quiet.changed, ...quiet.rewritten], []);
  // Images finish processing in any order: the order of the copied files does not count.
  const copiedFiles = [...(await readdir(content, { recursive: true }))].filter((f) => /\.(pdf|png|jpg)$/.test(f)).map((f) => path.join(content, f));
  assert.ok(copiedFiles.length > 1);
  const keyOfCopied = (files: string[]) => outputKeyOf([], files, ['server', 'client'], null, 'graph');
  assert.equal(await keyOfCopied(copiedFiles), await keyOfCopied([...copiedFiles].reverse()));

  // A published document replaced by another of the same size: its new bytes are published.
  const pdf = path.join(content, 'articles/commentary-q2-2025/report.pdf');
  const published = async (bytes: Buffer) => [...(await snapshot(out))].some(([rel, f]) => rel.endsWith('.pdf') && f.text === bytes.toString('latin1'));
  const original = await readFile(pdf);
  const replaced = Buffer.from(original);
  const at = replaced.length - 2;
  replaced.writeUInt8(replaced.readUInt8(at) ^ 1, at);
  await writeFile(pdf, replaced);
  await utimes(pdf, ago(1_800_000), ago(1_800_000));
  const copied = await run();
  assert.equal(copied.outputUnchanged, false);
  assert.ok(await published(replaced), 'the replaced document is in the output');
  assert.equal((await run()).outputUnchanged, true);
  // Replaced again, its modification time put back: the change time tells.
  const { mtime } = await stat(pdf);
  const again = Buffer.from(replaced);
  again.writeUInt8(again.readUInt8(at - 1) ^ 1, at - 1);
  await writeFile(pdf, again);
  await utimes(pdf, mtime, mtime);
  assert.equal((await run()).outputUnchanged, false);
  assert.ok(await published(again), 'the document replaced with its time put back is in the output');

  // An output file deleted by hand is written again.
  const page = htmlFileFor(same.graph.routes[0]!.path);
  await rm(path.join(out, page));
  assert.equal((await run()).outputUnchanged, false);
  assert.ok((await snapshot(out)).has(page), `${page} is back`);
  await writeFile(pdf, original);
  assert.equal((await run()).outputUnchanged, false);
  await assertSameAsColdBuild();
});
