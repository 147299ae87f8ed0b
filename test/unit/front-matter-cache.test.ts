// The front-matter cache: parses answered by file digest, body digests for page keys, and
// the rule for trusting a file's recorded digest by its size and time (never a file
// modified just before the build that recorded it).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { digestOf } from '../../src/files/digest.js';
import { FrontMatterCache } from '../../src/incremental/front-matter-cache.js';
import { parseYamlText, readFrontMatter, type FrontMatter, type FrontMatterError, type SourceFile } from '../../src/build/content/frontmatter.js';
import { readCacheFile } from '../../src/files/cache-file.js';
import { readEntryBody } from '../../src/build/content/load.js';
import { diskMemo } from '../../src/incremental/memo.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function site() {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-fm-cache-'));
  dirs.push(dir);
  return { cache: path.join(dir, 'cache'), file: path.join(dir, 'en.md') };
}

/** Writes `text` to `file`, modified `ageMs` ago, and reads it as the loader does. */
async function put(file: string, text: string, ageMs: number): Promise<SourceFile> {
  await writeFile(file, text);
  const when = new Date(Date.now() - ageMs);
  await utimes(file, when, when);
  const s = await stat(file);
  return { path: file, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
}

function parsed(result: FrontMatter | FrontMatterError): FrontMatter {
  assert.ok(!('message' in result), 'message' in result ? result.message : '');
  return result;
}

const A = '---\ntitle: "Alpha"\n---\nBody A\n';
const B = '---\ntitle: "Bravo"\n---\nBody B\n'; // same length as A

test('a parse is answered from the cache by content, with the digest of the body', async () => {
  const { cache, file } = await site();
  const first = await FrontMatterCache.open(diskMemo(cache, 'tool-1'));
  const miss = parsed(await first.read(A, await put(file, A, 60_000)));
  assert.equal(miss.bodyDigest, digestOf(miss.body));
  await first.save();

  const second = await FrontMatterCache.open(diskMemo(cache, 'tool-1'));
  const hit = parsed(await second.read(A, await put(file, A, 60_000)));
  assert.deepEqual(hit, miss);

  // Another ir-site (fingerprint) trusts nothing it did not record itself.
  const other = await FrontMatterCache.open(diskMemo(cache, 'tool-2'));
  assert.deepEqual(parsed(await other.read(B)).data, { title: 'Bravo' });
});

test('a new text whose front matter was recorded (a body edit) takes its YAML from the record; a new front matter is parsed', async () => {
  const { cache, file } = await site();
  const first = await FrontMatterCache.open(diskMemo(cache, 'tool-1'));
  const text = '---\ntitle: "Alpha"\nsections: [insights]\n---\nBody A\n';
  parsed(await first.read(text, await put(file, text, 60_000)));
  await first.save({ always: true });

  const second = await FrontMatterCache.open(diskMemo(cache, 'tool-1'));
  const recorded = parsed(await second.read(text));
  const edited = `${text}A sentence more.\n`;
  const bodyEdit = parsed(await second.read(edited));
  assert.deepEqual(bodyEdit, readFrontMatter(edited), 'as a parse of the edited text');
  assert.equal(bodyEdit.data, recorded.data, 'the data recorded with that front matter, not a new parse');
  const matterEdit = parsed(await second.read(text.replace('Alpha', 'Alpine')));
  assert.deepEqual(matterEdit, readFrontMatter(text.replace('Alpha', 'Alpine')));
  assert.notEqual(matterEdit.data, recorded.data);
  // A front matter that does not parse is reported as by a parse, whatever the cache holds.
  assert.deepEqual(await second.read('---\ntitle: [x\n---\nBody\n'), readFrontMatter('---\ntitle: [x\n---\nBody\n'));
});

test("an old file whose size and times are as recorded is not hashed again; a file modified just before the recording build always is", async () => {
  const { cache, file } = await site();
  /**
   * A build records A (written `ageMs` ago); then B, of the same size, is read with A's size and
   * times: a file the cache must trust, unread, for the saving it makes. What does the next build read?
   */
  const replacedUnseen = async (ageMs: number) => {
    const recorded = await put(file, A, ageMs);
    const recording = await FrontMatterCache.open(diskMemo(cache, 'tool'));
    parsed(await recording.read(A, recorded));
    await recording.save();
    await writeFile(file, B);
    // The Date put() gave utimes (whole milliseconds), which the file system holds as nanoseconds.
    const then = new Date(Math.round(recorded.mtimeMs));
    await utimes(file, then, then);
    const next = await FrontMatterCache.open(diskMemo(cache, 'tool'));
    return { recorded, next, read: parsed(await next.read(B, recorded)) };
  };

  // Old: the record is trusted (that is the saving), which shows as the answer for A's bytes.
  const old = await replacedUnseen(3_600_000);
  assert.deepEqual(old.read.data, { title: 'Alpha' });
  // A file whose size or either time differs from the record is always hashed.
  const moved = { ...old.recorded, mtimeMs: old.recorded.mtimeMs + 1000 };
  assert.deepEqual(parsed(await old.next.read(B, moved)).data, { title: 'Bravo' });
  // As the file really is: B written, A's modification time put back (touch -d) moved its change time.
  const now = await stat(file);
  assert.equal(now.mtimeMs, old.recorded.mtimeMs);
  assert.deepEqual(parsed(await old.next.read(B, { path: file, size: now.size, mtimeMs: now.mtimeMs, ctimeMs: now.ctimeMs })).data, { title: 'Bravo' });

  // Recent (racily clean, as git says): the same replacement is noticed.
  const recent = await replacedUnseen(0);
  assert.deepEqual(recent.read.data, { title: 'Bravo' });
  assert.equal(recent.read.bodyDigest, digestOf('Body B\n'));
});

test('an old file known by its size and time is recalled without being read; its body is read when asked for', async () => {
  const { cache, file } = await site();
  const withImage = '---\ntitle: "Chart"\n---\nIntro\r\n\r\n![Q3](./q3.png)\r\n';
  const recorded = await put(file, withImage, 3_600_000);
  const recording = await FrontMatterCache.open(diskMemo(cache, 'tool'));
  assert.equal(recording.recall(recorded), null, 'nothing recorded yet');
  const read = parsed(await recording.read(withImage, recorded));
  await recording.save();

  const next = await FrontMatterCache.open(diskMemo(cache, 'tool'));
  const recalled = next.recall(recorded);
  assert.ok(recalled);
  const { bodyOffset, ...known } = recalled;
  // The front matter's digest covers the text before the body, as normalised, and nothing after.
  const matterDigest = digestOf('---\ntitle: "Chart"\n---\n');
  assert.equal(read.matterDigest, matterDigest);
  assert.deepEqual(known, { data: { title: 'Chart' }, bodyLine: 4, fieldLines: read.fieldLines, bodyDigest: digestOf(read.body), matterDigest });
  assert.equal(readEntryBody('/', recorded.path, bodyOffset), read.body, 'the body as the parse gave it (line endings normalised)');
  // The recalled file stays in the cache for the build after.
  await writeFile(file, 'not even front matter');
  await next.save();
  assert.ok((await FrontMatterCache.open(diskMemo(cache, 'tool'))).recall(recorded));

  // A file whose size or time differs, or a recent one, must be read.
  assert.equal(next.recall({ ...recorded, size: recorded.size + 1 }), null);
  assert.equal(next.recall({ ...recorded, mtimeMs: recorded.mtimeMs + 1 }), null);
  const fresh = await put(file, withImage, 0);
  const recordingFresh = await FrontMatterCache.open(diskMemo(cache, 'tool'));
  parsed(await recordingFresh.read(withImage, fresh));
  await recordingFresh.save();
  assert.equal((await FrontMatterCache.open(diskMemo(cache, 'tool'))).recall(fresh), null, 'modified just before the recording build');
});

test('a few files parsed anew do not rewrite the cache; more do, and so does always', async () => {
  const { cache } = await site();
  const dir = path.dirname(cache);
  const text = (i: number, v = 0) => `---\ntitle: "Page ${i} v${v}"\n---\nBody ${i}\n`;
  const files: SourceFile[] = [];
  const first = await FrontMatterCache.open(diskMemo(cache, 'tool'));
  for (let i = 0; i < 100; i++) {
    const file = await put(path.join(dir, `p${i}.md`), text(i), 3_600_000);
    files.push(file);
    parsed(await first.read(text(i), file));
  }
  await first.save();
  const stored = path.join(cache, 'build', 'front-matter.bin');
  const written = await readFile(stored, 'latin1');

  /** A build that reads every file, `edited` of them changed since; then saves (`always`: whatever changed). */
  const buildWith = async (edited: number, version: number, always = false) => {
    const build = await FrontMatterCache.open(diskMemo(cache, 'tool'));
    for (let i = 0; i < files.length; i++) {
      if (i < edited) files[i] = await put(files[i]!.path, text(i, version), 1_800_000 - version);
      if (!build.recall(files[i]!)) parsed(await build.read(i < edited ? text(i, version) : text(i), files[i]));
    }
    await build.save({ always });
  };
  await buildWith(2, 1);
  assert.equal(await readFile(stored, 'latin1'), written, 'two files parsed anew: the cache is left as it was');
  const next = await FrontMatterCache.open(diskMemo(cache, 'tool'));
  assert.equal(next.recall(files[0]!), null, 'so the next build reads them again');
  assert.deepEqual(parsed(await next.read(text(0, 1), files[0])).data, { title: 'Page 0 v1' });
  assert.ok(next.recall(files[50]!), 'and recalls the others');

  await buildWith(2, 2, true);
  assert.notEqual(await readFile(stored, 'utf8'), written, 'always: written');
  assert.ok((await FrontMatterCache.open(diskMemo(cache, 'tool'))).recall(files[0]!));

  const before = await readFile(stored, 'utf8');
  await buildWith(40, 3);
  assert.notEqual(await readFile(stored, 'utf8'), before, 'forty files parsed anew: written');
  assert.ok((await FrontMatterCache.open(diskMemo(cache, 'tool'))).recall(files[39]!));
});

test('a YAML file is parsed once: its text\'s digest answers later builds, with a copy the caller may change; a text that does not parse is not kept', async () => {
  const { cache } = await site();
  const text = 'title:\n  en: Global equity\nholdings:\n  - { company: A, weight: 5.2 }\n';
  const first = await FrontMatterCache.open(diskMemo(cache, 'tool-1'));
  const parsed = await first.parseYaml(text);
  assert.deepEqual(parsed, parseYamlText(text));
  assert.deepEqual(parsed.lines, { title: 1, 'title\0en': 2, holdings: 3, 'holdings\x000': 4 }, 'a key on its parent\'s line is not recorded');
  (parsed.data as { title: { en: string } }).title.en = 'changed by the caller';
  await assert.rejects(() => first.parseYaml('title: [unclosed\n'));
  await first.save({ always: true });

  const stored = await readCacheFile<{ yaml: Record<string, unknown> }>(path.join(cache, 'build', 'front-matter.bin'), 'front-matter', 'tool-1', () => true);
  assert.deepEqual(Object.keys(stored!.yaml), [digestOf(text)], 'the text that parsed, by digest, and nothing else');
  const second = await FrontMatterCache.open(diskMemo(cache, 'tool-1'));
  const again = await second.parseYaml(text);
  assert.deepEqual(again, parseYamlText(text), 'as parsed, not as the caller changed it');
  (again.data as { title: { en: string } }).title.en = 'changed again';
  assert.deepEqual(await second.parseYaml(text), parseYamlText(text));
});
