// A build killed at any point of its commit, two builds of one site at once, and what
// interrupted builds leave behind: the output is always a whole build's, and the next build
// cleans up. Builds run as child processes of the real CLI (bin/ir-site.js), killed with
// SIGKILL at named points of the commit (IR_SITE_TEST_KILL_AT, src/build/emit/journal.ts).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../../src/build/index.js';
import { acquireBuildLock, acquireOutputLock, BuildLockedError } from '../../src/build/lock.js';
import { journalFile, outputInterrupted, replayJournal } from '../../src/build/emit/journal.js';
import { serve } from '../../src/commands/server/serve.js';
import { fileTree, REPO, writableFixture } from '../helpers.js';

const BIN = path.join(REPO, 'bin', 'ir-site.js');
let root = '';
const out = () => path.join(root, 'public');
const cacheDir = () => path.join(root, '.ir-site', 'cache');
const ARTICLE = 'content/articles/commentary-q2-2025/en.md';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  err: string;
  /** When it ended (ms since the epoch). */
  ended: number;
}

/**
 * A CLI build; `onErr` hears its standard error so far, each time more comes. `through`: a
 * program (and its arguments) the build runs under.
 */
function cli(args: string[], env: Record<string, string> = {}, site = root, onErr?: (err: string) => void, through: string[] = []): Promise<Run> {
  const command = [...through, process.execPath, BIN, 'build', '--root', site, '--workers', '0', ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      env: { ...process.env, NO_COLOR: '1', MALLOC_ARENA_MAX: '2', ...env },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      onErr?.(err);
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, err, ended: Date.now() }));
  });
}

/**
 * What a build without any cache makes of the site as it is now. By the CLI too: libaom's AVIF
 * bytes depend on the process's malloc arenas (MALLOC_ARENA_MAX, which the CLI sets).
 */
async function cleanBuild(): Promise<Map<string, string>> {
  const reference = path.join(root, 'reference');
  await rm(reference, { recursive: true, force: true });
  const clean = await cli(['--no-cache', '--out', reference]);
  assert.equal(clean.code, 0, clean.err);
  const files = await fileTree(reference);
  await rm(reference, { recursive: true, force: true });
  return files;
}

function assertSame(expected: Map<string, string>, actual: Map<string, string>, what: string): void {
  const wrong = [...new Set([...expected.keys(), ...actual.keys()])].filter((rel) => expected.get(rel) !== actual.get(rel));
  assert.deepEqual(wrong, [], what);
}

const siblings = async () => (await readdir(root)).filter((n) => n.startsWith('public.'));

let edits = 0;
async function editArticle(): Promise<void> {
  const file = path.join(root, ARTICLE);
  await writeFile(file, `${await readFile(file, 'utf8')}\nEdit ${++edits} by the interruption test.\n`);
}

