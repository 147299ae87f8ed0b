// `ir-site build` with nothing to do (build/up-to-date.ts): the last build's result, told from
// the states of the files it read and wrote, and never when any of them, the configuration or
// the options moved; the record of it is never left describing a folder a build has changed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFile, chmod, mkdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, test } from 'node:test';
import { build, type BuildResult } from '../../src/build/index.js';
import { DiagnosticsError } from '../../src/errors/diagnostic.js';
import { checkUpToDate } from '../../src/build/up-to-date.js';
import { siteChecks } from '../../src/commands/check/site-warnings.js';
import { inputStates, settledAt, upToDateRecord } from '../../src/incremental/up-to-date.js';
import { diskMemo } from '../../src/incremental/memo.js';
import { toolFingerprint } from '../../src/incremental/fingerprint.js';
import { outputRecordFile } from '../../src/incremental/output-manifest.js';
import { RACY_MS } from '../../src/incremental/racy.js';
import { filesUnder, REPO, writableFixture } from '../helpers.js';

const BIN = path.join(REPO, 'bin', 'ir-site.js');
let root: string;
let out: string;
let recordFile: string;
const run = () => build({ root, reporter: {}, siteChecks });
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, 'build', '--root', root, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
const upToDate = async (options: Omit<Parameters<typeof checkUpToDate>[0], 'root'> & { root: string }) => (await checkUpToDate(options)).fresh;
const exists = (file: string) => stat(file).then(() => true, () => false);

/** Each output file's modification time and inode: what a write would change. */
async function outputTimes(): Promise<Map<string, string>> {
  const times = new Map<string, string>();
  for (const rel of await filesUnder(out)) {
    const info = await stat(path.join(out, rel));
    times.set(rel, `${info.mtimeMs}:${info.ino}`);
  }
  return times;
}

let first: BuildResult;
before(async () => {
  root = await writableFixture('minimal', `up-to-date-${process.pid}`);
  out = path.join(root, 'public');
  recordFile = path.join(root, '.ir-site', 'cache', 'build', outputRecordFile('up-to-date', out));
  // A broken link: the build warns, and the warning must be told again.
  await appendFile(path.join(root, 'content', 'pages', 'column', 'en.md'), '\nSee [nowhere](/nowhere-at-all/).\n');
  // Files changed within RACY_MS of a build's start are not trusted to be as it read them.
  await sleep(RACY_MS + 100);
  first = await run();
});

test('a build whose inputs and output are as the last one recorded is up to date: its result, and nothing read into or written', async () => {
  assert.ok(await exists(recordFile), 'the build recorded its inputs and output');
  assert.ok(first.diagnostics.some((d) => d.message.includes('/nowhere-at-all/')), 'the fixture warns');
  const before = await outputTimes();
  const fresh = await upToDate({ root });
  assert.ok(fresh, 'up to date');
  assert.deepEqual([fresh.pages, fresh.redirects, fresh.files], [first.pages, first.redirects, first.files]);
  assert.deepEqual(fresh.diagnostics, first.diagnostics, 'the same warnings');
  assert.ok(fresh.checked.inputs > 20 && fresh.checked.outputs === before.size, `${fresh.checked.inputs} inputs, ${fresh.checked.outputs} outputs`);
  assert.deepEqual(await outputTimes(), before, 'nothing written');
  // Other options, another output folder: not what was recorded.
  assert.equal(await upToDate({ root, drafts: true }), null, 'drafts');
  assert.equal(await upToDate({ root, outDir: 'elsewhere' }), null, 'another output folder');
  assert.equal(await upToDate({ root, site: 'first' }), null, 'another identity');
  assert.equal(await upToDate({ root, cache: false }), null, 'without the cache');
});

test('an output file edited, removed or only chmodded is not up to date; the build that follows puts it right and records again', async () => {
  const page = (await filesUnder(out)).find((rel) => rel.endsWith('index.html'))!;
  const faults: [string, () => Promise<void>][] = [
    ['edited', () => appendFile(path.join(out, page), '<!-- hand edit -->')],
    ['removed', () => rm(path.join(out, page))],
    ['chmodded', () => chmod(path.join(out, page), 0o600)],
    ['record garbled', () => writeFile(recordFile, 'IRSITE-CACHE\n{"format":1}\nnot a record')],
  ];
  for (const [what, fault] of faults) {
    assert.ok(await upToDate({ root }), `up to date before: ${what}`);
    await fault();
    assert.equal(await upToDate({ root }), null, what);
    const rebuilt = await run();
    assert.deepEqual([rebuilt.pages, rebuilt.diagnostics], [first.pages, first.diagnostics]);
  }
  assert.ok(await upToDate({ root }), 'up to date after the last rebuild');
});

