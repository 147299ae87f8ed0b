// The offline worker in Debian's Chromium (docs/offline.md): it installs on
// http://localhost, the site works offline after one visit, a rebuilt site is shown at the
// first navigation (and never hidden afterwards), and the registration rules and console
// messages on 127.0.0.1 and on a host that is neither HTTPS nor local. Every test starts
// from a fresh browser profile: a worker outlives its page.
// The offline worker in Debian's Chromium (docs/offline.md): it installs on
// http://localhost, the site works offline after one visit (every page seen opens, however
// it was reached; the others say the visitor is offline, in their language), a real 404
// stays a 404, and the registration rules and console messages on 127.0.0.1 and on a host
// that is neither HTTPS nor local. Deploys: offline-deploys.test.ts. Every test starts from
// a fresh browser profile: a worker outlives its page.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fixture } from '../helpers.js';
import { browserSkipReason, launchBrowser } from './browser.js';
import { buildAndServe, CACHED_EVENT, MESSAGES, Tab, until, WorkerHoldingProxy, type Served } from './offline-harness.js';
import { sleep } from './runtime-harness.js';

const skip = browserSkipReason();

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

  test('http://localhost: the worker installs, takes control, and precaches the runtime, chunks, offline pages and manifests', { timeout: 60_000 }, async () => {
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
      for (const p of ['/offline.html', '/fr/offline.html', '/manifest_en.webmanifest', '/manifest_fr.webmanifest']) {
        assert.ok(precached.includes(p), `${p} is precached`);
      }
      assert.ok(!precached.some((p) => p.endsWith('/404.html')), 'no not-found page: offline, nobody knows a page is missing');
      for (const template of ['home', 'article', 'not-found', 'section']) {
        assert.ok(precached.some((p) => new RegExp(`^/static/chunks/${template}\\.[A-Z0-9]+\\.js$`).test(p)), `the ${template} chunk is precached`);
      }
      assert.ok(!precached.some((p) => p.startsWith('/page-data/') || p === '/sw.js' || p === '/'), `no page data, pages or sw.js in the precache: ${precached.join(' ')}`);

      // The page loaded before the worker existed: it asked the worker to cache what it used,
      // and the event came once the worker had stored it.
      assert.ok((await tab.cached('ir-site-pages')).includes('/'), 'the visited page cached for offline use when ir-site:sw-cached fires');
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

  test('offline after one visit: every page seen opens, however it was reached; the others say "you are offline" in their language', { timeout: 90_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const tab = await Tab.open(browser, local('/'));
      await tab.booted();
      await tab.waitForEvent(CACHED_EVENT);
      // Reached by a client-side click: the worker sees its record, never its HTML.
      await tab.mark();
      await tab.click('/insights/');
      await until(async () => (await tab.h1()) === 'Insights', 'the Insights page');
      assert.ok(await tab.stillSameDocument(), 'a client-side navigation');
      // Prefetched only (hover; viewport prefetch may have done it already): never shown at all.
      await tab.page.hover('a[href="/your-team/"]');
      await tab.page.hover('a[href="/bobs-corner/"]');
      const pageData = ['/page-data/insights/page-data.json', '/page-data/your-team/page-data.json', '/page-data/bobs-corner/page-data.json'];
      await until(async () => {
        const cached = await tab.cached('ir-site-page-data');
        return pageData.every((p) => cached.includes(p));
      }, 'the three records in the worker cache');
      const pages = await tab.cached('ir-site-pages');
      for (const notLoaded of ['/insights/', '/your-team/', '/bobs-corner/']) assert.ok(!pages.includes(notLoaded), `setup: no HTML of ${notLoaded} is cached`);
      const records = await tab.cached('ir-site-page-data');
      for (const never of ['/search/', '/fr/contact-us/']) {
        assert.ok(!pages.includes(never) && !records.some((p) => p.startsWith(`/page-data${never}`)), `setup: ${never} was never seen`);
      }

      await browser.context.setOffline(true);
      assert.equal(await tab.page.evaluate(() => fetch('/page-data/app-data.json').then(() => 'online', () => 'offline')), 'offline', 'the browser is offline');

      // 1. The page reached client-side, reloaded: the offline page as a shell, the page rendered in it from its record.
      const reload = await tab.page.reload({ waitUntil: 'load' });
      assert.ok(reload?.fromServiceWorker(), 'answered by the worker');
      assert.equal(reload?.status(), 200);
      await until(async () => (await tab.h1()) === 'Insights', 'the Insights page, offline');
      assert.equal(new URL(tab.page.url()).pathname, '/insights/');
      assert.equal(await tab.page.title(), 'Insights | Beta Corp');
      assert.equal(await tab.page.getAttribute('html', 'lang'), 'en-CA');
      assert.equal(await tab.page.locator('meta[name="robots"]').count(), 0, 'the head is the page\'s, not the offline page\'s');

      // 2. From there, a client-side navigation to a prefetched page, from the worker's caches.
      await tab.mark();
      await tab.click('/your-team/');
      await until(async () => (await tab.main()).includes('Our people.'), 'the team page');
      assert.equal(new URL(tab.page.url()).pathname, '/your-team/');
      assert.ok(await tab.stillSameDocument(), 'a client-side navigation, not a full load');

      // 3. A prefetched page opened directly (never shown before).
      const column = await tab.page.goto(local('/bobs-corner/'), { waitUntil: 'load' });
      assert.equal(column?.status(), 200);
      await until(async () => (await tab.h1()) === "Bob's corner", "Bob's corner, offline");

      // 4. The page first visited: its own HTML, as last seen.
      const home = await tab.page.goto(local('/'), { waitUntil: 'load' });
      assert.equal(home?.status(), 200);
      assert.equal(await tab.h1(), 'Welcome');

      // 5. Pages never seen: the offline page of their language, 503, not "Page not found".
      const en = await tab.page.goto(local('/search/'), { waitUntil: 'load' });
      assert.ok(en?.fromServiceWorker());
      assert.equal(en?.status(), 503);
      await tab.booted();
      assert.equal(await tab.page.getAttribute('html', 'lang'), 'en-CA');
      assert.equal(await tab.h1(), 'You are offline');
      assert.equal(new URL(tab.page.url()).pathname, '/search/');
      // With links to the pages of its language the visitor has seen (issue 20 point 8): the page
      // loaded in full, the one reached by a click, the ones opened offline; none of the offline or
      // not-found pages, and none that were only prefetched.
      const saved = tab.page.locator('.saved-pages');
      await saved.waitFor({ timeout: 10_000 });
      assert.equal(await saved.locator('h2').textContent(), 'Pages saved on this device');
      const links = await saved.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
      for (const seen of ['/', '/insights/', '/your-team/', '/bobs-corner/']) assert.ok(links.includes(seen), `${seen} is listed: ${links.join(' ')}`);
      // Every link is one the worker can answer offline (viewport prefetches count), and nothing else.
      const cachedRecords = records.concat(await tab.cached('ir-site-page-data'));
      for (const link of links) {
        const record = `/page-data/${link === '/' ? 'index' : link.slice(1, -1)}/page-data.json`;
        assert.ok(cachedRecords.includes(record) || pages.includes(link), `${link} is in the worker's caches`);
        assert.doesNotMatch(link, /\.html$|^\/search\/|^\/fr\//, link);
      }
      assert.equal(await saved.locator('a[href="/insights/"]').textContent(), 'Insights');
      const shown = new Set(['/', '/insights/', '/your-team/', '/bobs-corner/']);
      const onlyPrefetched = cachedRecords
        .map((record) => /^\/page-data\/(.+)\/page-data\.json$/.exec(record)?.[1])
        .filter((p): p is string => !!p && p !== 'index' && !p.startsWith('sq/') && !p.startsWith('fr/'))
        .map((p) => `/${p}/`)
        .filter((p) => !shown.has(p));
      assert.ok(onlyPrefetched.length > 0, 'setup: the home and Insights pages prefetched pages never shown');
      for (const page of onlyPrefetched) assert.ok(!links.includes(page), `${page} was only prefetched, yet it is listed: ${links.join(' ')}`);
      const fr = await tab.page.goto(local('/fr/contact-us/'), { waitUntil: 'load' });
      assert.equal(fr?.status(), 503);
      await tab.booted();
      assert.equal(await tab.page.getAttribute('html', 'lang'), 'fr-CA');
      assert.equal(await tab.h1(), 'Vous êtes hors ligne');
      // The runtime tried the shell and left the offline page on screen: no reload loop.
      await sleep(500);
      assert.equal(await tab.h1(), 'Vous êtes hors ligne');
      assert.equal(new URL(tab.page.url()).pathname, '/fr/contact-us/');
      // Only French pages are listed there (the language switcher's targets were prefetched), never English ones.
      const french = await tab.page.locator('.saved-pages a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
      for (const link of french) assert.match(link, /^\/fr\//, link);

      // 6. Online again, a page that does not exist is the server's 404, through the worker.
      await browser.context.setOffline(false);
      const missing = await tab.page.goto(local('/no-such-page/'), { waitUntil: 'load' });
      assert.equal(missing?.status(), 404);
      assert.equal(await tab.h1(), 'Page not found');
      assert.ok(await tab.controller(), 'with the worker in control');
      await sleep(300);
      assert.equal(await tab.page.locator('.saved-pages').count(), 0, 'a real 404 lists no saved pages');
    } finally {
      await browser.close();
    }
  });

  // docs/offline.md: the worker keeps "every page they have seen, however they reached it". One
  // copy per page, whatever its query: a page first reached through a campaign link opens
  // offline at its plain address and at any other query, not only at the one it was loaded with.
  test('a page first visited with a query string (/?utm_source=newsletter) opens offline at / and at /?utm_source=other', { timeout: 60_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const tab = await Tab.open(browser, local('/?utm_source=newsletter'));
      await tab.booted();
      await tab.waitForEvent(CACHED_EVENT);
      assert.ok((await tab.cached('ir-site-pages')).includes('/'), 'the page landed on in ir-site-pages when ir-site:sw-cached fires');

      await browser.context.setOffline(true);
      for (const address of ['/', '/?utm_source=other', '/?utm_source=newsletter']) {
        const response = await tab.page.goto(local(address), { waitUntil: 'load' });
        assert.ok(response?.fromServiceWorker(), `${address}: answered by the worker`);
        assert.equal(response?.status(), 200, `${address}: the cached page, not "You are offline" (h1: ${await tab.h1()})`);
        await until(async () => (await tab.h1()) === 'Welcome', `the home page at ${address}, offline`);
        assert.equal(new URL(tab.page.url()).pathname, '/');
      }
    } finally {
      await browser.close();
    }
  });

  // docs/offline.md, "The first visit": once the worker takes control, "the page sends it ...
  // CACHE_URLS"; "The first visit's page is in `ir-site-pages`". That holds when the visitor
  // followed a link before the worker took control (a slow /sw.js, held here by a proxy): the
  // page landed on opens offline, as well as the one shown when the worker took over.
  test('first install after a link was followed before the worker took control: the page landed on opens offline', { timeout: 60_000 }, async () => {
    const proxy = await WorkerHoldingProxy.start(site.port);
    const browser = await launchBrowser();
    try {
      const at = (sitePath: string) => `http://localhost:${proxy.port}${sitePath}`;
      proxy.hold();
      const tab = await Tab.open(browser, at('/'));
      await tab.booted();
      await until(() => proxy.heldRequests > 0, 'the held /sw.js request');
      await tab.mark();
      await tab.click('/insights/');
      await until(async () => (await tab.h1()) === 'Insights', 'the Insights page');
      assert.ok(await tab.stillSameDocument(), 'setup: a client-side navigation');
      assert.equal(await tab.controller(), null, 'setup: no worker controlled the page when the link was followed');

      proxy.release();
      await tab.waitForEvent(CACHED_EVENT);
      assert.ok((await tab.cached('ir-site-pages')).includes('/'), "the landing page's HTML in ir-site-pages when ir-site:sw-cached fires");

      await browser.context.setOffline(true);
      const home = await tab.page.goto(at('/'), { waitUntil: 'load' });
      assert.ok(home?.fromServiceWorker(), 'answered by the worker');
      assert.equal(home?.status(), 200, `the landing page, not "You are offline" (h1: ${await tab.h1()})`);
      await until(async () => (await tab.h1()) === 'Welcome', 'the home page, offline');
      const insights = await tab.page.goto(at('/insights/'), { waitUntil: 'load' });
      assert.equal(insights?.status(), 200);
      await until(async () => (await tab.h1()) === 'Insights', 'the Insights page, offline');
    } finally {
      await browser.close();
      await proxy.close();
    }
  });

  // RUNTIME.md, Analytics: "After every route update, including the first, ... push
  // { event: "gatsby-route-change" }". A page rendered in the offline page (the app shell) is one
  // page load and one route: one push, with that page's title.
  test('offline, a page rendered inside the offline page (the shell) pushes one route-change event', { timeout: 60_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const tab = await Tab.open(browser, local('/'));
      await tab.booted();
      await tab.waitForEvent(CACHED_EVENT);
      await tab.click('/insights/');
      await until(async () => (await tab.h1()) === 'Insights', 'the Insights page');
      await until(async () => (await tab.cached('ir-site-page-data')).includes('/page-data/insights/page-data.json'), 'its record in the worker cache');
      // From the next document on: the route changes pushed, with the title at the time.
      await tab.page.addInitScript(() => {
        const w = window as unknown as { dataLayer: unknown[]; __routeChanges: string[] };
        w.__routeChanges = [];
        w.dataLayer = [];
        const push = Array.prototype.push;
        w.dataLayer.push = function (this: unknown[], ...items: unknown[]) {
          for (const item of items) if ((item as { event?: string }).event === 'gatsby-route-change') w.__routeChanges.push(document.title);
          return push.apply(this, items);
        };
      });
      const routeChanges = () => tab.page.evaluate(() => (window as unknown as { __routeChanges: string[] }).__routeChanges);

      await browser.context.setOffline(true);
      const reload = await tab.page.reload({ waitUntil: 'load' });
      assert.ok(reload?.fromServiceWorker(), 'answered by the worker');
      await until(async () => (await tab.h1()) === 'Insights', 'the Insights page in the shell');
      await until(async () => (await routeChanges()).length > 0, 'a route-change event');
      await sleep(500);
      assert.deepEqual(await routeChanges(), ['Insights | Beta Corp'], 'one page view, of the page shown');
    } finally {
      await browser.close();
    }
  });

  // docs/offline.md, "Routes": a Range request that a cached copy answers gets those bytes (206),
  // as `ir-site serve` answers it online; a range the copy does not have is 416.
  test('offline, a Range request answered from the precache or the page cache gets 206 with those bytes, or 416', { timeout: 60_000 }, async () => {
    const browser = await launchBrowser();
    try {
      const tab = await Tab.open(browser, local('/'));
      await tab.waitForEvent(CACHED_EVENT);
      const html = await readFile(path.join(site.dir, 'index.html'));
      const runtime = /<script type="module" src="([^"]+)"/.exec(html.toString('utf8'))?.[1];
      assert.ok(runtime && (await tab.precached()).includes(runtime), 'setup: the runtime is precached');
      const script = await readFile(path.join(site.dir, ...runtime.split('/')));

      await browser.context.setOffline(true);
      const ranged = (address: string, range: string) =>
        tab.page.evaluate(
          async ([address, range]) => {
            const response = await fetch(address, { headers: { Range: range } });
            return { status: response.status, contentRange: response.headers.get('content-range'), body: [...new Uint8Array(await response.arrayBuffer())] };
          },
          [address, range] as const,
        );
      for (const [address, bytes, range, start, end] of [
        [runtime, script, 'bytes=0-9', 0, 9],
        [runtime, script, `bytes=${script.length - 7}-`, script.length - 7, script.length - 1],
        ['/', html, 'bytes=20-99', 20, 99],
      ] as const) {
        const got = await ranged(address, range);
        assert.equal(got.status, 206, `${address} ${range}`);
        assert.equal(got.contentRange, `bytes ${start}-${end}/${bytes.length}`, `${address} ${range}`);
        assert.deepEqual(Buffer.from(got.body), bytes.subarray(start, end + 1), `${address} ${range}: those bytes`);
      }
      assert.equal((await ranged(runtime, `bytes=${script.length + 10}-${script.length + 20}`)).status, 416, 'a range past the end');
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
    const browser = await launchBrowser({ localHosts: [host] });
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
