// The build side of the offline worker (src/offline/index.ts): what is precached, the
// deploy id, and the sw.js a build writes (memory sink: the same code path as disk).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { MemorySink } from '../../src/emit/sink.js';
import { isPrecached, notFoundPagesOf, OfflineSink, WORKER_FILE } from '../../src/offline/index.js';
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

test('precached: hashed JS and CSS, the not-found pages, the manifests; never page data, pages or sw.js', () => {
  for (const rel of [
    'static/runtime.6IADZB22.js',
    'static/chunks/article.VWL4OWWY.js',
    'static/chunks/chunk.A6QMV2FX.js',
    'static/styles.390ccf7bad.css',
    '404.html',
    'fr/404.html',
    'cn/404.html',
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
    'a/b/404.html',
    'redirects.json',
    'favicon.svg',
    'static/chunks/search-client.DCOTVALZ.js',
  ]) {
    assert.equal(isPrecached(rel), false, rel);
  }
});

test('not-found pages by prefix, longest first', () => {
  assert.deepEqual(notFoundPagesOf(['static/runtime.X.js', '404.html', 'fr/404.html', 'cn/404.html']), [
    { prefix: '/cn/', page: '/cn/404.html' },
    { prefix: '/fr/', page: '/fr/404.html' },
    { prefix: '/', page: '/404.html' },
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

test('a worker kept from an earlier deploy, with the new deploy id put in, is byte for byte the worker a build without a cache writes', async () => {
  const cache = await mkdtemp(path.join(os.tmpdir(), 'ir-offline-cache-'));
  try {
    const deploy = async (page: string, cacheDir: string | undefined = cache) => {
      const inner = new MemorySink();
      const sink = new OfflineSink(inner);
      await sink.write('404.html', '<h1>Not found</h1>');
      await sink.write('fr/404.html', '<h1>Page introuvable</h1>');
      await sink.write('static/runtime.ABCDEFGH.js', 'console.log(1)');
      await sink.write('index.html', page);
      await sink.writeWorker(cacheDir);
      return { sw: inner.text(WORKER_FILE), id: sink.deployId(), sink };
    };
    const first = await deploy('<h1>One</h1>');
    const second = await deploy('<h1>Two</h1>'); // same precached files: the kept worker
    assert.notEqual(second.id, first.id);
    assert.ok(second.sw.includes(second.id) && !second.sw.includes(first.id));
    assert.match(second.sw, new RegExp(`^// ir-site offline worker, deploy ${second.id}\\.`));
    const uncached = await deploy('<h1>Two</h1>', undefined);
    assert.equal(uncached.id, second.id);
    assert.equal(second.sw, uncached.sw);
  } finally {
    await rm(cache, { recursive: true, force: true });
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
    assert.ok(sw.includes('"/fr/404.html"') || sw.includes('/fr/404.html'), 'the French not-found page is configured');
    assert.ok(sw.length < 60_000, `sw.js is small (${sw.length} bytes)`);
  });

  test('the manifest: runtime, every chunk, the stylesheet, the not-found pages and the manifests', () => {
    const urls = manifest.map((e) => e.url).sort();
    const expected = [...out.files.keys()].filter(isPrecached).map((rel) => `/${rel}`).sort();
    assert.deepEqual(urls, expected);
    const index = out.text('index.html');
    const runtime = /<script type="module" src="([^"]+)"/.exec(index)?.[1];
    assert.ok(runtime && urls.includes(runtime), 'the runtime the pages load');
    const chunks = JSON.parse(/<script type="application\/json" id="__IR_CHUNKS__">([^<]+)<\/script>/.exec(index)![1]!) as Record<string, string>;
    for (const url of Object.values(chunks)) assert.ok(urls.includes(url), `template chunk ${url}`);
    for (const url of ['/404.html', '/fr/404.html', '/cn/404.html', '/manifest_en.webmanifest', '/manifest_fr.webmanifest']) assert.ok(urls.includes(url), url);
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

  test('the same site builds the same sw.js', async () => {
    const again = await buildToMemory(fixture('minimal'));
    assert.equal(again.out.text(WORKER_FILE), sw);
  });
});
