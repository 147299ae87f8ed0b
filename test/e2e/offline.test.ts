// The offline worker in Debian's Chromium (docs/offline.md): it installs on
// http://localhost, the site works offline after one visit, a rebuilt site is shown at the
// first navigation (and never hidden afterwards), and the registration rules and console
// messages on 127.0.0.1 and on a host that is neither HTTPS nor local. Every test starts
// from a fresh browser profile: a worker outlives its page.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { build } from '../../src/core/build.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { fixture, REPO, writableFixture } from '../helpers.js';
import { browserSkipReason, launchBrowser, type Browser } from './browser.js';
import { sleep, until as pollUntil } from './runtime-harness.js';

const skip = browserSkipReason();

const MESSAGES = {
  insecure: 'Service workers can only be used over HTTPS, or on localhost for development',
  firstInstall: 'Content is now available offline!',
  activated: 'The offline worker is active.',
};
const CACHED_EVENT = 'ir-site:sw-cached';
const UPDATED_EVENT = 'ir-site:sw-updated';
/** Records the worker's window events in every document, from its first script on. */
const RECORD_EVENTS = `window.__irOffline = []; ['ir-site:sw-activated', 'ir-site:sw-updated', 'ir-site:sw-cached'].forEach(function (name) { addEventListener(name, function () { window.__irOffline.push(name); }); });`;

/** The harness's poll, with the longer wait a worker install or a rebuild needs. */
const until = <T>(check: () => Promise<T> | T, what: string, timeout = 15_000) => pollUntil(check, what, timeout, 50);

interface Served {
  dir: string;
  server: RunningServer;
  port: number;
  close(): Promise<void>;
}

