// The loader's rules for new deploys (src/client/loader.ts, docs/runtime.md "Loading a
// page"), run in Node with a fake fetch: records and static queries stay in memory for one
// deploy (`deploy` in app-data.json), are fetched again after a new one, are revalidated
// (`cache: 'no-cache'`), and a new build hash is announced before the loader says "stale".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Loader, type ChunkLoaders } from '../../src/client/loader.js';
import type { StaticQueryResult } from '../../src/shared/props.js';
import type { PageRecord } from '../../src/shared/types.js';

const CHUNK = 'component---templates-page-tsx';
const chunks: ChunkLoaders = { [CHUNK]: async () => ({ default: () => null }) };

function record(path: string, text: string): PageRecord {
  return {
    componentChunkName: CHUNK,
    path,
    result: { pageContext: { text } as never, data: undefined as never },
    staticQueryHashes: ['111'],
  } as unknown as PageRecord;
}

/** A server whose answers the test changes between calls; every request is recorded. */
class FakeServer {
  appData: { webpackCompilationHash: string; deploy?: string } | 'offline' = { webpackCompilationHash: 'h1', deploy: 'd1' };
  texts = new Map<string, string>([['/a/', 'A1']]);
  query = 'Q1';
  readonly requests: Array<{ url: string; cache: RequestCache | undefined }> = [];
  /** Resolves the next record request only when `release()` is called. */
  private hold: Promise<void> | null = null;
  release: () => void = () => undefined;

  holdRecords(): void {
    this.hold = new Promise((resolve) => (this.release = resolve));
  }

  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    this.requests.push({ url, cache: init?.cache });
    if (url === '/page-data/app-data.json') {
      if (this.appData === 'offline') throw new TypeError('Failed to fetch');
      return Response.json(this.appData);
    }
    if (url === '/page-data/sq/d/111.json') return Response.json({ data: { text: this.query } });
    const match = /^\/page-data\/(.+)\/page-data\.json$/.exec(url);
    const path = match ? `/${match[1]}/` : '';
    const text = this.texts.get(path);
    const answer = text === undefined ? new Response('no', { status: 404 }) : Response.json(record(path, text));
    if (this.hold) await this.hold;
    return answer;
  };

  recordRequests(path: string): number {
    return this.requests.filter((r) => r.url === `/page-data${path.replace(/\/$/, '')}/page-data.json`).length;
  }
}

function loaderFor(server: FakeServer, onNewBuild?: () => Promise<void>): Loader {
  return new Loader({ buildHash: 'h1', chunks, notFoundPathFor: () => '/404.html', fetch: server.fetch, onNewBuild });
}

async function textOf(loader: Loader, path: string): Promise<string> {
  const result = await loader.loadPage(path);
  assert.equal(result.status, 'success', JSON.stringify(result));
  if (result.status !== 'success') throw new Error('unreachable');
  const context = result.resources.record.result.pageContext as unknown as { text: string };
  return `${context.text}/${(result.resources.queries[0] as unknown as { text: string }).text}`;
}

test('same deploy: a record in memory costs only app-data.json; every request revalidates (no-cache)', async () => {
  const server = new FakeServer();
  const loader = loaderFor(server);
  await loader.currentBuildHash(); // boot
  await loader.prefetch('/a/');
  assert.equal(await textOf(loader, '/a/'), 'A1/Q1');
  assert.equal(server.recordRequests('/a/'), 1, 'the prefetched record is used');
  assert.ok(server.requests.every((r) => r.cache === 'no-cache'), JSON.stringify(server.requests));
});