// The command runs ir-site's bundle, whose cache entries (another fingerprint) are not this process's: it builds once first.
test('the command reports an up-to-date build as the build would, --profile says why, and --strict still fails on its warnings', () => {
  assert.equal(cli('--quiet').status, 0);
  const quiet = cli('--quiet', '--profile');
  assert.equal(quiet.status, 0, quiet.stderr);
  assert.match(quiet.stderr, /output +up to date: the configuration, the \d+ input files and the \d+ output files as the last build recorded them/);
  assert.match(quiet.stderr, new RegExp(`built ${first.pages} pages, 0 rendered, ${first.pages} unchanged, ${first.redirects} redirects and ${first.files} files`));
  assert.match(cli().stderr, /nowhere-at-all/, 'the warnings are printed again');
  const strict = cli('--strict', '--quiet');
  assert.equal(strict.status, 1, strict.stderr);
  assert.match(strict.stderr, /--strict: warnings count as errors/);
});

test('the record holds the input files as they were before the build read any, and what the build was asked', async () => {
  await run();
  const { fresh, inputs } = await checkUpToDate({ root });
  assert.ok(fresh && inputs);
  // Removed once the inputs were walked, before the build read them: as if removed while it ran.
  await rm(path.join(root, 'content', 'articles', 'english-only'), { recursive: true });
  await build({ root, reporter: {}, siteChecks, inputs });
  assert.equal(await upToDate({ root }), null, 'the removed file is in the record: not up to date');
  await run();
  assert.ok(await upToDate({ root }), 'recorded from a walk of its own');
  // Without the site checks a build reports none of their warnings: the command, which runs them, is not answered from its record.
  await build({ root, reporter: {} });
  assert.equal(await upToDate({ root }), null, 'a build without the site checks');
});

test('an entry removed or edited after the walk: a page that must be rendered again is a clear error, a file the cache cannot answer is left out; the next build is right', async () => {
  // Two entries no test has touched: the cache recorded their states, so it trusts the walk's.
  const entries = [
    { file: path.join(root, 'content', 'articles', 'commentary-q2-2025', 'en.md'), page: path.join(out, 'article', 'commentary-Q2-2025', 'index.html') },
    { file: path.join(root, 'content', 'articles', 'press-one', 'en.md'), page: path.join(out, 'article', 'press-one', 'index.html') },
  ];
  const texts = await Promise.all(entries.map((e) => readFile(e.file, 'utf8')));
  const walkedThenChanged = async ({ page }: { page: string }, change: () => Promise<void>) => {
    await run();
    const { inputs } = await checkUpToDate({ root });
    assert.ok(inputs);
    await change();
    await rm(page); // so that the page is rendered again, from its body
    return build({ root, reporter: {}, siteChecks, inputs });
  };
  const changedDuringBuild = (file: string, said: RegExp) => (error: unknown) => {
    assert.ok(error instanceof DiagnosticsError, String(error));
    assert.ok(error.diagnostics.some((d) => d.rule === 'content/changed-during-build' && d.file === path.relative(root, file) && said.test(d.message)), JSON.stringify(error.diagnostics));
    return true;
  };
  const [removed, edited] = entries as [(typeof entries)[0], (typeof entries)[0]];
  try {
    await assert.rejects(walkedThenChanged(removed, () => rm(removed.file)), changedDuringBuild(removed.file, /it is gone/));
    await assert.rejects(walkedThenChanged(edited, () => writeFile(edited.file, `${texts[1]}One more sentence.\n`)), changedDuringBuild(edited.file, /no longer what the build read/));
    // An image, whose bytes the image stage reads.
    const chart = path.join(root, 'content', 'articles', 'press-one', 'chart.png');
    const bytes = await readFile(chart);
    await writeFile(edited.file, texts[1]!);
    await sleep(RACY_MS + 100); // a file just written keeps the build from recording, and so from walking
    await assert.rejects(walkedThenChanged(edited, () => rm(chart)).finally(() => writeFile(chart, bytes)), changedDuringBuild(chart, /it is gone/));
    // A file the cache does not know (just written), removed before the load reads it: the build is of the content without it.
    await writeFile(removed.file, texts[0]!);
    const { inputs } = await checkUpToDate({ root });
    await rm(removed.file);
    const built = await build({ root, reporter: {}, siteChecks, inputs });
    assert.ok(!built.graph.routes.some((r) => r.path === '/article/commentary-Q2-2025/'));
  } finally {
    await Promise.all(entries.map((e, i) => writeFile(e.file, texts[i]!)));
  }
  await sleep(RACY_MS + 100);
  await run();
  assert.ok((await Promise.all(entries.map((e) => exists(e.page)))).every(Boolean), 'the next build puts the pages back');
});

