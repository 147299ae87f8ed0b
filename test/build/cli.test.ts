// The ir-site command as a person runs it: help, exit codes, output, and a failed
// build that leaves the previous output exactly as it was.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { check } from '../../src/commands/check/index.js';
import { buildFailure, buildToMemory, fixture, REPO, writableFixture } from '../helpers.js';

const BIN = path.join(REPO, 'bin', 'ir-site.js');
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

test('--help explains the commands; build --help explains every flag', () => {
  const top = run('--help');
  assert.equal(top.code, 0);
  assert.match(top.out, /Usage: ir-site/);
  assert.match(top.out, /build \[options\]\s+build the whole site/);
  assert.match(top.out, /Examples:/);
  const help = run('build', '--help');
  for (const flag of ['--root <dir>', '--site <identity>', '--out <dir>', '--drafts', '--quiet', '--profile', '--no-cache', '--workers <n>']) assert.ok(help.out.includes(flag), flag);
});

test('build --profile prints every stage and what the cache saved; a second build renders only what it must', async () => {
  const out = await mkdtemp(path.join(tmpdir(), 'ir-cli-profile-'));
  const first = run('build', '--root', fixture('minimal'), '--out', out, '--quiet', '--profile');
  assert.equal(first.code, 0, first.err);
  for (const stage of ['config', 'load', 'validate', 'images', 'graph', 'check', 'templates', 'render', 'emit', 'commit']) {
    assert.match(first.err, new RegExp(`^  ${stage} +\\d+\\.\\d\\d s +\\d+%  \\S`, 'm'), `${stage}, with what it did`);
  }
  assert.match(first.err, /pages +\d+ rendered .*, 0 unchanged/);
  assert.match(first.err, /memory +\d+ MiB peak/);
  // An output file's change time moved (its bytes did not): the output is no longer exactly as
  // recorded, so the build runs, finds every page's inputs and bytes as they were, and renders none.
  const page = (await readdir(out, { recursive: true })).find((rel) => rel.endsWith('index.html'))!;
  await chmod(path.join(out, page), 0o600);
  const second = run('build', '--root', fixture('minimal'), '--out', out, '--quiet', '--profile', '--workers', '2');
  assert.equal(second.code, 0, second.err);
  assert.match(second.err, /pages +0 rendered .*, [1-9]\d* unchanged and left as they were/);
  assert.match(second.err, /built \d+ pages, 0 rendered, \d+ unchanged/);
  // Nothing to render: no worker is started, whatever --workers asks for.
  assert.match(second.err, /threads +none started: nothing to render/);
  assert.match(second.err, /bundles +server templates and browser bundle from the cache/);
  // Then nothing at all changed: the output is up to date, told without loading the content.
  const third = run('build', '--root', fixture('minimal'), '--out', out, '--quiet', '--profile');
  assert.equal(third.code, 0, third.err);
  assert.match(third.err, /output +up to date: .* nothing loaded, rendered or written/);
  assert.match(third.err, /built \d+ pages, 0 rendered, \d+ unchanged/);
});

test('the command runs from the bundle in dist/cli: a build loads its own code from a few files, none from dist/src', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-cli-bundle-'));
  const trace = path.join(dir, 'loaded.txt');
  await writeFile(trace, '');
  const loader = pathToFileURL(path.join(REPO, 'test', 'load-trace.mjs')).href;
  const r = spawnSync(process.execPath, ['--import', loader, BIN, 'build', '--root', fixture('minimal'), '--out', path.join(dir, 'out'), '--quiet', '--no-cache'], {
    encoding: 'utf8',
    env: { ...process.env, IR_SITE_LOAD_TRACE: trace, MALLOC_ARENA_MAX: '2' },
  });
  assert.equal(r.status, 0, r.stderr);
  const own = (await readFile(trace, 'utf8')).split('\n').filter((url) => url.startsWith(pathToFileURL(path.join(REPO, 'dist')).href));
  assert.deepEqual(own.filter((url) => !url.includes('/dist/cli/')), [], 'modules loaded from outside the bundle');
  assert.ok(own.some((url) => url.endsWith('/dist/cli/index.js')), 'the bundle\'s entry was loaded');
  // A chunk per command, per part loaded only when needed (parsers, search, templates) and a few
  // shared ones: hundreds would mean the bundle is not being used.
  assert.ok(own.length < 70, `${own.length} files of ir-site's own code loaded`);
});