test('a content-only deploy (same build hash, new deploy id): the first navigation fetches the record and static queries again', async () => {
  const server = new FakeServer();
  const loader = loaderFor(server);
  await loader.currentBuildHash();
  assert.equal(await textOf(loader, '/a/'), 'A1/Q1');
  server.texts.set('/a/', 'A2');
  server.query = 'Q2';
  server.appData = { webpackCompilationHash: 'h1', deploy: 'd2' };
  assert.equal(await textOf(loader, '/a/'), 'A2/Q2', 'the new deploy at the first navigation');
  assert.equal(await textOf(loader, '/a/'), 'A2/Q2');
  assert.equal(server.recordRequests('/a/'), 2, 'once more after the new deploy, then from memory');
  assert.equal(loader.isKnownPage('/a/'), true);
});

test('a deploy that went live while the page loaded: the page\'s own record (inline, of the deploy before) is fetched again, and nothing else', async () => {
  const server = new FakeServer();
  const loader = loaderFor(server);
  // The page's HTML and inline record are deploy 1's; by the first app-data.json, deploy 2 is live.
  loader.seed(record('/a/', 'A1'), [{ text: 'Q1' } as unknown as StaticQueryResult]);
  server.texts.set('/a/', 'A2');
  server.query = 'Q2';
  server.appData = { webpackCompilationHash: 'h1', deploy: 'd2' };
  await loader.currentBuildHash(); // boot
  // The record is the live deploy's; the shared data the page came with is kept (documented).
  assert.equal(await textOf(loader, '/a/'), 'A2/Q1', 'the first visit back shows the live deploy');
  assert.equal(server.recordRequests('/a/'), 1);
});

test('app-data.json unreadable (offline): memory stays; the next deploy id read drops what arrived meanwhile', async () => {
  const server = new FakeServer();
  const loader = loaderFor(server);
  await loader.currentBuildHash();
  server.appData = 'offline';
  assert.equal(await textOf(loader, '/a/'), 'A1/Q1');
  // Back online, same deploy id as at boot: memory may hold offline copies, so it is read again.
  server.appData = { webpackCompilationHash: 'h1', deploy: 'd1' };
  server.texts.set('/a/', 'A1b');
  assert.equal(await textOf(loader, '/a/'), 'A1b/Q1');
});

test('a build without a deploy id (ir-site dev): memory is kept', async () => {
  const server = new FakeServer();
  server.appData = { webpackCompilationHash: 'h1' };
  const loader = loaderFor(server);
  await loader.currentBuildHash();
  assert.equal(await textOf(loader, '/a/'), 'A1/Q1');
  server.texts.set('/a/', 'A2');
  assert.equal(await textOf(loader, '/a/'), 'A1/Q1');
});

test('a record that arrives after a new deploy was seen is not kept', async () => {
  const server = new FakeServer();
  const loader = loaderFor(server);
  await loader.currentBuildHash();
  server.holdRecords();
  const prefetch = loader.prefetch('/a/'); // sent under d1, answered late
  await new Promise((resolve) => setTimeout(resolve, 10));
  server.appData = { webpackCompilationHash: 'h1', deploy: 'd2' };
  await loader.currentBuildHash(); // d2 seen: memory dropped
  server.texts.set('/a/', 'A2');
  server.release();
  await prefetch;
  assert.equal(loader.isKnownPage('/a/'), false, 'the late answer is not kept');
  assert.equal(await textOf(loader, '/a/'), 'A2/Q1');
});

test('a new build hash: announced once, and awaited before the loader answers "stale"', async () => {
  const server = new FakeServer();
  const order: string[] = [];
  let calls = 0;
  const loader = loaderFor(server, async () => {
    calls++;
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push('caches dropped');
  });
  server.appData = { webpackCompilationHash: 'h2', deploy: 'd2' };
  const result = await loader.loadPage('/a/');
  order.push(result.status);
  assert.deepEqual(order, ['caches dropped', 'stale']);
  assert.equal(await loader.currentBuildHash(), 'h2');
  assert.equal(calls, 1, 'once per page');

  // A failing announcement never blocks the answer.
  const failing = loaderFor(server, () => Promise.reject(new Error('no worker')));
  assert.equal((await failing.loadPage('/a/')).status, 'stale');
});
