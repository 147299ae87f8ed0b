// `ir-site dev` on a writable copy of the minimal fixture: edit a file, see the new HTML
// served and a reload event sent; a broken edit keeps the last good page and reports.
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, rm, symlink, writeFile, unlink } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { build } from '../../src/build/index.js';
import { MemorySink } from '../../src/build/emit/sink.js';
import { dev, type RunningDev } from '../../src/commands/server/dev.js';
import { ListenError } from '../../src/commands/server/listen.js';
import { SEARCH_REFRESH_MS, type ChangeReport } from '../../src/commands/server/dev-site.js';
import { SearchIndex } from '../../src/features/search/engine.js';
import { copyFixture, REPO } from '../helpers.js';
import { rawRequest } from './raw-http.js';

// Same depth as test/fixtures/<name>, so the fixture's relative template paths still hold.
const root = path.join(REPO, 'test', '.tmp', `dev-${process.pid}`);
let running: RunningDev;
const events: { event: string; data: any }[] = [];
const reports: ChangeReport[] = [];
let stream: http.ClientRequest;

async function text(pathname: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${running.url}${pathname}`, { redirect: 'manual' });
  return { status: res.status, body: await res.text() };
}

/** Waits for the next event of a kind (and matching `accept`) that arrives after `since` events. */
async function nextEvent(kind: string, since: number, accept: (data: any) => boolean = () => true, timeoutMs = 5000): Promise<any> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const found = events.slice(since).find((e) => e.event === kind && accept(e.data));
    if (found) return found.data;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no ${kind} event within ${timeoutMs} ms; got ${JSON.stringify(events.slice(since))}`);
}

before(async () => {
  await rm(root, { recursive: true, force: true });
  await mkdir(path.dirname(root), { recursive: true });
  await copyFixture('minimal', root);
  running = await dev({
    root,
    port: 0,
    onReport: (r) => {
      reports.push(r);
      if (process.env.DEV_TEST_DEBUG) console.error('REPORT', r.kind, r.ok, JSON.stringify(r.changedPaths), r.diagnostics.map((d) => d.message).join('|'));
    },
  });
  await running.ready;
  await new Promise<void>((resolve) => {
    stream = http.get(`${running.url}/__ir-site/events`, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (event) events.push({ event, data: data ? JSON.parse(data) : null });
        }
      });
      resolve();
    });
  });
});

after(async () => {
  stream?.destroy();
  await running?.close();
  await rm(root, { recursive: true, force: true });
});

const article = () => path.join(root, 'content/articles/commentary-q2-2025/en.md');

/** A language's search index files as dev holds them: path and bytes (a file written again has new bytes, even if equal). */
const indexFiles = (locale: string) => [...running.site.sink.files].filter(([rel]) => rel.startsWith(`search-index/${locale}`));
const sameFiles = (a: [string, Buffer][], b: [string, Buffer][]) => a.length > 0 && a.length === b.length && a.every(([rel, bytes], i) => b[i]![0] === rel && b[i]![1] === bytes);

/**
 * The graph dev holds now, and a check that an edit made another one and left this one as it
 * was: routes and the summaries lists share are never changed in place.
 */
function graphBeforeEdit() {
  const graph = running.site.compiled!.graph;
  const copy = structuredClone(graph);
  return () => {
    assert.notEqual(running.site.compiled!.graph, graph, 'the edit gave dev a new graph');
    assert.deepEqual(graph, copy, 'the graph before the edit is as it was');
  };
}

test('pages are served from memory with the live-reload client', async () => {
  const page = await text('/article/commentary-Q2-2025/');
  assert.equal(page.status, 200);
  assert.match(page.body, /<script src="\/__ir-site\/dev-client.js" defer><\/script>\n<\/body>/);
  const client = await text('/__ir-site/dev-client.js');
  assert.match(client.body, /EventSource/);
  assert.equal((await text('/cn/insights/')).status, 302);
  assert.equal((await text('/fr/nope/')).status, 404);
});