before(async () => {
  root = await writableFixture('minimal', `interrupted-${process.pid}`);
  // Not a cache that in-process builds of the fixture may have left (their AVIF bytes differ, above).
  await rm(path.join(root, '.ir-site'), { recursive: true, force: true });
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

for (const [point, how] of [
  ['journal-written', 'in place'],
  ['half-moved', 'in place'],
  ['journal-written', 'swap'],
  ['moved-aside', 'swap'],
] as const) {
  test(`a build killed at ${point} (${how}): the next build finishes or repairs the commit before anything else, and equals a clean build`, async () => {
    const first = await cli([]);
    assert.equal(first.code, 0, first.err);
    await editArticle();
    // In place needs the record of the previous output; --no-cache swaps.
    const killed = await cli(how === 'swap' ? ['--no-cache'] : [], { IR_SITE_TEST_KILL_AT: point });
    assert.equal(killed.signal, 'SIGKILL', `the build reached ${point}: ${killed.err}`);
    assert.ok(outputInterrupted(out()), 'the journal says the commit was interrupted');
    await assert.rejects(serve({ dir: out(), port: 0 }), /half updated: the build that was publishing it was interrupted/, 'serve refuses it');
    const next = await cli([]);
    assert.equal(next.code, 0, next.err);
    assert.equal(outputInterrupted(out()), false);
    assertSame(await cleanBuild(), await fileTree(out()), 'the output after the next build');
    assert.deepEqual(await siblings(), [], 'no staging or moved-aside folder left');
  });
}

// SIGINT and SIGHUP are held alike; they are left out here because a test runner or `nohup` may
// start the build with them ignored, and an ignored signal does nothing at all.
test('SIGTERM in the middle of a commit in place: the commit is finished first, then the build stops by that signal; the output is the new build\'s, whole', async () => {
  assert.equal((await cli([])).code, 0);
  const signal = 'SIGTERM';
  await editArticle();
  const stopped = await cli([], { IR_SITE_TEST_KILL_AT: 'half-moved', IR_SITE_TEST_KILL_WITH: signal });
  assert.equal(stopped.signal, signal, stopped.err);
  assert.equal(outputInterrupted(out()), false, `${signal}: no journal, the commit is done`);
  // The process ended by the signal once the commit was done: only its lock is left, which the next build takes over.
  assert.deepEqual(await siblings(), ['public.lock'], `${signal}: no staging folder left`);
  assertSame(await cleanBuild(), await fileTree(out()), `${signal}: the output is the new build's`);
  assert.equal((await cli([])).code, 0);
  assert.deepEqual(await siblings(), [], 'the next build leaves nothing beside the output');
});

/** Root (the test machine's user) without the capabilities that let it write into any folder: the file modes govern. */
const WITHOUT_OVERRIDE = process.getuid?.() === 0 ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search,-fowner', '--inh-caps', '-all'] : [];
const canDropOverride = () => WITHOUT_OVERRIDE.length === 0 || spawnSync(WITHOUT_OVERRIDE[0]!, [...WITHOUT_OVERRIDE.slice(1), 'true']).status === 0;
const cliWithoutOverride = (args: string[]) => cli(args, {}, root, undefined, WITHOUT_OVERRIDE);

test('an output folder that cannot be changed (read-only, at the top or further in): the commit in place stops before anything moves, the output is untouched, and the next build once it is writable publishes', { skip: canDropOverride() ? false : 'root cannot drop the capabilities that override file modes here (setpriv)' }, async () => {
  assert.equal((await cli([])).code, 0);
  await editArticle(); // the article's folder, and sw.js at the top of the output, change
  for (const folder of [out(), path.join(out(), 'article', 'commentary-Q2-2025')]) {
    const before = await fileTree(out());
    await chmod(folder, 0o555);
    try {
      const stopped = await cliWithoutOverride([]);
      assert.equal(stopped.code, 1, stopped.err);
      assert.match(stopped.err, /cannot write \S*public\S*: permission denied/);
      assert.match(stopped.err, /previous output is untouched/);
      assert.doesNotMatch(stopped.err, /part-way/);
      assert.equal(outputInterrupted(out()), false, 'no journal: nothing to finish');
      assertSame(before, await fileTree(out()), `${folder}: the output as it was`);
    } finally {
      await chmod(folder, 0o755);
    }
  }
  const next = await cli([]);
  assert.equal(next.code, 0, next.err);
  assertSame(await cleanBuild(), await fileTree(out()), 'the output after the next build');
  assert.deepEqual(await siblings(), [], 'no staging folder left');
});

test('the journal alone makes the output whole: the interrupted build\'s', async () => {
  assert.equal((await cli([])).code, 0);
  await editArticle();
  assert.equal((await cli([], { IR_SITE_TEST_KILL_AT: 'half-moved' })).signal, 'SIGKILL');
  // The lock of the killed build is stale; the next build takes it over and replays the journal.
  const lock = JSON.parse(await readFile(path.join(cacheDir(), 'build.lock'), 'utf8')) as { pid: number; host: string };
  assert.equal(lock.host, hostname());
  await replayJournal(out());
  assertSame(await cleanBuild(), await fileTree(out()), 'the output');
  await assert.rejects(readFile(journalFile(out())), 'no journal left');
});

test('a journal replayed over paths of the wrong kind (a link to the sources where a page\'s folder goes, a folder where a file goes) replaces them, never writes through them', async () => {
  assert.equal((await cli([])).code, 0);
  await editArticle();
  const articles = path.join(out(), 'article');
  const edited = (await readdir(articles)).find((name) => name.toLowerCase() === 'commentary-q2-2025')!;
  assert.ok(edited, 'the edited article\'s page folder');
  await rm(path.join(articles, edited), { recursive: true });
  await symlink(path.join(root, 'content', 'articles', 'commentary-q2-2025'), path.join(articles, edited));
  await rm(path.join(out(), 'robots.txt'));
  await mkdir(path.join(out(), 'robots.txt', 'inside'), { recursive: true });
  const sources = await fileTree(path.join(root, 'content'));
  assert.equal((await cli([], { IR_SITE_TEST_KILL_AT: 'journal-written' })).signal, 'SIGKILL');
  await replayJournal(out());
  assertSame(await cleanBuild(), await fileTree(out()), 'the output');
  assertSame(sources, await fileTree(path.join(root, 'content')), 'the sources');
});

test('a journal of the wrong shape, or naming files outside the output, is not replayed: the next build is whole, nothing outside is touched', async () => {
  assert.equal((await cli([])).code, 0);
  const outside = path.join(root, 'outside.txt');
  await writeFile(outside, 'not the build\'s');
  const staging = `${out()}.staging-1-x`;
  const journals = [
    { mode: 'in-place' },
    { mode: 'in-place', staging, staged: 'index.html', gone: 'abc' },
    { mode: 'in-place', staging, staged: [], gone: ['../outside.txt'] },
    { mode: 'in-place', staging: root, staged: [], gone: [] },
    { mode: 'swap', staging, previous: path.join(root, 'content') },
    'in-place',
  ];
  for (const journal of journals) {
    await editArticle();
    await writeFile(journalFile(out()), JSON.stringify(journal));
    const run = await cli([]);
    assert.equal(run.code, 0, `${JSON.stringify(journal)}: ${run.err}`);
    assertSame(await cleanBuild(), await fileTree(out()), JSON.stringify(journal));
    assert.equal(await readFile(outside, 'utf8'), 'not the build\'s');
    assert.ok(existsSync(path.join(root, 'content')), 'the content is where it was');
  }
});

test('a journal left with nothing else (no lock): the site is not up to date, the build deals with the journal, and serve takes the output', async () => {
  assert.equal((await cli([])).code, 0);
  await writeFile(journalFile(out()), '{"mode":"in-pl');
  const run = await cli([]);
  assert.equal(run.code, 0, run.err);
  assert.equal(existsSync(journalFile(out())), false, 'the journal is gone');
  assertSame(await cleanBuild(), await fileTree(out()), 'the output');
});

test('two builds of one site at once: the second waits for the first, says so, and the output is a clean build\'s', async () => {
  assert.equal((await cli([])).code, 0);
  // A page removed, so that a build working from stale state would leave its files behind.
  await rm(path.join(root, 'content/articles/press-one'), { recursive: true, force: true });
  const [a, b] = await Promise.all([cli([]), cli([])]);
  assert.equal(a.code, 0, a.err);
  assert.equal(b.code, 0, b.err);
  assert.match(a.err + b.err, /waiting for the build started by pid \d+ on .+ at \d{4}-/);
  assertSame(await cleanBuild(), await fileTree(out()), 'the output');
  assert.deepEqual(await siblings(), []);
});

test('two sites built into one output folder at once: each waits for the output folder\'s lock, and the output is a clean build of the last', async () => {
  const other = await writableFixture('minimal', `interrupted-other-${process.pid}`);
  await rm(path.join(other, '.ir-site'), { recursive: true, force: true });
  const otherArticle = path.join(other, ARTICLE);
  await writeFile(otherArticle, `${await readFile(otherArticle, 'utf8')}\nOnly the other site says this.\n`);
  const shared = path.join(root, 'shared-out');
  // Held here first, so that both builds meet it: each waits, then they publish one after the other.
  const held = await acquireOutputLock(shared);
  try {
    // The lock is given up once both builds say they wait for it.
    let waiting = 0;
    let bothWait: () => void = () => undefined;
    const waited = new Promise<void>((resolve) => (bothWait = resolve));
    const onErr = () => {
      let said = false;
      return (err: string) => {
        if (said || !/waiting for the build started by pid/.test(err)) return;
        said = true;
        if (++waiting === 2) bothWait();
      };
    };
    const runs = Promise.all([cli(['--out', shared], {}, root, onErr()), cli(['--out', shared], {}, other, onErr())]);
    await Promise.race([waited, runs]);
    await held();
    const [a, b] = await runs;
    assert.equal(a.code, 0, a.err);
    assert.equal(b.code, 0, b.err);
    for (const run of [a, b]) assert.match(run.err, /waiting for the build started by pid \d+ on .+ \(it holds \S*shared-out\.lock\)/);
    const last = a.ended > b.ended ? root : other;
    const reference = path.join(root, 'shared-reference');
    assert.equal((await cli(['--no-cache', '--out', reference], {}, last)).code, 0);
    assertSame(await fileTree(reference), await fileTree(shared), 'the output is the last build\'s, whole');
    assert.deepEqual((await readdir(root)).filter((n) => n.startsWith('shared-out.')), [], 'no staging folder, journal or lock left');
  } finally {
    await Promise.all([other, shared, path.join(root, 'shared-reference')].map((dir) => rm(dir, { recursive: true, force: true })));
  }
});

test('a build held too long by another is a clear error that names the holder; a lock whose process is gone is taken over', async () => {
  const holder = await acquireBuildLock(cacheDir());
  // The holder is this (live) process: another acquisition in it waits like a second build would.
  await assert.rejects(acquireBuildLock(cacheDir(), { waitMs: 300 }), (error: unknown) => {
    assert.ok(error instanceof BuildLockedError);
    assert.match(error.message, new RegExp(`pid ${process.pid} on .* holds .*build\\.lock`));
    return true;
  });
  await holder();
  // A process that has exited.
  const gone = spawn(process.execPath, ['-e', '']);
  const pid = gone.pid!;
  await new Promise((resolve) => gone.on('close', resolve));
  await writeFile(path.join(cacheDir(), 'build.lock'), JSON.stringify({ pid, host: hostname(), started: new Date().toISOString() }));
  const release = await acquireBuildLock(cacheDir(), { waitMs: 2000 });
  await release();
});

test('--quiet still says why a build waits: another build holds the site', async () => {
  const holder = await acquireBuildLock(cacheDir());
  let released = false;
  const release = () => (released ? undefined : ((released = true), holder()));
  try {
    // Given up once the build says it waits, or after 15 s for a build that never says so.
    const timer = setTimeout(release, 15_000);
    const run = await cli(['--quiet'], {}, root, (err) => void (/waiting for the build started by pid/.test(err) && release()));
    clearTimeout(timer);
    assert.equal(run.code, 0, run.err);
    assert.match(run.err, /^waiting for the build started by pid \d+ on .+ \(it holds \S*build\.lock\)$/m);
  } finally {
    await release();
  }
});

test('a build that waited for another reads site.config.ts as it is after the wait, as it reads the content', async () => {
  assert.equal((await cli([])).code, 0);
  const config = path.join(root, 'site.config.ts');
  const original = await readFile(config, 'utf8');
  const holder = await acquireBuildLock(cacheDir());
  try {
    const child = spawn(process.execPath, [BIN, 'build', '--root', root, '--workers', '0'], { env: { ...process.env, NO_COLOR: '1', MALLOC_ARENA_MAX: '2' } });
    let err = '';
    const waits = new Promise<void>((resolve) => child.stderr.on('data', (d: Buffer) => ((err += d.toString()), /waiting for/.test(err) && resolve())));
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.resume();
    await waits; // it has read the configuration, and waits for the lock
    await writeFile(config, original.replace("siteUrl: 'https://beta.example/'", "siteUrl: 'https://gamma.example/'"));
    await editArticle();
    await holder();
    assert.equal(await done, 0, err);
    const built = await fileTree(out());
    assert.ok([...built.values()].some((b) => Buffer.from(b, 'base64').includes('https://gamma.example/')), 'the new site URL is in the output');
    assertSame(await cleanBuild(), built, 'the output: the site as it is after the wait');
  } finally {
    await holder();
    await writeFile(config, original);
  }
});

test('what interrupted builds leave (staging folders, moved-aside outputs, temporary cache files) is removed by the next build', async () => {
  assert.equal((await cli([])).code, 0);
  await mkdir(path.join(root, 'public.staging-4242-abc', 'article'), { recursive: true });
  await writeFile(path.join(root, 'public.staging-4242-abc', 'article', 'index.html'), 'half');
  await mkdir(path.join(root, 'public.previous-4242'), { recursive: true });
  await writeFile(path.join(cacheDir(), 'build', 'front-matter.bin.4242'), 'half');
  // An image entry half made: by a killed build a while ago, or by `ir-site dev` now (it takes no lock).
  const old = path.join(cacheDir(), 'images', 'abc.tmp-4242-xyz');
  const recent = path.join(cacheDir(), 'images', 'def.tmp-4343-xyz');
  for (const entry of [old, recent]) await mkdir(entry, { recursive: true });
  await writeFile(path.join(old, 'a.webp'), 'half');
  const aMinuteAgo = new Date(Date.now() - 120_000);
  await utimes(old, aMinuteAgo, aMinuteAgo);
  await build({ root, reporter: {}, workers: 0 });
  assert.deepEqual(await siblings(), []);
  assert.deepEqual((await readdir(path.join(cacheDir(), 'build'))).filter((n) => n.endsWith('.4242')), []);
  assert.deepEqual((await readdir(path.join(cacheDir(), 'images'))).filter((n) => n.includes('.tmp-')), ['def.tmp-4343-xyz'], 'the old entry goes; a recent one may be dev\'s');
  await rm(recent, { recursive: true });
});

test('with paths.cache moved, old temporary files in the folder of site.config.ts\'s bundle are removed too; recent ones are left', async () => {
  const config = path.join(root, 'site.config.ts');
  const original = await readFile(config, 'utf8');
  assert.match(original, /paths: \{ templates:/);
  await writeFile(config, original.replace('paths: { templates:', "paths: { cache: '.moved-cache', templates:"));
  try {
    const defaultCache = path.join(root, '.ir-site', 'cache');
    await mkdir(path.join(defaultCache, 'build'), { recursive: true });
    const leftovers = [path.join(defaultCache, 'site.config.0123abcd.mjs.4242'), path.join(defaultCache, 'build', 'bundles.bin.4242')];
    const recent = path.join(defaultCache, 'build', 'bundles.bin.4343');
    for (const file of [...leftovers, recent]) await writeFile(file, 'half');
    const old = new Date(Date.now() - 120_000);
    for (const file of leftovers) await utimes(file, old, old);
    await build({ root, reporter: {}, workers: 0 });
    for (const file of leftovers) assert.equal(existsSync(file), false, `${file} is removed`);
    assert.ok(existsSync(recent), 'a recent one may be a running build\'s');
  } finally {
    await writeFile(config, original);
    await rm(path.join(root, '.moved-cache'), { recursive: true, force: true });
  }
});