test('--workers takes a whole number, and --port a port number, each written in digits', () => {
  for (const workers of ['two', '', ' 2', '0x2', '1e1']) {
    const r = run('build', '--root', fixture('minimal'), '--workers', workers);
    assert.equal(r.code, 1, JSON.stringify(workers));
    assert.match(r.err, /--workers <n>.*expected a whole number of threads/);
  }
  for (const port of ['', ' 0x1F91', '8e3', '65536']) {
    const r = run('serve', fixture('minimal'), '--port', port);
    assert.equal(r.code, 1, JSON.stringify(port));
    assert.match(r.err, /expected a port number from 0 to 65535/);
  }
});

test('--root that is no site (no folder, or no site.config.ts): build, check and dev stop with exit 1 and say so', async () => {
  const empty = await mkdtemp(path.join(tmpdir(), 'ir-no-site-'));
  for (const [root, where] of [[path.join(empty, 'missing'), /there is no folder \S*missing/], [empty, /has no site\.config\.ts/]] as const) {
    for (const command of ['build', 'check', 'dev']) {
      const r = run(command, '--root', root, ...(command === 'dev' ? ['--port', '0'] : []));
      assert.equal(r.code, 1, `${command} --root ${root}: ${r.err}`);
      assert.match(r.out + r.err, /no site here: /, command);
      assert.match(r.out + r.err, where, command);
    }
  }
});

test('serve: a host name with no address, or a folder that is not there, is exit 1 with what to change', () => {
  const host = run('serve', fixture('minimal'), '--host', 'nosuch.invalid', '--port', '0');
  assert.equal(host.code, 1, host.err);
  assert.match(host.err, /no address is known for the host name nosuch\.invalid; give an address of this machine with --host/);
  const missing = run('serve', path.join(fixture('minimal'), 'no-such-output'));
  assert.equal(missing.code, 1, missing.err);
  assert.match(missing.err, /no-such-output is not a folder; run `ir-site build` first/);
});

test('an unknown flag is an error with a pointer to --help', () => {
  const r = run('build', '--nope');
  assert.notEqual(r.code, 0);
  assert.match(r.err, /unknown option '--nope'/);
});

test('build writes the site and prints a summary; --quiet prints only the summary', async () => {
  const out = await mkdtemp(path.join(tmpdir(), 'ir-cli-'));
  const r = run('build', '--root', fixture('minimal'), '--out', out, '--quiet');
  assert.equal(r.code, 0, r.err);
  assert.match(r.err.trim(), /^built \d+ pages, \d+ redirects and \d+ files for "second" in [\d.]+ s \(\d+ pages\/s\) -> /);
  assert.equal(r.err.trim().split('\n').length, 1);
  assert.match(await readFile(path.join(out, 'index.html'), 'utf8'), /<h1/);
});

test('progress is printed while building', () => {
  const r = run('build', '--root', fixture('minimal'), '--out', path.join(tmpdir(), `ir-cli-progress-${process.pid}`));
  assert.match(r.err, /rendering \d+\/\d+ pages \(\d+ pages\/s\)/);
});

test('content errors: exit 1, every error printed with file:line, previous output untouched', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-cli-'));
  const out = path.join(dir, 'public');
  assert.equal(run('build', '--root', fixture('minimal'), '--out', out, '-q').code, 0);
  await writeFile(path.join(out, 'marker.txt'), 'previous build');
  const before = await readFile(path.join(out, 'index.html'));

  const r = run('build', '--root', fixture('content-errors'), '--out', out);
  assert.equal(r.code, 1);
  assert.match(r.err, /content\/articles\/bad-date\/en\.md:4 {2}error {2}expected a calendar date YYYY-MM-DD \(month 13 does not exist\) \(date\)/);
  assert.match(r.err, /content\/articles\/unknown-author\/en\.md:6 {2}error {2}unknown author "nobody"/);
  assert.match(r.err, /build failed: 8 errors; nothing was written, the previous output is untouched\./);

  assert.equal(await readFile(path.join(out, 'marker.txt'), 'utf8'), 'previous build');
  assert.deepEqual(await readFile(path.join(out, 'index.html')), before);
  assert.deepEqual(await readdir(dir), ['public'], 'no staging folder left behind');
});