/** A GET or HEAD with exactly these headers: node:http neither asks for a coding nor decodes one. */
function exact(pathname: string, headers: Record<string, string>, method = 'GET'): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${running.url}${pathname}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('pages go out compressed on the fly (dev writes no copies), the live-reload client in; HEAD gives the same length', async () => {
  const plain = await exact('/article/commentary-Q2-2025/', {});
  assert.equal(plain.headers['content-encoding'], undefined);
  for (const [accept, decode] of [['gzip, deflate, br', zlib.brotliDecompressSync], ['gzip', zlib.gunzipSync]] as const) {
    const page = await exact('/article/commentary-Q2-2025/', { 'Accept-Encoding': accept });
    assert.equal(page.headers['content-encoding'], accept === 'gzip' ? 'gzip' : 'br');
    assert.match(String(page.headers.vary), /Accept-Encoding/);
    assert.equal(Number(page.headers['content-length']), page.body.length);
    assert.ok(page.body.length < plain.body.length);
    assert.ok(decode(page.body).equals(plain.body), 'decodes to the page as served, live-reload client included');
    assert.match(decode(page.body).toString(), /__ir-site\/dev-client\.js/);
    const head = await exact('/article/commentary-Q2-2025/', { 'Accept-Encoding': accept }, 'HEAD');
    assert.equal(head.headers['content-length'], page.headers['content-length']);
    assert.equal(head.headers['content-encoding'], page.headers['content-encoding']);
  }
});

test('a port in use: dev stops at once with an error that names the port and suggests --port, builds nothing, and leaves nothing running', async () => {
  const port = Number(new URL(running.url).port);
  const reports: ChangeReport[] = [];
  await assert.rejects(dev({ root, port, onReport: (report) => reports.push(report) }), (error: Error) => {
    assert.ok(error instanceof ListenError, String(error));
    assert.match(error.message, new RegExp(`port ${port} is already in use`));
    assert.match(error.message, /--port/);
    return true;
  });
  assert.deepEqual(reports, [], 'no build before the port was known to be free');
});

test('the port is taken before the first build: a request made during that build waits for it and gets the page', async () => {
  const other = `${root}-early`;
  await rm(other, { recursive: true, force: true });
  await copyFixture('minimal', other);
  const probe = http.createServer();
  const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)));
  await new Promise((resolve) => probe.close(resolve));
  const early: ChangeReport[] = [];
  const starting = dev({ root: other, port, onReport: (r) => early.push(r) });
  try {
    let sentDuringBuild = false;
    const home = await (async () => {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 5))) {
        sentDuringBuild = early.length === 0;
        const answer = await fetch(`http://127.0.0.1:${port}/`).catch(() => null);
        if (answer) return answer;
      }
      return assert.fail('dev never answered');
    })();
    assert.ok(sentDuringBuild, 'the request was sent before the first build ended');
    assert.equal(home.status, 200);
    assert.match(await home.text(), /<h1[^>]*>/);
  } finally {
    await (await starting).close();
    await rm(other, { recursive: true, force: true });
  }
});

/** The paths the search index dev serves finds for `query`, in `locale`. */
function liveSearch(locale: string, query: string): string[] {
  const sink = running.site.sink;
  const prefix = `search-index/${locale}/`;
  const files = new Map([...sink.files.keys()].filter((f) => f.startsWith(prefix)).map((f) => [f.slice(prefix.length), sink.text(f)]));
  const index = SearchIndex.fromFiles({ base: JSON.parse(sink.text(`search-index/${locale}.json`)), files });
  return index.search(query).hits.map((h) => h.path);
}