test('a build that changes the output forgets the record first; a build right after an input changed keeps one that is never up to date', async () => {
  await run();
  assert.ok(await upToDate({ root }));
  await build({ root, reporter: {}, cache: false });
  assert.equal(await exists(recordFile), false, 'a --no-cache build rewrote the folder: no record describes it');
  await run();
  assert.ok(await upToDate({ root }), 'recorded again');
  // The same bytes and times, but touched: the change time moved, within RACY_MS of the next build.
  const file = path.join(root, 'content', 'site.yaml');
  const { atime, mtime } = await stat(file);
  await utimes(file, atime, mtime);
  assert.equal(await upToDate({ root }), null, 'a touched input');
  const again = await run();
  assert.equal(again.outputUnchanged, true, 'the build found the same bytes');
  assert.equal(await upToDate({ root }), null, 'an input too recent to trust: the record is not up to date');
  assert.equal((await upToDateRecord(diskMemo(path.join(root, '.ir-site', 'cache'), toolFingerprint()), out).read())?.settled, false, 'kept as not settled, for its output files');
});

test("a build given the up-to-date check's stats of the output files puts back a file edited by hand, as one that stats them itself", async () => {
  // The record is not settled (the test before): the check stats the output files for the build.
  const page = (await filesUnder(out)).find((rel) => rel.startsWith('fr/') && rel.endsWith('index.html') && !rel.includes('column'))!;
  const original = await readFile(path.join(out, page));
  await appendFile(path.join(root, 'content', 'pages', 'column', 'en.md'), '\nOne sentence more.\n');
  await writeFile(path.join(out, page), original.toString('utf8').replace('</body>', '<p>hand edit</p></body>'));
  const check = await checkUpToDate({ root });
  assert.equal(check.fresh, null);
  assert.deepEqual(check.outputs?.names.includes(page), true, 'the check statted the output files');
  const result = await build({ root, reporter: {}, siteChecks, inputs: check.inputs, outputs: check.outputs });
  assert.ok(result.render.rendered >= 1 && result.render.kept > 0, `${result.render.rendered} rendered, ${result.render.kept} kept`);
  assert.deepEqual(await readFile(path.join(out, page)), original, 'the edited page is written again');
});

test('the record covers every file under the input folders, and none reached through a link', async () => {
  const folders = ['content', 'config'].map((dir) => path.join(root, dir));
  const shared = ['templates', 'locales'].map((dir) => path.join(REPO, dir));
  const walked = inputStates([...folders, ...shared], [out])!;
  const expected: string[] = [];
  for (const dir of [...folders, ...shared]) for (const rel of await filesUnder(dir)) if (!rel.split('/').some((part) => part.startsWith('.'))) expected.push(path.join(dir, rel));
  assert.deepEqual([...walked.names].sort(), expected.sort());
  await appendFile(path.join(root, 'config', 'redirects.yaml'), '\n');
  assert.equal(settledAt(inputStates(folders, [out])!, Date.now()), false, 'a file changed just now is not settled: no record');
  const linked = path.join(root, 'content', 'articles', 'linked');
  await mkdir(linked);
  await symlink(path.join(root, 'content', 'site.yaml'), path.join(linked, 'en.md'));
  assert.equal(inputStates(folders, [out]), null, 'a link: no record');
  await rm(linked, { recursive: true });
});
