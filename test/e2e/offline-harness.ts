// Shared by the offline-worker browser tests (offline.test.ts, offline-deploys.test.ts): a
// site built and served by the real `ir-site serve`, optionally behind a proxy that holds
// `/sw.js` (a new worker that cannot install at once), and a tab that records its console,
// its document loads and the worker's window events.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { build } from '../../src/build/index.js';
import { serve, type RunningServer } from '../../src/commands/server/serve.js';
import { REPO, writableFixture } from '../helpers.js';
import type { Browser } from './browser.js';
import { until as pollUntil } from './runtime-harness.js';

export const MESSAGES = {
  insecure: 'Service workers can only be used over HTTPS, or on localhost for development',
  firstInstall: 'Content is now available offline!',
  activated: 'The offline worker is active.',
};
export const CACHED_EVENT = 'ir-site:sw-cached';
export const UPDATED_EVENT = 'ir-site:sw-updated';
export const ACTIVATED_EVENT = 'ir-site:sw-activated';
/** Records the worker's window events in every document, from its first script on. */
const RECORD_EVENTS = `window.__irOffline = []; ['ir-site:sw-activated', 'ir-site:sw-updated', 'ir-site:sw-cached'].forEach(function (name) { addEventListener(name, function () { window.__irOffline.push(name); }); });`;

/** The harness's poll, with the longer wait a worker install or a rebuild needs. */
export const until = <T>(check: () => Promise<T> | T, what: string, timeout = 15_000) => pollUntil(check, what, timeout, 50);

export interface Served {
  dir: string;
  server: RunningServer;
  port: number;
  close(): Promise<void>;
}