test('a body edit: the new HTML is served and a reload names the page; the search index catches up just after', async () => {
  const since = events.length;
  assert.deepEqual(liveSearch('en', 'freshly'), []);
  const french = indexFiles('fr');
  const untouched = graphBeforeEdit();
  await writeFile(article(), `${await readFile(article(), 'utf8')}\nA freshly edited paragraph.\n`);
  const reload = await nextEvent('reload', since);
  assert.deepEqual(reload.paths, ['/article/commentary-Q2-2025/']);
  untouched();
  assert.match((await text('/article/commentary-Q2-2025/')).body, /A freshly edited paragraph\./);
  // Off the edit's path: SEARCH_REFRESH_MS after the last edit that kept the graph.
  const deadline = Date.now() + SEARCH_REFRESH_MS + 3000;
  while (!liveSearch('en', 'freshly').includes('/article/commentary-Q2-2025/')) {
    assert.ok(Date.now() < deadline, 'the search index finds the new word');
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(sameFiles(indexFiles('fr'), french), 'the French index, whose pages did not change, was not written again');
});

test('a title edit also rewrites the lists that show the article', async () => {
  const since = events.length;
  const source = await readFile(article(), 'utf8');
  const untouched = graphBeforeEdit();
  await writeFile(article(), source.replace('title: Commentary Q2 2025', 'title: Second quarter, revised'));
  const reload = await nextEvent('reload', since, (d) => d.paths.includes('/insights/'));
  untouched();
  for (const p of ['/article/commentary-Q2-2025/', '/insights/', '/your-team/jdoe/', '/']) assert.ok(reload.paths.includes(p), p);
  assert.ok(!reload.paths.includes('/fr/insights/'), 'the French lists did not change');
  assert.match((await text('/insights/')).body, /Second quarter, revised/);
});

test('a content error: reported, overlay event, the last good page still served; fixed, the overlay goes', async () => {
  const good = await readFile(article(), 'utf8');
  let since = events.length;
  await writeFile(article(), good.replace(/^date: .*$/m, 'date: 2025-02-30'));
  // The file may be seen half-written first (another error): wait for the one the edit makes.
  const error = await nextEvent('build-error', since, (e) => /calendar date/.test(e.message));
  assert.match(error.message, /content\/articles\/commentary-q2-2025\/en\.md:\d+ {2}error {2}expected a calendar date YYYY-MM-DD \(2025-02 has 28 days\)/);
  assert.equal(running.site.errors.length, 1);
  const page = await text('/article/commentary-Q2-2025/');
  assert.equal(page.status, 200);
  assert.match(page.body, /Second quarter, revised/);

  since = events.length;
  await writeFile(article(), good);
  // Back to the last good content: build-ok hides the overlay; no page changed, so no reload.
  await nextEvent('build-ok', since);
  assert.equal(running.site.errors.length, 0);
});

test('a loop of symbolic links made in the content: reported, dev keeps serving; the links removed, the error goes', async () => {
  const dir = path.dirname(article());
  let since = events.length;
  await symlink('loop-b.pdf', path.join(dir, 'loop-a.pdf'));
  await symlink('loop-a.pdf', path.join(dir, 'loop-b.pdf'));
  const error = await nextEvent('build-error', since, (e) => /loop-b\.pdf/.test(e.message));
  assert.match(error.message, /loop-a\.pdf {2}error {2}this symbolic link leads to no file: it leads round a loop of links/);
  assert.equal((await text('/article/commentary-Q2-2025/')).status, 200);
  since = events.length;
  await Promise.all(['loop-a.pdf', 'loop-b.pdf'].map((name) => rm(path.join(dir, name))));
  await nextEvent('build-ok', since);
  assert.equal(running.site.errors.length, 0);
});

test('a broken link written in a body: the page is rebuilt and the warnings panel names it; fixed, the panel goes', async () => {
  const good = await readFile(article(), 'utf8');
  let since = events.length;
  await writeFile(article(), `${good}\nSee [the insights](/insigths/).\n`);
  const ok = await nextEvent('build-ok', since, (d) => d.warnings > 0);
  assert.ok(ok.warnings >= 1);
  const shown = await nextEvent('build-warnings', since);
  assert.match(shown.message, /content\/articles\/commentary-q2-2025\/en\.md:\d+:\d+ {2}warning {2}the link to \/insigths\/ leads nowhere/);
  assert.equal(running.site.errors.length, 0);
  since = events.length;
  await writeFile(article(), good);
  // The watcher may report the broken write twice: wait for the report of the fixed file.
  const clean = await nextEvent('build-ok', since, (d) => d.warnings === 0);
  assert.equal(clean.warnings, 0);
});

test('drafts show in dev; a new entry appears, a removed one goes', async () => {
  const since = events.length;
  const dir = path.join(root, 'content/articles/draft-note');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'en.md'), '---\ntitle: Draft note\nslug: draft-note\ndate: 2025-08-01\ntype: news\ndraft: true\n---\nNot yet public.\n');
  const added = await nextEvent('reload', since, (d) => d.paths.includes('/article/draft-note/'));
  assert.ok(added.paths.includes('/article/draft-note/'));
  assert.match((await text('/article/draft-note/')).body, /Not yet public\./);

  const again = events.length;
  await unlink(path.join(dir, 'en.md'));
  const removed = await nextEvent('reload', again, (d) => d.paths.includes('/article/draft-note/'));
  assert.ok(removed.paths.includes('/article/draft-note/'));
  assert.equal((await text('/article/draft-note/')).status, 404);
});