test('--site builds the other identity', async () => {
  const out = await mkdtemp(path.join(tmpdir(), 'ir-cli-'));
  const r = run('build', '--root', fixture('minimal'), '--site', 'first', '--out', out, '-q');
  assert.equal(r.code, 0, r.err);
  assert.deepEqual((await readdir(out)).filter((f) => f.startsWith('what-is')), ['what-is-alpha']);
  const bad = run('build', '--root', fixture('minimal'), '--site', 'nope', '--out', out, '-q');
  assert.equal(bad.code, 1);
  assert.match(bad.err, /unknown site identity "nope".*\n.*hint: configured identities: first, second/);
  // dev stops too: no edit of the content makes an unknown --site right.
  const dev = spawnSync(process.execPath, [BIN, 'dev', '--root', fixture('minimal'), '--site', 'nope', '--port', '0'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
  assert.equal(dev.status, 1, dev.stderr);
  assert.match(dev.stderr, /unknown site identity "nope"/);
  assert.doesNotMatch(dev.stderr, /serving at/);
});

/** `ir-site serve` on a fresh build of the minimal fixture, started as `command args`; resolves once it listens. */
async function startServe(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const out = await mkdtemp(path.join(tmpdir(), 'ir-cli-serve-'));
  assert.equal(run('build', '--root', fixture('minimal'), '--out', out, '-q').code, 0);
  const child = spawn(command, [...args, 'serve', out, '--port', '0'], { env: { ...process.env, NO_COLOR: '1', ...env } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const found = /at (http:\/\/[^ ]+?)\/ \(Ctrl\+C/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    child.once('exit', () => reject(new Error(`serve stopped before listening: ${stderr}`)));
  });
  return { child, exited, url };
}

test('the launcher forwards a stop signal: `serve` ends and its port closes', { timeout: 20_000 }, async () => {
  const { child, exited, url } = await startServe(process.execPath, [BIN]);
  assert.equal((await fetch(`${url}/`)).status, 200);
  child.kill('SIGTERM');
  await exited;
  await assert.rejects(fetch(`${url}/`), 'nothing listens once the launcher is stopped');
});

test('run as a program, the launcher is one process with MALLOC_ARENA_MAX set (2, or the value already set)', { timeout: 60_000, skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const environment = async (pid: number) => (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
  for (const [env, expected] of [[{ MALLOC_ARENA_MAX: undefined }, '2'], [{ MALLOC_ARENA_MAX: '4' }, '4']] as const) {
    const { child, exited, url } = await startServe(BIN, [], env);
    try {
      assert.equal((await fetch(`${url}/`)).status, 200);
      // The program's own process serves (the shell line exec'd Node), with no second Node under it.
      assert.ok((await environment(child.pid!)).includes(`MALLOC_ARENA_MAX=${expected}`));
      assert.match(await readFile(`/proc/${child.pid}/cmdline`, 'utf8'), /node\0.*ir-site\.js\0serve\0/);
      assert.equal((await readFile(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')).trim(), '');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }
});

test('the output does not depend on the machine\'s language (LANG), and the sitemap percent-encodes its URLs', async () => {
  const root = await writableFixture('minimal', 'machine-language');
  try {
    // Danish collation puts "aa" after "z" and capitals first: an order that follows LANG shows it.
    for (const slug of ['aa-first', 'b-second', 'zz-third']) {
      await mkdir(path.join(root, 'content/articles', slug), { recursive: true });
      await writeFile(path.join(root, 'content/articles', slug, 'en.md'), `---\ntitle: ${slug}\nslug: ${slug}\ndate: 2025-02-01\ntype: insight\n---\nBody.\n`);
    }
    await mkdir(path.join(root, 'content/pages/ete'), { recursive: true });
    await writeFile(path.join(root, 'content/pages/ete/fr.md'), "---\ntitle: Été\npath: /été-d'or/\n---\nCorps.\n");
    const outputs: Map<string, string>[] = [];
    for (const lang of ['C.UTF-8', 'da_DK.UTF-8']) {
      const out = path.join(root, `out-${lang}`);
      const r = spawnSync(process.execPath, [BIN, 'build', '--root', root, '--out', out, '--quiet', '--no-cache'], { encoding: 'utf8', env: { ...process.env, LANG: lang, LC_ALL: lang } });
      assert.equal(r.status, 0, r.stderr);
      const files = new Map<string, string>();
      for (const file of await readdir(out, { recursive: true, withFileTypes: true })) {
        if (file.isFile()) files.set(path.relative(out, path.join(file.parentPath, file.name)), (await readFile(path.join(file.parentPath, file.name))).toString('base64'));
      }
      outputs.push(files);
    }
    assert.deepEqual([...outputs[1]!.keys()].sort(), [...outputs[0]!.keys()].sort());
    for (const [file, bytes] of outputs[0]!) assert.ok(outputs[1]!.get(file) === bytes, `${file} differs between LANG=C and LANG=da_DK`);
    const sitemap = Buffer.from(outputs[0]!.get('sitemap.xml')!, 'base64').toString('utf8');
    assert.match(sitemap, /<loc>https:\/\/beta\.example\/fr\/%C3%A9t%C3%A9-d&#39;or\/<\/loc>/);
    const order = [...sitemap.matchAll(/<loc>https:\/\/beta\.example\/article\/([^/]+)\/<\/loc>/g)].map((m) => m[1]);
    assert.deepEqual(order.filter((s) => ['aa-first', 'b-second', 'zz-third'].includes(s!)), ['aa-first', 'b-second', 'zz-third'], 'code-unit order');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a site reached through a link (macOS /tmp, a linked project folder) builds as at its real path: working script addresses, the same files', async () => {
  const root = await writableFixture('minimal', 'reached-through-a-link');
  const links = await mkdtemp(path.join(tmpdir(), 'ir-link-'));
  try {
    const link = path.join(links, 'a', 'b', 'c', 'site');
    await mkdir(path.dirname(link), { recursive: true });
    await symlink(root, link);
    const direct = (await buildToMemory(root, { cache: false })).out;
    const linked = (await buildToMemory(link, { cache: false })).out;
    const scripts = [...linked.text('index.html').matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(scripts.length > 0 && scripts.every((src) => /^\/static\/[^.][^/]*\.js$/.test(src) || /^\/static\/chunks\//.test(src)), `script addresses: ${scripts.join(' ')}`);
    assert.deepEqual([...linked.files.keys()].sort(), [...direct.files.keys()].sort(), 'the same files, under the same names');
    // check names files as in the site, not by a way out of the link and back.
    await writeFile(path.join(root, 'content/articles/press-one/en.md'), `${await readFile(path.join(root, 'content/articles/press-one/en.md'), 'utf8')}\n[nowhere](/no-such-page/)\n`);
    const checked = await check({ root: link });
    assert.ok(checked.diagnostics.some((d) => d.file === 'content/articles/press-one/en.md'), JSON.stringify(checked.diagnostics.map((d) => d.file)));
    assert.ok(checked.diagnostics.every((d) => !d.file.startsWith('..')), JSON.stringify(checked.diagnostics.map((d) => d.file)));
  } finally {
    await rm(links, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  }
});

test('a published file has the mode every written file has, not its source\'s (an executable PDF is not published executable)', async () => {
  const root = await writableFixture('minimal', 'published-modes');
  try {
    const pdf = path.join(root, 'content/articles/commentary-q2-2025/report.pdf');
    await chmod(pdf, 0o755);
    const out = path.join(root, 'out');
    const r = spawnSync(process.execPath, [BIN, 'build', '--root', root, '--out', out, '--quiet', '--no-cache'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const mode = async (rel: string) => (await stat(path.join(out, rel))).mode & 0o777;
    assert.equal(await mode('article/commentary-Q2-2025/report.pdf'), await mode('article/commentary-Q2-2025/index.html'));
    assert.equal((await mode('article/commentary-Q2-2025/report.pdf')) & 0o111, 0, 'not executable');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a stylesheet checked out with CRLF line ends and a BOM (Windows, git autocrlf) publishes the same file as with LF', async () => {
  const root = await writableFixture('minimal', 'crlf-stylesheet', { ownTemplates: true });
  try {
    const sheet = (out: Map<string, Buffer>) => [...out.entries()].find(([name]) => /^static\/styles\.[0-9a-f]+\.css$/.test(name))!;
    const lf = sheet((await buildToMemory(root, { cache: false })).out.files);
    const file = path.join(root, 'templates/styles.css');
    await writeFile(file, `\uFEFF${(await readFile(file, 'utf8')).replace(/\n/g, '\r\n')}`);
    const crlf = sheet((await buildToMemory(root, { cache: false })).out.files);
    assert.equal(crlf[0], lf[0]);
    assert.ok(crlf[1].equals(lf[1]));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('file and folder names a Mac writes decomposed (é as e + U+0301) are found by names typed composed, and published composed', async () => {
  const root = await writableFixture('minimal', 'decomposed-names');
  try {
    const nfd = (s: string) => s.normalize('NFD');
    const article = path.join(root, 'content/articles', nfd('note-été'));
    await mkdir(article, { recursive: true });
    await writeFile(path.join(article, nfd('rapport-été.pdf')), '%PDF-1.4\n');
    await writeFile(path.join(article, nfd('graphique-é.png')), await readFile(path.join(root, 'content/articles/press-one/chart.png')));
    await writeFile(
      path.join(article, 'en.md'),
      '---\ntitle: Summer note\nslug: summer-note\ndate: 2025-02-01\ntype: insight\ndocuments:\n  - { label: Report, file: rapport-été.pdf }\ncover: { file: graphique-é.png, alt: A chart }\n---\nBody.\n\n![Chart](graphique-é.png)\n',
    );
    // A page folder decomposed too: its key is in its address.
    await mkdir(path.join(root, 'content/pages', nfd('été')), { recursive: true });
    await writeFile(path.join(root, 'content/pages', nfd('été'), 'en.md'), '---\ntitle: Summer\ntranslation: none\n---\nText.\n');
    const { out } = await buildToMemory(root, { cache: false });
    const html = out.text('article/summer-note/index.html');
    assert.ok(out.files.has('article/summer-note/rapport-été.pdf'), 'published under its composed name');
    // The link is to the composed name, percent-encoded as one part of the address (é is %C3%A9; decomposed, e%CC%81).
    assert.match(html, /href="\/article\/summer-note\/rapport-%C3%A9t%C3%A9\.pdf"/);
    assert.equal([...html.matchAll(/<img class="ir-image__main" src="\/static\/images\/graphique-+\d+\.[0-9a-f]+\.png"/g)].length, 2, 'the cover and the body image are both processed');
    assert.ok(out.files.has('été/index.html'), 'the page folder\'s key, composed, is its address');
    assert.ok(![...out.files.keys()].some((f) => f !== f.normalize('NFC')), 'no published name is decomposed');

    // The same name twice, composed and decomposed, or in two cases: one of them would be lost.
    await writeFile(path.join(article, 'rapport-été.pdf'), '%PDF-1.4 other\n');
    await writeFile(path.join(article, 'Graphique-é.png'), await readFile(path.join(root, 'content/articles/press-one/chart.png')));
    const conflicts = (await buildFailure(root, { cache: false })).filter((d) => d.rule === 'content/name-conflict');
    assert.equal(conflicts.length, 2, JSON.stringify(conflicts));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
