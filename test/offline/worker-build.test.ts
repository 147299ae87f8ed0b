// The build side of the offline worker (src/features/offline/index.ts): what is precached, the
// deploy id, and the sw.js a build writes (memory sink: the same code path as disk).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MemorySink } from '../../src/build/emit/sink.js';
import { isPrecached, offlinePagesOf, OfflineSink, WORKER_FILE } from '../../src/features/offline/index.js';
import { diskMemo, memoKind, memoryMemo, type Memo } from '../../src/incremental/memo.js';
import { buildToMemory, fixture } from '../helpers.js';

interface Entry {
  url: string;
  revision: string | null;
}

/** The manifest workbox-build injected in place of `self.__WB_MANIFEST`. */
function manifestOf(sw: string): Entry[] {
  const match = /\[\{"revision":[\s\S]*?\}\]/.exec(sw);
  assert.ok(match, 'sw.js holds a precache manifest');
  return JSON.parse(match[0]) as Entry[];
}

test('precached: hashed JS and CSS, the offline pages, the manifests; never page data, other pages or sw.js', () => {
  for (const rel of [
    'static/runtime.6IADZB22.js',
    'static/chunks/article.VWL4OWWY.js',
    'static/chunks/chunk.A6QMV2FX.js',
    'static/styles.390ccf7bad.css',
    'offline.html',
    'fr/offline.html',
    'manifest_en.webmanifest',
    'manifest_fr.webmanifest',
  ]) {
    assert.equal(isPrecached(rel), true, rel);
  }
  for (const rel of [
    'sw.js',
    'index.html',
    'fr/index.html',
    'page-data/app-data.json',
    'page-data/index/page-data.json',
    'page-data/404.html/page-data.json',
    'page-data/sq/d/1394488084.json',
    'static/images/abc/portrait.webp',
    'article/x/report.pdf',
    '404.html',
    'fr/404.html',
    'cn/404.html',
    'a/b/offline.html',
    'page-data/offline.html/page-data.json',
    'redirects.json',
    'favicon.svg',
    'static/chunks/search-client.DCOTVALZ.js',
  ]) {
    assert.equal(isPrecached(rel), false, rel);
  }
});

test('offline pages by prefix, longest first', () => {
  assert.deepEqual(offlinePagesOf(['static/runtime.X.js', 'offline.html', '404.html', 'fr/offline.html', 'de-ch/offline.html']), [
    { prefix: '/de-ch/', page: '/de-ch/offline.html' },
    { prefix: '/fr/', page: '/fr/offline.html' },
    { prefix: '/', page: '/offline.html' },
  ]);
});