test('a locale string change rewrites every page of that language', async () => {
  const since = events.length;
  const [english, french] = [indexFiles('en'), indexFiles('fr')];
  const file = path.join(root, 'content/pages/insights/fr.md');
  await writeFile(file, (await readFile(file, 'utf8')).replace('Perspectives', 'Analyses'));
  const reload = await nextEvent('reload', since, (d) => d.paths.includes('/fr/insights/'));
  assert.ok(sameFiles(indexFiles('en'), english), 'the English search index is not written again');
  assert.ok(!sameFiles(indexFiles('fr'), french), 'the French one is');
  assert.match((await text('/fr/contact-us/')).body, /Analyses/, 'the navigation of other French pages shows the new title');
  assert.ok(Array.isArray(reload.paths) && reload.paths.includes('/fr/contact-us/'), 'every French page is rewritten');
  assert.deepEqual(reload.paths.filter((p: string) => !p.startsWith('/fr/')), [], 'and no English one');
});

test('after all these edits, the incremental output (pages and search index) equals a fresh build of the same files', async () => {
  // One more save: a new title and a new paragraph at once. The frame key is the last graph's,
  // so the graph is the last one with the headline put in, and the article's body read anew.
  const since = events.length;
  const file = path.join(root, 'content/articles/press-one/en.md');
  await writeFile(file, `${(await readFile(file, 'utf8')).replace('title: Press one', 'title: Press one, corrected')}\nA paragraph saved with the title.\n`);
  await nextEvent('reload', since, (d) => d.paths.includes('/article/press-one/') && d.paths.includes('/bobs-corner/'));
  assert.equal(reports.at(-1)!.kind, 'headline', 'no validate and graph run');
  assert.match((await text('/article/press-one/')).body, /A paragraph saved with the title\./);

  await running.site.settled();
  const fresh = new MemorySink();
  await build({ root, sink: fresh, drafts: true, reporter: {} });
  const live = running.site.sink;
  const pages = [...fresh.files.keys()].filter((f) => f.endsWith('.html') || f.endsWith('page-data.json') || f.startsWith('search-index/'));
  assert.deepEqual(pages.filter((f) => !live.files.has(f)), [], 'every page of a fresh build is served');
  const differ = pages.filter((f) => !live.files.get(f)!.equals(fresh.files.get(f)!));
  assert.deepEqual(differ, [], 'no page or search index file differs from a fresh build');
  const index = (sink: MemorySink) => [...sink.files.keys()].filter((f) => f.startsWith('search-index/')).sort();
  assert.deepEqual(index(live), index(fresh), 'no search index file of an earlier edit is left');
});

test('dev answers the /search/* match path with the search page, and any /cn/ path with one redirect (issue 20 points 2 and 4)', async () => {
  const search = await text('/search/');
  const other = await text('/search/no-such-section/');
  assert.equal(other.status, 200);
  assert.equal(other.body, search.body);
  assert.equal((await text('/fr/search/inconnue/')).body, (await text('/fr/search/')).body);
  const legacy = await rawRequest(running.url, '/CN/fr/contact-us/?a=1', 'GET');
  assert.equal(legacy.status, 302);
  assert.equal(legacy.headers.location, '/fr/contact-us/?a=1');
  const untranslated = await rawRequest(running.url, '/fr/article/english-only/', 'GET');
  assert.equal(untranslated.status, 302);
  assert.equal(untranslated.headers.location, '/article/english-only/');
});

