// RUNTIME.md "Prefetch", in Chromium against the demo site served by `ir-site serve`:
// links entering the viewport prefetch their page data and template chunk in idle-time
// batches, hover and focus prefetch at once, each URL once, none of it in viewport mode on
// data saver, 2g or for crawlers; and a prefetched page navigates without a page-data request.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chunkPattern, pageDataPath, script, skip, sleep, Tab, templateOf, until, withSiteAndBrowser, type Browser, type BuiltSite } from './runtime-harness.js';

const HEADER_LINKS = ['/', '/insights/', '/news-and-events/', '/portfolio/', '/financial-reports/', '/your-team/', '/henris-corner/', '/fr/terms-of-use/'];

// Every test has its own tab: they run side by side (most of the time goes in waiting).
describe('runtime: prefetch', { skip, concurrency: 3 }, () => {
  let site: BuiltSite;
  let browser: Browser;

  withSiteAndBrowser((built, opened) => ((site = built), (browser = opened)));

  /** Page-data paths of the page-data requests, in order, as site paths. */
  const prefetchedPaths = (tab: Tab) =>
    tab.pageData().map((r) => {
      const p = r.path.replace(/^\/page-data\//, '').replace(/\/page-data\.json$/, '');
      return p === 'index' ? '/' : p.endsWith('.html') ? `/${p}` : `/${p}/`;
    });

  const linksInViewport = (tab: Tab) =>
    tab.page.evaluate(() =>
      [...document.querySelectorAll('#___gatsby a[href]')]
        .filter((a) => {
          const r = a.getBoundingClientRect();
          return r.bottom > 0 && r.top < innerHeight && r.width > 0;
        })
        .map((a) => a.getAttribute('href')),
    );

  test('links entering the viewport prefetch page data and template chunk, at most 4 per batch, each URL once', { timeout: 30_000 }, async () => {
    // A short window scrolled to a stretch of the terms of use that holds no link.
    const tab = await Tab.open(browser.context, site, '/terms-of-use/', {
      before: (p) => p.setViewportSize({ width: 1280, height: 300 }),
      init: [
        () =>
          document.addEventListener('DOMContentLoaded', () => {
            history.scrollRestoration = 'manual';
            scrollTo(0, 900);
          }),
      ],
    });
    try {
      assert.deepEqual(await linksInViewport(tab), [], 'setup: no link on screen');
      await sleep(1000);
      assert.deepEqual(prefetchedPaths(tab), [], 'links off screen are not prefetched');

      await tab.page.evaluate(() => scrollTo(0, 0));
      const visible = await linksInViewport(tab);
      assert.deepEqual([...new Set(visible)].filter((h) => h !== '#main-content').sort(), [...HEADER_LINKS].sort(), 'setup: the header is on screen');
      const firstBatch = await until(() => (tab.pageData().length > 0 ? tab.pageData() : null), 'the first batch');
      await sleep(1500);
      const batch = tab.pageData();
      assert.ok(batch.length >= 1 && batch.length <= 4, `at most 4 in a batch (got ${batch.length})`);
      for (const p of prefetchedPaths(tab)) assert.ok(HEADER_LINKS.includes(p), `${p} was a link that entered the viewport`);

      // The rest of the header links come in later batches, not at once.
      await until(() => tab.pageData().length > batch.length, 'the next batch', 5000);
      const next = tab.pageData()[batch.length]!;
      assert.ok(next.at - firstBatch[0]!.at >= 2500, `batches are spaced (${next.at - firstBatch[0]!.at} ms)`);

      // Each prefetched page's template chunk is loaded with its data (the current template's is loaded already):
      // asked for once the record has come, which the request just seen has not yet.
      const paths = prefetchedPaths(tab);
      for (const p of paths) {
        const template = templateOf(site.record(p).componentChunkName);
        if (template === 'page') continue;
        await until(
          () => tab.requests.some((r) => chunkPattern(template).test(r.path)),
          `the ${template} chunk for ${p} (chunks: ${tab.requests.filter((r) => r.path.startsWith('/static/chunks/')).map((r) => r.path).join(', ')})`,
          3000,
        );
      }
      assert.equal(new Set(paths).size, paths.length, 'no URL twice');

      // Hover and focus on a link already prefetched: nothing new for it.
      const link = tab.page.locator(`#___gatsby a[href="${paths[0]}"]`).first();
      await link.hover();
      await link.focus();
      await sleep(300);
      assert.equal(tab.pageData(paths[0]!).length, 1, `${paths[0]} once`);
      const all = prefetchedPaths(tab);
      assert.equal(new Set(all).size, all.length, 'no URL twice');
    } finally {
      await tab.close();
    }
  });

  test('hover and focus prefetch at once, once per URL; the navigation then needs no page-data request', { timeout: 20_000 }, async () => {
    // When the pointer or the focus reached each test link, in the page's clock.
    const tab = await Tab.open(browser.context, site, '/', {
      init: [
        () => {
          const w = window as unknown as { __intent: Record<string, number> };
          w.__intent = {};
          for (const type of ['mouseover', 'focusin']) {
            document.addEventListener(type, (event) => {
              const id = (event.target as Element | null)?.id;
              if (id && !((`${type}:${id}`) in w.__intent)) w.__intent[`${type}:${id}`] = performance.now();
            }, true);
          }
        },
      ],
    });
    /** ms from the intent to the start of the page-data request (resource timing, the page's clock). */
    const delay = (intent: string, sitePath: string) =>
      tab.page.evaluate(
        ({ intent, url }) => {
          const start = performance.getEntriesByName(url)[0]?.startTime;
          const at = (window as unknown as { __intent: Record<string, number> }).__intent[intent];
          return start === undefined || at === undefined ? null : start - at;
        },
        { intent, url: `${site.url}${pageDataPath(sitePath)}` },
      );
    try {
      // Links the page did not render are not watched for the viewport: only intent loads them.
      const search = await tab.insertLink('/search/');
      const bio = await tab.insertLink('/your-team/hmercier/');
      const [searchId, bioId] = [await search.getAttribute('id'), await bio.getAttribute('id')];
      await sleep(200);
      assert.deepEqual(tab.pageData('/search/'), [], 'setup: not prefetched before the hover');
      await search.hover();
      await until(() => tab.pageData('/search/')[0], 'the hover prefetch', 3000);
      const afterHover = await until(() => delay(`mouseover:${searchId}`, '/search/'), 'the request timing', 3000);
      assert.ok(afterHover >= 0 && afterHover < 300, `at once (${afterHover.toFixed(0)} ms after the pointer arrived)`);
      await until(() => tab.requests.some((r) => chunkPattern('search').test(r.path)), 'the search template chunk', 3000);

      await bio.focus();
      await until(() => tab.pageData('/your-team/hmercier/')[0], 'the focus prefetch', 3000);
      const afterFocus = await until(() => delay(`focusin:${bioId}`, '/your-team/hmercier/'), 'the request timing', 3000);
      assert.ok(afterFocus >= 0 && afterFocus < 300, `at once (${afterFocus.toFixed(0)} ms after the focus)`);
      await until(() => tab.requests.some((r) => chunkPattern('bio').test(r.path)), 'the bio template chunk', 3000);

      // Again: nothing new.
      await bio.hover();
      await search.focus();
      await search.hover();
      await sleep(400);
      assert.equal(tab.pageData('/search/').length, 1);
      assert.equal(tab.pageData('/your-team/hmercier/').length, 1);

      const before = tab.requests.length;
      await tab.mark();
      await search.click();
      const state = await tab.waitForPage('/search/', site.h1('/search/'));
      assert.ok(state.marked, 'a client navigation');
      const during = tab.requests.slice(before);
      assert.deepEqual(
        during.filter((r) => r.path.startsWith('/page-data/') && r.path !== '/page-data/app-data.json' && r.path.endsWith('/search/page-data.json')),
        [],
        'no page-data request for the prefetched page',
      );
      assert.ok(!during.some((r) => chunkPattern('search').test(r.path)), 'nor its chunk');
    } finally {
      await tab.close();
    }
  });

  // RUNTIME.md: "A link prefetches its target's page data (and its template chunk) when it enters
  // the viewport": links a page renders later (search results) as well as those of the route render.
  test('links the page adds after its render (search results) are prefetched when in the viewport', { timeout: 20_000 }, async () => {
    // A short window on the search box, where no link is: the viewport queue has nothing to do.
    const tab = await Tab.open(browser.context, site, '/search/', {
      before: (p) => p.setViewportSize({ width: 1280, height: 300 }),
      init: [
        () =>
          document.addEventListener('DOMContentLoaded', () => {
            history.scrollRestoration = 'manual';
            scrollTo(0, 250);
          }),
      ],
    });
    try {
      assert.deepEqual(await linksInViewport(tab), [], 'setup: no link on screen');
      await sleep(500);
      assert.deepEqual(prefetchedPaths(tab), [], 'setup: nothing prefetched');
      // Typed without a pointer: no hover on any result.
      await tab.page.locator('#search-input').fill('commentary');
      const result = tab.page.locator('#___gatsby .search-result a[href^="/article/"]').first();
      await result.scrollIntoViewIfNeeded();
      const href = (await result.getAttribute('href'))!;
      assert.ok((await linksInViewport(tab)).includes(href), `setup: the result ${href} is on screen`);
      await until(() => tab.pageData(href).length > 0, `the page data of ${href}`, 5000);
      await until(() => tab.requests.some((r) => chunkPattern(templateOf(site.record(href).componentChunkName)).test(r.path)), 'its template chunk', 3000);
    } finally {
      await tab.close();
    }
  });

  const connection = (c: { saveData: boolean; effectiveType: string }) =>
    script((value) => Object.defineProperty(navigator, 'connection', { configurable: true, get: () => value }), c);
  const slowOrSaving: { name: string; init: string; check: string }[] = [
    {
      name: 'navigator.connection.saveData',
      init: connection({ saveData: true, effectiveType: '4g' }),
      check: 'navigator.connection.saveData === true',
    },
    {
      name: 'effectiveType 2g',
      init: connection({ saveData: false, effectiveType: '2g' }),
      check: "navigator.connection.effectiveType === '2g'",
    },
    {
      name: 'effectiveType slow-2g',
      init: connection({ saveData: false, effectiveType: 'slow-2g' }),
      check: "navigator.connection.effectiveType === 'slow-2g'",
    },
    {
      name: 'a bot user agent',
      init: script(
        (ua) => Object.defineProperty(navigator, 'userAgent', { configurable: true, get: () => ua }),
        'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      ),
      check: "navigator.userAgent.includes('Googlebot')",
    },
  ];
  // Independent tabs that mostly wait: run side by side.
  describe('data saver, slow connections and crawlers', { concurrency: true }, () => {
    for (const { name, init, check } of slowOrSaving) {
      test(`${name}: no viewport prefetch, but hover still prefetches`, { timeout: 20_000 }, async () => {
        const tab = await Tab.open(browser.context, site, '/', { init: [init] });
        try {
          assert.equal(await tab.page.evaluate(check), true, `setup: ${check}`);
          assert.ok((await linksInViewport(tab)).length > 4, 'setup: links on screen');
          await sleep(1200);
          assert.deepEqual(prefetchedPaths(tab), [], 'nothing prefetched for the viewport');
          await tab.page.locator('.main-nav a[href="/portfolio/"]').hover();
          await until(() => tab.pageData('/portfolio/').length === 1, 'the hover prefetch', 2000);
          await until(() => tab.requests.some((r) => chunkPattern('portfolio').test(r.path)), 'the portfolio chunk', 2000);
          await tab.mark();
          const before = tab.pageData().length;
          await tab.page.locator('.main-nav a[href="/portfolio/"]').click();
          const state = await tab.waitForPage('/portfolio/', site.h1('/portfolio/'));
          assert.ok(state.marked);
          assert.equal(tab.pageData('/portfolio/').length, 1, 'the navigation used the prefetched data');
          // The new page's links are not prefetched for the viewport either.
          await sleep(800);
          assert.equal(tab.pageData().length, before);
        } finally {
          await tab.close();
        }
      });
    }
  });
});