test('the deploy id covers every file written, whatever the order, and changes with any of them', async () => {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ir-offline-'));
  try {
    const pdf = path.join(tmp, 'report.pdf');
    await writeFile(pdf, 'pdf v1');
    const write = async (files: Array<[string, string]>, copySize = 'pdf v1') => {
      await writeFile(pdf, copySize);
      const sink = new OfflineSink(new MemorySink());
      for (const [rel, text] of files) await sink.write(rel, text);
      await sink.copy(pdf, 'article/x/report.pdf');
      return sink.deployId();
    };
    const a: Array<[string, string]> = [
      ['index.html', '<h1>Home</h1>'],
      ['page-data/index/page-data.json', '{"path":"/"}'],
    ];
    const first = await write(a);
    assert.match(first, /^[0-9a-f]{20}$/);
    assert.equal(await write([...a].reverse()), first, 'order does not matter');
    assert.notEqual(await write([a[0]!, ['page-data/index/page-data.json', '{"path":"/","x":1}']]), first, 'a page-data change');
    assert.notEqual(await write([...a, ['new/index.html', 'x']]), first, 'a new file');
    assert.notEqual(await write(a, 'pdf v2 longer'), first, 'a copied file of another size');
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
});

test('app-data.json is held back and written with the deploy id, which it is not part of', async () => {
  const write = async (hash: string) => {
    const inner = new MemorySink();
    const sink = new OfflineSink(inner);
    await sink.write('page-data/app-data.json', JSON.stringify({ webpackCompilationHash: hash }));
    await sink.write('index.html', '<h1>Home</h1>');
    assert.equal(inner.files.has('page-data/app-data.json'), false, 'not written before the worker');
    await sink.writeWorker();
    return { id: sink.deployId(), appData: JSON.parse(inner.text('page-data/app-data.json')) as unknown, sw: inner.text(WORKER_FILE) };
  };
  const one = await write('aaaa');
  assert.deepEqual(one.appData, { webpackCompilationHash: 'aaaa', deploy: one.id });
  assert.match(one.sw, new RegExp(`^// ir-site offline worker, deploy ${one.id}\\.`), 'the worker carries the same id');
  assert.equal((await write('bbbb')).id, one.id, 'app-data.json itself does not count');

  const broken = new OfflineSink(new MemorySink());
  await assert.rejects(() => broken.write('page-data/app-data.json', '[1]'), /page-data\/app-data\.json must be a JSON object/);
});

test('a worker kept from an earlier deploy, with the new deploy id put in, is byte for byte the worker a build without a cache writes', async () => {
  const cache = await mkdtemp(path.join(os.tmpdir(), 'ir-offline-cache-'));
  after(() => rm(cache, { recursive: true, force: true }));
  for (const memo of [memoryMemo('tool'), diskMemo(cache, 'tool')]) {
    const deploy = async (page: string, kept: Memo | null = memo) => {
      const inner = new MemorySink();
      const sink = new OfflineSink(inner);
      await sink.write('offline.html', '<h1>You are offline</h1>');
      await sink.write('fr/offline.html', '<h1>Vous êtes hors ligne</h1>');
      await sink.write('static/runtime.ABCDEFGH.js', 'console.log(1)');
      await sink.write('index.html', page);
      await sink.writeWorker(kept);
      return { sw: inner.text(WORKER_FILE), id: sink.deployId(), sink };
    };
    const first = await deploy('<h1>One</h1>');
    const opened = await memo.open(memoKind('offline-worker', (v): v is string => typeof v === 'string'));
    assert.ok(opened, 'the worker is kept');
    const second = await deploy('<h1>Two</h1>'); // same precached files: the kept worker
    assert.notEqual(second.id, first.id);
    assert.ok(second.sw.includes(second.id) && !second.sw.includes(first.id));
    assert.match(second.sw, new RegExp(`^// ir-site offline worker, deploy ${second.id}\\.`));
    const uncached = await deploy('<h1>Two</h1>', null);
    assert.equal(uncached.id, second.id);
    assert.equal(second.sw, uncached.sw);
  }
});

test('OfflineSink passes every file through to the sink it wraps', async () => {
  const inner = new MemorySink();
  const sink = new OfflineSink(inner);
  await sink.write('a/index.html', 'A');
  await sink.write('static/runtime.ABCDEFGH.js', 'js');
  assert.equal(inner.text('a/index.html'), 'A');
  assert.equal(inner.text('static/runtime.ABCDEFGH.js'), 'js');
});

describe('sw.js of the minimal fixture', () => {
  let out: MemorySink;
  let sw: string;
  let manifest: Entry[];

  before(async () => {
    ({ out } = await buildToMemory(fixture('minimal')));
    sw = out.text(WORKER_FILE);
    manifest = manifestOf(sw);
  });

  test('a build writes sw.js with the manifest injected and its settings compiled in', () => {
    assert.ok(!sw.includes('self.__WB_MANIFEST'), 'the injection point is replaced');
    assert.ok(!sw.includes('process.env.NODE_ENV'), 'production Workbox, no development logging');
    assert.match(sw, /^\/\/ ir-site offline worker, deploy [0-9a-f]{20}\./);
    for (const name of ['ir-site-static', 'ir-site-page-data', 'ir-site-assets', 'ir-site-pages']) assert.ok(sw.includes(name), name);
    assert.ok(sw.includes('"/fr/offline.html"'), 'the French offline page is configured');
    assert.ok(sw.length < 60_000, `sw.js is small (${sw.length} bytes)`);
  });

  test('the manifest: runtime, every chunk, the stylesheet, the offline pages and the manifests', () => {
    const urls = manifest.map((e) => e.url).sort();
    const expected = [...out.files.keys()].filter(isPrecached).map((rel) => `/${rel}`).sort();
    assert.deepEqual(urls, expected);
    const index = out.text('index.html');
    const runtime = /<script type="module" src="([^"]+)"/.exec(index)?.[1];
    assert.ok(runtime && urls.includes(runtime), 'the runtime the pages load');
    const chunks = JSON.parse(/<script type="application\/json" id="__IR_CHUNKS__">([^<]+)<\/script>/.exec(index)![1]!) as Record<string, string>;
    for (const url of Object.values(chunks)) assert.ok(urls.includes(url), `template chunk ${url}`);
    for (const url of ['/offline.html', '/fr/offline.html', '/manifest_en.webmanifest', '/manifest_fr.webmanifest']) assert.ok(urls.includes(url), url);
    assert.ok(!urls.some((u) => u.endsWith('/404.html')), 'no not-found page: offline, a page is not known to be missing');
    assert.ok(urls.some((u) => /^\/static\/styles\.[0-9a-f]+\.css$/.test(u)), 'the stylesheet');
    assert.ok(!urls.some((u) => u.startsWith('/page-data/') || u === '/sw.js' || u.endsWith('/index.html')), urls.join(' '));
  });

  test('hashed files carry no revision; the others an md5 of their contents', () => {
    for (const entry of manifest) {
      const rel = entry.url.slice(1);
      if (rel.startsWith('static/')) assert.equal(entry.revision, null, entry.url);
      else assert.equal(entry.revision, createHash('md5').update(out.files.get(rel)!).digest('hex'), entry.url);
    }
  });

  test('one offline page per language, built through the templates: its language, never indexed, not in the sitemap', () => {
    for (const [rel, lang, title, text] of [
      ['offline.html', 'en-CA', 'You are offline', 'This page has not been saved on this device yet.'],
      ['fr/offline.html', 'fr-CA', 'Vous êtes hors ligne', 'Cette page n’est pas encore enregistrée sur cet appareil.'],
    ] as const) {
      const html = out.text(rel);
      assert.match(html, new RegExp(`<html lang="${lang}"`), rel);
      assert.match(html, new RegExp(`<h1>${title}</h1>`), rel);
      assert.ok(html.includes(text), rel);
      assert.match(html, /<meta name="robots" content="noindex"/, rel);
      // The runtime boots on it (the shell): its record and chunk map are inlined like any page's.
      assert.ok(html.includes('id="__IR_PAGE_DATA__"') && html.includes('id="__IR_CHUNKS__"'), rel);
      const record = JSON.parse(out.text(`page-data/${rel}/page-data.json`)) as { path: string };
      assert.equal(record.path, `/${rel}`);
    }
    assert.ok(!out.text('sitemap.xml').includes('offline.html'));
    assert.equal(out.files.has('cn/offline.html'), false, 'a legacy prefix is not a language');
  });

  test('app-data.json carries the deploy id of sw.js', () => {
    const appData = JSON.parse(out.text('page-data/app-data.json')) as { webpackCompilationHash: string; deploy: string };
    assert.match(appData.webpackCompilationHash, /^[0-9a-f]{20}$/);
    assert.match(sw, new RegExp(`^// ir-site offline worker, deploy ${appData.deploy}\\.`));
  });

  test('the same site builds the same sw.js', async () => {
    const again = await buildToMemory(fixture('minimal'));
    assert.equal(again.out.text(WORKER_FILE), sw);
  });
});