test('other methods on dev\'s own paths get 405 with Allow too; HEAD gets the headers alone', async () => {
  for (const target of ['/__ir-site/events', '/__ir-site/dev-client.js', '/']) {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const res = await rawRequest(running.url, target, method);
      assert.equal(res.status, 405, `${method} ${target}`);
      assert.equal(res.headers.allow, 'GET, HEAD', `${method} ${target}`);
    }
  }
  const head = await rawRequest(running.url, '/__ir-site/dev-client.js', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
  assert.ok(Number(head.headers['content-length']) > 0);
  const events = await rawRequest(running.url, '/__ir-site/events', 'HEAD');
  assert.equal(events.status, 200);
  assert.match(events.headers['content-type'] ?? '', /^text\/event-stream/);
});

test('content/ deleted and made again: dev watches it again, and a later edit is served', async () => {
  const content = path.join(root, 'content');
  const saved = `${root}-content`;
  await rm(saved, { recursive: true, force: true });
  await cp(content, saved, { recursive: true });
  /** Bounded wait for a condition on the served page (a lost watcher never meets it). */
  const until = async (done: (body: string) => boolean, what: string) => {
    const deadline = Date.now() + 15_000;
    let body = (await text('/article/commentary-Q2-2025/')).body;
    while (!done(body) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      body = (await text('/article/commentary-Q2-2025/')).body;
    }
    assert.ok(done(body), what);
  };
  try {
    const since = events.length;
    await rm(content, { recursive: true, force: true });
    await nextEvent('build-error', since);
    await cp(saved, content, { recursive: true });
    await until(() => running.site.errors.length === 0, 'the site builds again once content/ is back');
    // Well past the re-check of the files the deletion touched (RECHECK_MS): only a watcher sees this.
    await new Promise((r) => setTimeout(r, 500));
    await writeFile(article(), `${await readFile(article(), 'utf8')}\nWritten after content/ came back.\n`);
    await until((body) => /Written after content\/ came back\./.test(body), 'the edit made after content/ came back is served');
    assert.deepEqual(running.site.errors.map((e) => e.message), []);
  } finally {
    await rm(saved, { recursive: true, force: true });
  }
});

test('a body image replaced by another file of the same name: the page shows the new image', async () => {
  const page = '/article/press-one/';
  const imageSources = (html: string) => [...html.matchAll(/\bsrc="([^"]*chart[^"]*)"/g)].map((m) => m[1]);
  const before = imageSources((await text(page)).body);
  assert.ok(before.length > 0, 'the page shows the chart');
  const since = events.length;
  const sharp = (await import('sharp')).default;
  // The same size and format as the old one: only its pixels differ.
  const replacement = await sharp({ create: { width: 1200, height: 600, channels: 4, background: { r: 200, g: 30, b: 60, alpha: 1 } } }).png().toBuffer();
  await writeFile(path.join(root, 'content/articles/press-one/chart.png'), replacement);
  await nextEvent('reload', since, (d) => d.paths === '*' || d.paths.includes(page));
  const after = imageSources((await text(page)).body);
  assert.notDeepEqual(after, before, 'the new image has new addresses');
  for (const src of after) assert.equal((await fetch(`${running.url}${src}`)).status, 200, `${src} is served`);
});

test('a paragraph written above a body image is a body edit: the graph is kept, the page rewritten', async () => {
  const file = path.join(root, 'content/articles/press-one/en.md');
  const source = await readFile(file, 'utf8');
  const since = events.length;
  const untouched = graphBeforeEdit();
  await writeFile(file, source.replace(/\n---\n/, '\n---\n\nA paragraph above the chart.\n'));
  const reload = await nextEvent('reload', since, (d) => d.paths.includes('/article/press-one/'));
  untouched();
  assert.equal(reports.at(-1)!.kind, 'body', 'the image moved down a line: the graph needs nothing new');
  assert.deepEqual(reload.paths, ['/article/press-one/', '/press-one/'], 'the article and its copy at the root');
  assert.match((await text('/article/press-one/')).body, /A paragraph above the chart\./);
});