async function buildAndServe(root: string): Promise<Served> {
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

/** A page with its console and main-frame document loads recorded. */
class Tab {
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

  async waitForEvent(name: string): Promise<void> {
    await until(async () => (await this.events()).includes(name), `the ${name} event`);
  }

  /** The router has started (it keys every history entry). */
  async booted(): Promise<void> {
    await until(() => this.page.evaluate(() => !!(history.state as { key?: string } | null)?.key), 'the runtime to start');
  }

  buildHash(): Promise<string | null> {
    return this.page.getAttribute('#___gatsby', 'data-build');
  }

  /** Site paths in one of the worker's caches (query strings dropped). */
  cached(cacheName: string): Promise<string[]> {
    return this.page.evaluate(async (name) => {
      if (!(await caches.has(name))) return [];
      const cache = await caches.open(name);
      return (await cache.keys()).map((request) => new URL(request.url).pathname);
    }, cacheName);
  }

  async precached(): Promise<string[]> {
    const names = await this.page.evaluate(() => caches.keys());
    const precache = names.find((n) => n.includes('-precache-'));
    assert.ok(precache, `a Workbox precache among ${names.join(', ')}`);
    return this.cached(precache);
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

describe('offline worker (sw.js) in Chromium', { skip }, () => {
  let site: Served;
  let local: (sitePath: string) => string;

  before(async () => {
    site = await buildAndServe(fixture('minimal'));
    local = (sitePath) => `http://localhost:${site.port}${sitePath}`;
  });
  after(async () => {
    await site?.close();
  });

  test('http://localhost: the worker installs, takes control, and precaches the runtime, chunks, not-found pages and manifests', { timeout: 60_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const tab = await Tab.open(browser, local('/'));
      await tab.waitForEvent(CACHED_EVENT);
      assert.ok(tab.logs().includes(MESSAGES.firstInstall), `console: ${JSON.stringify(tab.console)}`);
      assert.ok(tab.logs().includes(MESSAGES.activated));
      assert.deepEqual(tab.logs('error'), [], 'no console error');
      const controller = await tab.page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
      assert.equal(controller, local('/sw.js'));

      const precached = await tab.precached();
      const html = await readFile(path.join(site.dir, 'index.html'), 'utf8');
      const runtime = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
      assert.ok(runtime && precached.includes(runtime), `the runtime ${runtime} is precached`);
      for (const p of ['/404.html', '/fr/404.html', '/cn/404.html', '/manifest_en.webmanifest', '/manifest_fr.webmanifest']) {
        assert.ok(precached.includes(p), `${p} is precached`);
      }
      for (const template of ['home', 'article', 'not-found', 'section']) {
        assert.ok(precached.some((p) => new RegExp(`^/static/chunks/${template}\\.[A-Z0-9]+\\.js$`).test(p)), `the ${template} chunk is precached`);
      }
      assert.ok(!precached.some((p) => p.startsWith('/page-data/') || p === '/sw.js' || p === '/'), `no page data, pages or sw.js in the precache: ${precached.join(' ')}`);

      // The page loaded before the worker existed: it asked the worker to cache what it used.
      assert.ok((await tab.cached('ir-site-pages')).includes('/'), 'the visited page is cached for offline use');
      // The build hash and the worker script are never cached by the worker.
      const everything = (await Promise.all(['ir-site-static', 'ir-site-page-data', 'ir-site-assets', 'ir-site-pages'].map((n) => tab.cached(n)))).flat();
      assert.ok(!everything.includes('/page-data/app-data.json') && !everything.includes('/sw.js'), everything.join(' '));

      const response = await fetch(`${site.server.url}/sw.js`);
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
    } finally {
      await browser.close();
    }
  });

  test('offline after one visit: the page visited, a prefetched page, and the language\'s not-found page for the rest', { timeout: 60_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const tab = await Tab.open(browser, local('/'));
      await tab.booted();
      await tab.waitForEvent(CACHED_EVENT);
      const h1 = await tab.page.textContent('h1');
      // Prefetch one link (hover; viewport prefetch may have done it already) and wait for the worker to hold its data.
      await tab.page.hover('a[href="/insights/"]');
      await until(async () => (await tab.cached('ir-site-page-data')).includes('/page-data/insights/page-data.json'), 'the prefetched page data in the worker cache');
      const pages = await tab.cached('ir-site-pages');
      for (const never of ['/search/', '/fr/insights/']) assert.ok(!pages.includes(never), `${never} was never visited`);

      await browser.context.setOffline(true);
      assert.equal(await tab.page.evaluate(() => fetch('/page-data/app-data.json').then(() => 'online', () => 'offline')), 'offline', 'the browser is offline');

      // 1. The visited page reloads from the worker.
      const reload = await tab.page.reload({ waitUntil: 'load' });
      assert.equal(reload?.status(), 200);
      assert.ok(reload?.fromServiceWorker(), 'answered by the worker');
      assert.equal(await tab.page.textContent('h1'), h1);
      await tab.booted();

      // 2. A client-side navigation to the prefetched page, from the worker's caches.
      await tab.mark();
      await tab.click('/insights/');
      await until(async () => (await tab.page.textContent('h1')) === 'Insights', 'the Insights page');
      assert.equal(new URL(tab.page.url()).pathname, '/insights/');
      assert.ok(await tab.stillSameDocument(), 'a client-side navigation, not a full load');

      // 3. Pages never visited: the not-found page of their language, from the precache.
      const en = await tab.page.goto(local('/search/'), { waitUntil: 'load' });
      assert.ok(en?.fromServiceWorker());
      assert.equal(await tab.page.getAttribute('html', 'lang'), 'en-CA');
      assert.equal(await tab.page.textContent('h1'), 'Page not found');
      const fr = await tab.page.goto(local('/fr/insights/'), { waitUntil: 'load' });
      assert.ok(fr?.fromServiceWorker());
      assert.equal(await tab.page.getAttribute('html', 'lang'), 'fr-CA');
      assert.equal(await tab.page.textContent('h1'), 'Page introuvable');
    } finally {
      await browser.close();
    }
  });

  test('127.0.0.1 counts as local: the worker registers there, with no HTTPS message', { timeout: 60_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const tab = await Tab.open(browser, `http://127.0.0.1:${site.port}/`);
      await tab.waitForEvent(CACHED_EVENT);
      assert.ok(tab.logs().includes(MESSAGES.firstInstall));
      assert.ok(!tab.logs('error').includes(MESSAGES.insecure));
      assert.equal(await tab.page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), `http://127.0.0.1:${site.port}/sw.js`);
    } finally {
      await browser.close();
    }
  });

  test('a host that is neither HTTPS nor local: the HTTPS message, no worker, and the site still works', { timeout: 60_000 }, async () => {
    const host = 'ir-site.test';
    const browser = await launchBrowser({ extraArgs: [`--host-resolver-rules=MAP ${host} 127.0.0.1`], localHosts: [host] });
    try {
      const tab = await Tab.open(browser, `http://${host}:${site.port}/`);
      await tab.booted();
      await until(() => tab.logs('error').length > 0, 'a console error');
      assert.deepEqual(tab.logs('error'), [MESSAGES.insecure]);
      assert.equal(await tab.page.evaluate(() => window.isSecureContext), false);
      assert.equal(await tab.page.evaluate(() => 'serviceWorker' in navigator), false, 'no worker API in an insecure context');
      await sleep(500);
      assert.ok(!tab.logs().includes(MESSAGES.firstInstall));
      // The runtime works without a worker: a client-side navigation.
      await tab.mark();
      await tab.click('/insights/');
      await until(async () => (await tab.page.textContent('h1')) === 'Insights', 'the Insights page');
      assert.ok(await tab.stillSameDocument());
    } finally {
      await browser.close();
    }
  });
});

