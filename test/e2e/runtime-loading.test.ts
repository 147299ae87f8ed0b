// RUNTIME.md "Loading a page on navigation", in Chromium against the demo site served by
// `ir-site serve`: every outcome of a page-data fetch (success, 404, invalid 200, 500,
// other statuses, network failures), the build hash, static queries, template chunks,
// a page without resources, and the "route update delayed" event. Failures are produced
// with page.route(); navigations are clicks on links.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page, Route } from 'playwright-core';
import { DELAYED_EVENT, pageDataPath, RELOAD_GUARD, script, skip, sleep, Tab, until, WATCH_APP_DATA, withSiteAndBrowser, type Browser, type BuiltSite } from './runtime-harness.js';

/** Pages the demo home page does not link to: no viewport prefetch touches them. */
const UNLINKED = '/search/';
const UNLINKED_2 = '/your-team/hmercier/';
const UNLINKED_3 = '/article/annual-report-2024/';

const pageDataGlob = (sitePath: string) => `**${pageDataPath(sitePath)}`;

// Every test has its own tab and routes: a few run side by side.
describe('runtime: loading a page on navigation', { skip, concurrency: 3 }, () => {
  let site: BuiltSite;
  let browser: Browser;

  withSiteAndBrowser((built, opened) => ((site = built), (browser = opened)));

  async function withTab(sitePath: string, body: (tab: Tab) => Promise<void>, options: Parameters<typeof Tab.open>[3] = {}): Promise<void> {
    const tab = await Tab.open(browser.context, site, sitePath, options);
    try {
      await body(tab);
    } finally {
      await tab.close();
    }
  }

  test('the first page costs no page-data request; a click renders the next page without a full load', { timeout: 20_000 }, () =>
    withTab('/', async (tab) => {
      assert.equal(tab.pageData('/').length, 0, 'the first page record is inlined in its HTML');
      assert.ok(
        tab.requests.every((r) => !r.path.startsWith('/page-data/sq/')),
        'the first page static queries are inlined too',
      );
      const before = await tab.state();
      assert.equal(before.h1, site.h1('/'));
      await tab.mark();
      await tab.page.locator('.main-nav a[href="/portfolio/"]').click();
      const after = await tab.waitForPage('/portfolio/', site.h1('/portfolio/'));
      assert.ok(after.marked, 'no full page load happened');
      assert.equal(tab.documents().length, 1, 'one document request in all');
      assert.equal(after.title, site.title('/portfolio/'));
      assert.equal(after.lang, 'en-CA');
      assert.equal(after.historyLength, before.historyLength + 1, 'one history entry pushed');
      assert.notEqual(after.historyKey, before.historyKey, 'the new entry has its own key');
    }));

  test('page data and app data are fetched in parallel', { timeout: 20_000 }, () =>
    withTab('/', async (tab) => {
      // Answered, not only sent: a navigation shares a check still in flight, and sends no app-data request.
      await tab.buildChecked();
      const inFlight = { page: false, app: false };
      const overlap = { page: false, app: false };
      const hold = (mine: 'page' | 'app', other: 'page' | 'app') => async (route: Route) => {
        inFlight[mine] = true;
        // Released only once the other request has been sent: a runtime that waits for one
        // answer before asking for the other never gets here in time.
        const end = Date.now() + 3000;
        while (!inFlight[other] && Date.now() < end) await sleep(10);
        overlap[mine] = inFlight[other];
        await route.continue();
      };
      await tab.page.route(pageDataGlob(UNLINKED), hold('page', 'app'));
      await tab.page.route('**/page-data/app-data.json', hold('app', 'page'));
      await tab.mark();
      // A click event without a hover first, so that no prefetch starts the page-data request early.
      await (await tab.insertLink(UNLINKED)).dispatchEvent('click');
      const state = await tab.waitForPage(UNLINKED, site.h1(UNLINKED));
      assert.ok(state.marked, 'client navigation');
      assert.deepEqual(overlap, { page: true, app: true }, 'each request was sent while the other was still unanswered');
    }, { init: [WATCH_APP_DATA] }));

  test('404: the not-found page renders client-side at the address, then HEAD checks the address', { timeout: 20_000 }, () =>
    withTab('/', async (tab) => {
      await tab.mark();
      await (await tab.insertLink('/no-such-page/?from=test#top')).click();
      const state = await tab.waitForPage('/no-such-page/', site.h1('/404.html'));
      assert.ok(state.marked, 'rendered without a full load');
      assert.equal(state.search, '?from=test');
      assert.equal(state.title, site.title('/404.html'));
      assert.equal(state.lang, 'en-CA');
      assert.equal(state.announcer, `Navigated to ${site.h1('/404.html')}`);
      const missing = tab.pageData('/no-such-page/');
      assert.ok(missing.length >= 1, 'the page data was asked for');
      assert.equal((await missing[0]!.request.response())?.status(), 404);
      assert.equal(tab.pageData('/404.html').length, 1, 'the not-found page data was loaded');
      const head = await until(() => tab.requests.find((r) => r.method === 'HEAD'), 'a HEAD request');
      assert.equal(head.path, '/no-such-page/', 'HEAD for the page URL');
      assert.ok(head.at >= missing[0]!.at, 'HEAD comes after the page-data 404');
      assert.equal(await tab.page.locator('meta[name="robots"][content="noindex"]').count(), 1, 'the not-found head is applied');
      assert.equal(tab.documents().length, 1);
    }));

  test('404 under /fr/: the French not-found page', { timeout: 20_000 }, () =>
    withTab('/fr/', async (tab) => {
      await tab.mark();
      await (await tab.insertLink('/fr/pas-de-page/')).click();
      const state = await tab.waitForPage('/fr/pas-de-page/', site.h1('/fr/404.html'));
      assert.ok(state.marked);
      assert.equal(state.lang, 'fr-CA');
      assert.equal(state.title, site.title('/fr/404.html'));
      assert.equal(state.announcer, `Page affichée\u00a0: ${site.h1('/fr/404.html')}`);
      assert.equal(tab.pageData('/fr/404.html').length, 1, 'the French not-found page data');
      assert.equal(tab.pageData('/404.html').length, 0, 'not the English one');
      await until(() => tab.requests.some((r) => r.method === 'HEAD' && r.path === '/fr/pas-de-page/'), 'HEAD /fr/pas-de-page/');
    }));

  const invalid200: { name: string; contentType: string; body: string }[] = [
    { name: 'HTML (a host that answers every URL with index.html)', contentType: 'text/html; charset=utf-8', body: '<!DOCTYPE html><html><body><h1>Index</h1></body></html>' },
    { name: 'JSON without a path field', contentType: 'application/json', body: JSON.stringify({ componentChunkName: 'component---templates-page-tsx', result: {} }) },
  ];
  for (const variant of invalid200) {
    test(`invalid 200 (${variant.name}) is treated as 404`, { timeout: 20_000 }, () =>
      withTab('/', async (tab) => {
        await tab.page.route(pageDataGlob('/no-such-page/'), (route) => route.fulfill({ status: 200, contentType: variant.contentType, body: variant.body }));
        await tab.mark();
        // No hover first: a prefetch would ask for the page data too, and the count would include it.
        await (await tab.insertLink('/no-such-page/')).dispatchEvent('click');
        const state = await tab.waitForPage('/no-such-page/', site.h1('/404.html'));
        assert.ok(state.marked, 'the not-found page rendered client-side');
        assert.equal(tab.pageData('/no-such-page/').length, 1, 'a 200 is never retried');
        await until(() => tab.requests.some((r) => r.method === 'HEAD' && r.path === '/no-such-page/'), 'HEAD /no-such-page/');
        assert.equal(tab.documents().length, 1);
      }));
  }

  test('404 whose HEAD answers 200: a full browser load of the address', { timeout: 20_000 }, () =>
    withTab('/', async (tab) => {
      const html = '<!DOCTYPE html><html lang="en"><head><title>Only HTML</title></head><body><h1>Only HTML</h1></body></html>';
      await tab.page.route('**/only-html/', (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
      await tab.mark();
      await (await tab.insertLink('/only-html/')).dispatchEvent('click');
      await tab.waitForFullLoad('/only-html/', { boot: false });
      const state = await tab.state();
      assert.equal(state.h1, 'Only HTML');
      assert.ok(!state.marked, 'a full load');
      const head = tab.requests.find((r) => r.method === 'HEAD' && r.path === '/only-html/');
      const doc = tab.documents().find((r) => r.path === '/only-html/');
      assert.ok(head && doc && head.at <= doc.at, 'HEAD first, then the full load');
      assert.equal(tab.pageData('/only-html/').length, 1);
    }));

  test('500: no retry, a full browser navigation to the address', { timeout: 20_000 }, () =>
    withTab('/', async (tab) => {
      await tab.page.route(pageDataGlob(UNLINKED), (route) => route.fulfill({ status: 500, body: 'boom' }));
      await tab.mark();
      await (await tab.insertLink(`${UNLINKED}?q=growth#results`)).dispatchEvent('click');
      await tab.waitForFullLoad(UNLINKED);
      const state = await tab.state();
      assert.ok(!state.marked, 'a full load');
      assert.equal(state.h1, site.h1(UNLINKED));
      assert.equal(state.search, '?q=growth', 'the full load keeps the query');
      assert.equal(tab.pageData(UNLINKED).length, 1, '500 is not retried');
      assert.equal(tab.documents().length, 2);
    }));

  const retried: { name: string; answer: (route: Route) => Promise<void> }[] = [
    { name: '503', answer: (route) => route.fulfill({ status: 503, body: 'busy' }) },
    { name: '429', answer: (route) => route.fulfill({ status: 429, body: 'slow down' }) },
    { name: 'a network failure', answer: (route) => route.abort('connectionreset') },
  ];
  for (const { name, answer } of retried) {
    test(`${name}: retried 3 times (4 requests), then a full browser navigation`, { timeout: 20_000 }, () =>
      withTab('/', async (tab) => {
        await tab.page.route(pageDataGlob(UNLINKED_2), answer);
        await tab.mark();
        await (await tab.insertLink(UNLINKED_2)).dispatchEvent('click');
        await tab.waitForFullLoad(UNLINKED_2);
        const state = await tab.state();
        assert.ok(!state.marked, 'a full load');
        assert.equal(state.h1, site.h1(UNLINKED_2));
        assert.equal(tab.pageData(UNLINKED_2).length, 4, 'one request and 3 retries');
      }));
  }

  test('a retry that succeeds renders client-side', { timeout: 20_000 }, () =>
    withTab('/', async (tab) => {
      let calls = 0;
      await tab.page.route(pageDataGlob(UNLINKED_2), (route) => (++calls <= 2 ? route.fulfill({ status: 503, body: 'busy' }) : route.continue()));
      await tab.mark();
      await (await tab.insertLink(UNLINKED_2)).dispatchEvent('click');
      const state = await tab.waitForPage(UNLINKED_2, site.h1(UNLINKED_2));
      assert.ok(state.marked, 'client-side');
      assert.equal(tab.pageData(UNLINKED_2).length, 3);
      assert.equal(state.announcer, `Navigated to ${site.h1(UNLINKED_2)}`);
      assert.equal(tab.documents().length, 1);
    }));

  test('a new build hash on navigation: a full load of the target', { timeout: 20_000 }, () =>
    withTab('/', async (tab) => {
      // Answered, not only sent: a navigation shares a check still in flight, and would read its (current) hash.
      await tab.buildChecked();
      let served = 0;
      // Once: the full load that follows then finds the current hash and stays.
      await tab.page.route('**/page-data/app-data.json', (route) =>
        served++ === 0 ? route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ webpackCompilationHash: 'a-newer-deploy' }) }) : route.continue(),
      );
      await tab.mark();
      await tab.page.locator('.main-nav a[href="/portfolio/"]').click();
      await tab.waitForFullLoad('/portfolio/');
      const state = await tab.state();
      assert.ok(!state.marked, 'a full load');
      assert.equal(state.h1, site.h1('/portfolio/'));
      assert.deepEqual(
        tab.documents().map((r) => r.path),
        ['/', '/portfolio/'],
      );
    }, { init: [WATCH_APP_DATA] }));

  test('a new build hash on the first load: one reload per session, never a loop', { timeout: 20_000 }, async () => {
    const tab = await Tab.open(browser.context, site, '/', {
      boot: false,
      before: (page: Page) =>
        page.route('**/page-data/app-data.json', (route) =>
          route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ webpackCompilationHash: 'a-newer-deploy' }) }),
        ),
    });
    try {
      await until(() => tab.documents().length >= 2, 'the reload');
      await tab.booted();
      await sleep(1500);
      assert.deepEqual(
        tab.documents().map((r) => r.path),
        ['/', '/'],
        'exactly one reload although the hash still differs',
      );
      assert.ok(await tab.page.evaluate((key) => sessionStorage.getItem(key), RELOAD_GUARD), `sessionStorage ${RELOAD_GUARD} is set`);
      assert.equal((await tab.state()).h1, site.h1('/'), 'the page works after the reload');
    } finally {
      await tab.close();
    }
  });

  test('a static query that cannot be loaded: console error, then a full load', { timeout: 20_000 }, () =>
    withTab(
      '/',
      async (tab) => {
        await tab.mark();
        // French pages use other static queries (their UI strings) than the English home page.
        await tab.page.locator('.language-switcher a[href="/fr/"]').click();
        await tab.waitForFullLoad('/fr/');
        const state = await tab.state();
        assert.ok(!state.marked, 'a full load');
        assert.equal(state.h1, site.h1('/fr/'));
        assert.equal(state.lang, 'fr-CA');
        const message = tab.consoleErrors().find((text) => text.startsWith('We couldn\'t load "/page-data/sq/d/'));
        assert.ok(message, `console error about the static query, got: ${JSON.stringify(tab.consoleErrors())}`);
        assert.match(message, /^We couldn't load "\/page-data\/sq\/d\/\d+\.json"/);
        const file = /"(\/page-data\/sq\/d\/\d+\.json)"/.exec(message)![1]!;
        assert.ok(tab.requests.some((r) => r.path === file), `${file} was requested`);
        assert.ok(!site.record('/').staticQueryHashes.some((h) => file.endsWith(`/${h}.json`)), 'a query the English page did not inline');
      },
      { before: (page) => page.route('**/page-data/sq/d/*.json', (route) => route.fulfill({ status: 500, body: 'no' })) },
    ));

  test('a record naming an unknown template chunk: console error, then a full load', { timeout: 20_000 }, () =>
    withTab(
      '/',
      async (tab) => {
        await tab.mark();
        await tab.page.locator('.main-nav a[href="/portfolio/"]').click();
        await tab.waitForFullLoad('/portfolio/');
        const state = await tab.state();
        assert.ok(!state.marked, 'a full load');
        assert.equal(state.h1, site.h1('/portfolio/'));
        assert.ok(
          tab.consoleErrors().some((text) => text.startsWith('We couldn\'t find the correct component chunk with the name "component---nope"')),
          `console: ${JSON.stringify(tab.consoleErrors())}`,
        );
      },
      {
        before: (page) =>
          page.route(pageDataGlob('/portfolio/'), async (route) => {
            const real = await route.fetch();
            const record = (await real.json()) as { componentChunkName: string };
            record.componentChunkName = 'component---nope';
            await route.fulfill({ response: real, body: JSON.stringify(record) });
          }),
      },
    ));

  test('a template chunk that fails to load: a full load of the route', { timeout: 20_000 }, async () => {
    let failing = true;
    const tab = await Tab.open(browser.context, site, '/', {
      before: async (page) => {
        page.on('request', (r) => {
          if (r.isNavigationRequest() && new URL(r.url()).pathname === '/portfolio/') failing = false;
        });
        await page.route(/\/static\/chunks\/portfolio\.[^/]+\.js$/, (route) => (failing ? route.abort('failed') : route.continue()));
      },
    });
    try {
      await tab.mark();
      await tab.page.locator('.main-nav a[href="/portfolio/"]').click();
      await tab.waitForFullLoad('/portfolio/');
      const state = await tab.state();
      assert.ok(!state.marked, 'a full load');
      assert.equal(state.h1, site.h1('/portfolio/'));
      const documents = tab.documents();
      assert.deepEqual(
        documents.map((r) => r.path),
        ['/', '/portfolio/'],
      );
      const failed = tab.requests.filter((r) => /^\/static\/chunks\/portfolio\./.test(r.path) && r.request.failure());
      assert.ok(failed.length > 0 && failed.every((r) => r.at <= documents[1]!.at), 'setup: the chunk failed to load before the full load');
    } finally {
      await tab.close();
    }
  });

  test('a first load without page resources logs, does not render React, and the HTML stays usable', { timeout: 20_000 }, async () => {
    const html = site.html('/').replace(/<script type="application\/json" id="__IR_(PAGE_DATA|STATIC_QUERIES)__">[\s\S]*?<\/script>/g, '');
    assert.ok(!html.includes('__IR_PAGE_DATA__'), 'the inline JSON is removed');
    const tab = await Tab.open(browser.context, site, '/x/', {
      boot: false,
      before: (page) => page.route('**/x/', (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html })),
    });
    try {
      await until(() => tab.consoleErrors().includes('page resources for /x/ not found. Not rendering React'), 'the console error');
      await sleep(300);
      const state = await tab.state();
      assert.equal(state.h1, site.h1('/'), 'the server-rendered HTML is shown');
      assert.equal(state.historyKey, null, 'no router started');
      assert.equal(tab.pageData().length, 0, 'nothing prefetched');
      assert.deepEqual(tab.pageErrors, []);
      // Links are plain links: the browser loads the next page, which runs normally.
      await tab.page.locator('.main-nav a[href="/portfolio/"]').click();
      await tab.waitForFullLoad('/portfolio/');
      assert.equal((await tab.state()).h1, site.h1('/portfolio/'));
    } finally {
      await tab.close();
    }
  });

  const recordDelayed = (name: string) => {
    const w = window as unknown as { __delayed: { at: number; custom: boolean }[]; __clickAt: number };
    w.__delayed = [];
    addEventListener(name, (event) => w.__delayed.push({ at: performance.now(), custom: event instanceof CustomEvent }));
    document.addEventListener('click', () => (w.__clickAt = performance.now()), true);
  };
  const delayedEvents = (tab: Tab) =>
    tab.page.evaluate(() => {
      const w = window as unknown as { __delayed: { at: number; custom: boolean }[]; __clickAt: number };
      return w.__delayed.map((d) => ({ after: d.at - w.__clickAt, custom: d.custom }));
    });

  test('"route update delayed" fires on window when a navigation takes more than 1000 ms', { timeout: 20_000 }, () =>
    withTab(
      '/',
      async (tab) => {
        await tab.page.route(pageDataGlob(UNLINKED_3), async (route) => {
          await sleep(1600);
          await route.continue();
        });
        await tab.mark();
        await (await tab.insertLink(UNLINKED_3)).click();
        // Not before 1000 ms: judged in the page's clock (below), not by a sleep here, which a
        // loaded machine stretches past the event (seen: the check ran 1016 ms after the click).
        const state = await tab.waitForPage(UNLINKED_3, site.h1(UNLINKED_3));
        assert.ok(state.marked, 'still a client navigation');
        const events = await delayedEvents(tab);
        assert.equal(events.length, 1, 'once');
        assert.ok(events[0]!.custom, 'a CustomEvent');
        assert.ok(events[0]!.after >= 950 && events[0]!.after < 2500, `about 1000 ms after the click (${events[0]!.after} ms)`);
      },
      { init: [script(recordDelayed, DELAYED_EVENT)] },
    ));

  // RUNTIME.md: "1000 ms after a navigation starts, if it has not finished, fire a 'route
  // update delayed' event": from the start, the redirect rules' first fetch included.
  test('"route update delayed" counts from the click, while the redirect rules are still loading', { timeout: 20_000 }, () =>
    withTab(
      '/',
      async (tab) => {
        await tab.mark();
        // A click event without a hover: a prefetched page is known, and skips the rules.
        await (await tab.insertLink(UNLINKED_3)).dispatchEvent('click');
        const state = await tab.waitForPage(UNLINKED_3, site.h1(UNLINKED_3));
        assert.ok(state.marked, 'a client navigation');
        const rules = tab.requests.filter((r) => r.path === '/page-data/redirects.json');
        assert.equal(rules.length, 1, 'setup: the navigation fetched the redirect rules');
        const events = await delayedEvents(tab);
        assert.equal(events.length, 1, 'once, although the page data itself came at once');
        assert.ok(events[0]!.after >= 950 && events[0]!.after < 2000, `about 1000 ms after the click, not after the rules came (${events[0]!.after} ms)`);
      },
      {
        init: [script(recordDelayed, DELAYED_EVENT)],
        before: (page) =>
          page.route('**/page-data/redirects.json', async (route) => {
            await sleep(2500);
            await route.continue();
          }),
      },
    ));

  // RUNTIME.md: the event fires "if it has not finished" (a hook for a progress bar, which the
  // route update hides): a navigation a later one overtook never finishes, and never fires it.
  test('"route update delayed" never fires for a navigation overtaken by a later one', { timeout: 20_000 }, () =>
    withTab(
      '/',
      async (tab) => {
        let slowAnswered = false;
        await tab.page.route(pageDataGlob(UNLINKED_3), async (route) => {
          await sleep(2000);
          await route.continue();
          slowAnswered = true;
        });
        await tab.page.evaluate((name) => {
          const w = window as unknown as { __events: { name: string; path: string; at: number }[] };
          w.__events = [];
          for (const type of [name, 'ir-site:route-update']) {
            addEventListener(type, (event) => w.__events.push({ name: type, path: (event as CustomEvent<{ path: string }>).detail.path, at: performance.now() }));
          }
        }, DELAYED_EVENT);
        await tab.mark();
        const slow = await tab.insertLink(UNLINKED_3);
        const fast = await tab.insertLink(UNLINKED_2);
        await slow.dispatchEvent('click');
        await until(() => tab.pageData(UNLINKED_3).length > 0, 'the slow page-data request');
        await fast.dispatchEvent('click');
        const state = await tab.waitForPage(UNLINKED_2, site.h1(UNLINKED_2));
        assert.ok(state.marked, 'a client navigation');
        // Past the slow navigation's 1000 ms, and its page data has come (and been dropped).
        await until(() => slowAnswered, 'the slow page data');
        await sleep(200);
        assert.equal((await tab.state()).path, UNLINKED_2, 'the later navigation won');
        const events = await tab.page.evaluate(() => (window as unknown as { __events: { name: string; path: string; at: number }[] }).__events);
        const rendered = events.find((e) => e.name === 'ir-site:route-update' && e.path === UNLINKED_2);
        assert.ok(rendered, `the later page's route update: ${JSON.stringify(events)}`);
        assert.deepEqual(
          events.filter((e) => e.name === DELAYED_EVENT && (e.path === UNLINKED_3 || e.at > rendered.at)),
          [],
          'no delayed event for the overtaken navigation, nor any after the later one rendered',
        );
      },
    ));

  test('"route update delayed" does not fire for a fast navigation', { timeout: 20_000 }, () =>
    withTab(
      '/',
      async (tab) => {
        await tab.mark();
        await tab.page.locator('.main-nav a[href="/portfolio/"]').click();
        await tab.waitForPage('/portfolio/', site.h1('/portfolio/'));
        await sleep(1100);
        assert.deepEqual(await delayedEvents(tab), []);
      },
      { init: [script(recordDelayed, DELAYED_EVENT)] },
    ));
});