export async function buildAndServe(root: string): Promise<Served> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ir-site-offline-'));
  const dir = path.join(tmp, 'public');
  await build({ root, outDir: dir, reporter: {} });
  const server = await serve({ dir, host: '127.0.0.1', port: 0 });
  return {
    dir,
    server,
    port: Number(new URL(server.url).port),
    async close() {
      await server.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

/**
 * A proxy in front of a server that can hold `/sw.js`: while held, requests for it wait
 * (the browser's update check hangs, so a new deploy's worker cannot install), and
 * `release()` lets them through.
 */
export class WorkerHoldingProxy {
  private held = false;
  private waiting: Array<() => void> = [];
  /** `/sw.js` requests that arrived while held. */
  heldRequests = 0;

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<WorkerHoldingProxy> {
    let proxy: WorkerHoldingProxy | null = null;
    const server = http.createServer((req, res) => {
      const forward = () => {
        const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      };
      if (proxy?.held && new URL(req.url ?? '/', 'http://x').pathname === '/sw.js') {
        proxy.heldRequests++;
        proxy.waiting.push(forward);
      } else forward();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new WorkerHoldingProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  hold(): void {
    this.held = true;
  }

  release(): void {
    this.held = false;
    for (const forward of this.waiting.splice(0)) forward();
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A copy of the minimal fixture at the same depth (its relative paths still hold), with a
 * copy of the templates whose stylesheet can be edited (the stylesheet is part of the build
 * hash), served; `redeploy` rebuilds it into the served folder.
 */
export class DeployableSite {
  private constructor(
    readonly root: string,
    readonly site: Served,
  ) {}

  static async create(name: string): Promise<DeployableSite> {
    const root = path.join(REPO, 'test', '.tmp', `${name}-${process.pid}`);
    await writableFixture('minimal', path.basename(root), { ownTemplates: true });
    return new DeployableSite(root, await buildAndServe(root));
  }

  async edit(rel: string, from: string, to: string): Promise<void> {
    const file = path.join(this.root, rel);
    const text = await readFile(file, 'utf8');
    assert.ok(text.includes(from), `${rel} contains ${from}`);
    await writeFile(file, text.replace(from, to));
  }

  async redeploy(): Promise<void> {
    await build({ root: this.root, outDir: this.site.dir, reporter: {} });
  }

  async appData(): Promise<{ webpackCompilationHash: string; deploy: string }> {
    return JSON.parse(await readFile(path.join(this.site.dir, 'page-data', 'app-data.json'), 'utf8')) as { webpackCompilationHash: string; deploy: string };
  }

  async close(): Promise<void> {
    await this.site.close();
    await rm(this.root, { recursive: true, force: true });
  }
}

/** A page with its console and main-frame document loads recorded. */
export class Tab {
  readonly console: { type: string; text: string }[] = [];
  documents = 0;

  private constructor(readonly page: Page) {
    page.on('console', (m) => this.console.push({ type: m.type(), text: m.text() }));
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) this.documents++;
    });
  }

  static async open(browser: Browser, url: string): Promise<Tab> {
    const page = await browser.context.newPage();
    await page.addInitScript(RECORD_EVENTS);
    const tab = new Tab(page);
    await page.goto(url, { waitUntil: 'load' });
    return tab;
  }

  logs(type = 'log'): string[] {
    return this.console.filter((m) => m.type === type).map((m) => m.text);
  }

  /** The worker's window events seen by the current document. */
  events(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __irOffline?: string[] }).__irOffline ?? []);
  }

  async waitForEvent(name: string, timeout?: number): Promise<void> {
    await until(async () => (await this.events()).includes(name), `the ${name} event`, timeout);
  }

  /** The router has started (it keys every history entry). */
  async booted(): Promise<void> {
    await until(() => this.page.evaluate(() => !!(history.state as { key?: string } | null)?.key), 'the runtime to start');
  }

  buildHash(): Promise<string | null> {
    return this.page.getAttribute('#___gatsby', 'data-build');
  }

  h1(): Promise<string | null> {
    return this.page.textContent('h1');
  }

  async main(): Promise<string> {
    return (await this.page.textContent('main')) ?? '';
  }

  /** Site paths in one of the worker's caches (query strings dropped). */
  cached(cacheName: string): Promise<string[]> {
    return this.page.evaluate(async (name) => {
      if (!(await caches.has(name))) return [];
      const cache = await caches.open(name);
      return (await cache.keys()).map((request) => new URL(request.url).pathname);
    }, cacheName);
  }

  /** The body a worker cache holds for a site path, or null. */
  cachedText(cacheName: string, sitePath: string): Promise<string | null> {
    return this.page.evaluate(
      async ({ name, url }) => {
        if (!(await caches.has(name))) return null;
        const response = await (await caches.open(name)).match(url);
        return response ? response.text() : null;
      },
      { name: cacheName, url: sitePath },
    );
  }

  async precached(): Promise<string[]> {
    const names = await this.page.evaluate(() => caches.keys());
    const precache = names.find((n) => n.includes('-precache-'));
    assert.ok(precache, `a Workbox precache among ${names.join(', ')}`);
    return this.cached(precache);
  }

  /**
   * Records every change of the service worker versions, as DevTools reports them (`<version>
   * <status>/<running status>`, e.g. `0 activated/starting`): for failure messages, where a
   * worker restarted during a hand-over shows.
   */
  async recordWorkers(): Promise<string[]> {
    const changes: string[] = [];
    const cdp = await this.page.context().newCDPSession(this.page);
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      for (const version of versions) {
        const change = `${version.versionId} ${version.status}/${version.runningStatus}`;
        if (changes.at(-1) !== change) changes.push(change);
      }
    });
    await cdp.send('ServiceWorker.enable');
    return changes;
  }

  /** The script URL of the worker that controls the page, or null. */
  controller(): Promise<string | null> {
    return this.page.evaluate(() => navigator.serviceWorker?.controller?.scriptURL ?? null);
  }

  /** Marks the document: `stillSameDocument()` is false after a full load. */
  async mark(): Promise<void> {
    await this.page.evaluate(() => {
      (window as unknown as { __irMark: boolean }).__irMark = true;
    });
  }

  stillSameDocument(): Promise<boolean> {
    return this.page.evaluate(() => (window as unknown as { __irMark?: boolean }).__irMark === true);
  }

  async click(href: string): Promise<void> {
    await this.page.locator(`a[href="${href}"]`).first().click();
  }
}