describe('offline worker: a new deploy is never hidden behind the old one', { skip }, () => {
  // A copy of the minimal fixture at the same depth (its relative paths still hold), with a
  // copy of the templates whose stylesheet we can edit (the stylesheet is part of the build hash).
  const root = path.join(REPO, 'test', '.tmp', `offline-${process.pid}`);
  let site: Served;
  let browser: Browser;

  const edit = async (rel: string, from: string, to: string) => {
    const file = path.join(root, rel);
    const text = await readFile(file, 'utf8');
    assert.ok(text.includes(from), `${rel} contains ${from}`);
    await writeFile(file, text.replace(from, to));
  };
  const buildHash = async () =>
    (JSON.parse(await readFile(path.join(site.dir, 'page-data', 'app-data.json'), 'utf8')) as { webpackCompilationHash: string }).webpackCompilationHash;

  before(async () => {
    await writableFixture('minimal', path.basename(root), { ownTemplates: true });
    site = await buildAndServe(root);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await rm(root, { recursive: true, force: true });
  });

  test('rebuilt with a new hash: shown at the first navigation, then one full load when the new worker takes over, never the old content', { timeout: 90_000 }, async () => {
    const local = (sitePath: string) => `http://localhost:${site.port}${sitePath}`;
    const v1 = await buildHash();
    const tab = await Tab.open(browser, local('/'));
    await tab.booted();
    await tab.waitForEvent(CACHED_EVENT);
    assert.equal(await tab.buildHash(), v1);
    // Two client-side navigations under the old worker: the build-hash check passes through it.
    await tab.mark();
    await tab.click('/your-team/');
    await until(async () => ((await tab.page.textContent('main')) ?? '').includes('Our people.'), 'the team page');
    await tab.click('/');
    await until(async () => new URL(tab.page.url()).pathname === '/' && (await tab.page.textContent('h1')) === 'Welcome', 'the home page');
    assert.ok(await tab.stillSameDocument(), 'client-side navigations');
    // The old worker holds the old page data of the linked pages (prefetched, then cached).
    await until(async () => {
      const cached = await tab.cached('ir-site-page-data');
      return cached.includes('/page-data/insights/page-data.json') && cached.includes('/page-data/your-team/page-data.json');
    }, 'the linked pages in the worker cache');

    // A new deploy into the same served folder: new stylesheet (new build hash), new texts.
    await edit('templates/styles.css', 'body', '/* deploy 2 */\nbody');
    await edit('content/pages/insights/en.md', 'Our views.', 'Our views, second deploy.');
    await edit('content/pages/your-team/en.md', 'Our people.', 'Our people, second deploy.');
    await build({ root, outDir: site.dir, reporter: {} });
    const v2 = await buildHash();
    assert.notEqual(v2, v1, 'the rebuild has a new build hash');

    // Navigation 1 (a click on the old page): the new deploy, at once.
    await tab.click('/insights/');
    await until(async () => (await tab.buildHash()) === v2, 'the new build on the first navigation');
    assert.equal(new URL(tab.page.url()).pathname, '/insights/');
    assert.ok(((await tab.page.textContent('main')) ?? '').includes('Our views, second deploy.'), 'the new text');

    // The browser fetched the new sw.js on that navigation; the new worker installs over the old one.
    await tab.waitForEvent(UPDATED_EVENT);
    assert.deepEqual(tab.logs('error'), [], `no console error: ${JSON.stringify(tab.console)}`);

    // Navigation 2: a full load (the rule after an update), still the new deploy.
    await tab.booted();
    await tab.mark();
    const documents = tab.documents;
    await tab.click('/bobs-corner/');
    await until(async () => new URL(tab.page.url()).pathname === '/bobs-corner/' && (await tab.page.textContent('h1')) !== 'Insights', 'the column page');
    await tab.booted();
    assert.equal(tab.documents, documents + 1, 'a full page load');
    assert.ok(!(await tab.stillSameDocument()));
    assert.equal(await tab.buildHash(), v2);

    // Navigation 3: client-side again, and the page data the old worker had cached is not shown.
    await tab.mark();
    await tab.click('/your-team/');
    await until(async () => ((await tab.page.textContent('main')) ?? '').includes('Our people'), 'the team page');
    assert.ok(((await tab.page.textContent('main')) ?? '').includes('Our people, second deploy.'), 'the new text, not the old cached one');
    assert.ok(await tab.stillSameDocument(), 'a client-side navigation');
    assert.equal(await tab.buildHash(), v2);
  });
});
