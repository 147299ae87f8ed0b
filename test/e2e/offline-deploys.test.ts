// A new deploy in Debian's Chromium (docs/offline.md, "Deploys: never hidden"): a copy of
// the minimal fixture is rebuilt into the folder `ir-site serve` serves while a tab shows
// the old deploy; the new deploy must show at the first navigation. With the worker, with a
// new worker that cannot install yet (a proxy holds /sw.js), and without any worker. Every
// test has its own site and browser profile.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { browserSkipReason, launchBrowser, type Browser } from './browser.js';
import { ACTIVATED_EVENT, CACHED_EVENT, DeployableSite, Tab, until, UPDATED_EVENT, WorkerHoldingProxy } from './offline-harness.js';

const skip = browserSkipReason();

describe('offline worker: a new deploy is never hidden behind the old one', { skip }, () => {
  let deploy: DeployableSite;
  let proxy: WorkerHoldingProxy;
  let browser: Browser;

  before(async () => {
    deploy = await DeployableSite.create('offline-hash');
    proxy = await WorkerHoldingProxy.start(deploy.site.port);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await proxy?.close();
    await deploy?.close();
  });

  test('rebuilt with a new hash: shown at the first navigation, then one full load when the new worker takes over, never the old content', { timeout: 90_000 }, async () => {
    const local = (sitePath: string) => `http://localhost:${proxy.port}${sitePath}`;
    const v1 = (await deploy.appData()).webpackCompilationHash;
    const tab = await Tab.open(browser, local('/'));
    await tab.booted();
    await tab.waitForEvent(CACHED_EVENT);
    assert.equal(await tab.buildHash(), v1);
    // Two client-side navigations under the old worker: the build-hash check passes through it.
    await tab.mark();
    await tab.click('/your-team/');
    await until(async () => (await tab.main()).includes('Our people.'), 'the team page');
    await tab.click('/');
    await until(async () => new URL(tab.page.url()).pathname === '/' && (await tab.h1()) === 'Welcome', 'the home page');
    assert.ok(await tab.stillSameDocument(), 'client-side navigations');
    // The old worker holds the old page data of the linked pages (prefetched, then cached).
    await until(async () => {
      const cached = await tab.cached('ir-site-page-data');
      return cached.includes('/page-data/insights/page-data.json') && cached.includes('/page-data/your-team/page-data.json');
    }, 'the linked pages in the worker cache');

    // A new deploy into the same served folder: new stylesheet (new build hash), new texts.
    // The new /sw.js is held until the page of the first navigation has started: a new worker
    // that installed and claimed the tab before that page's runtime ran would be its
    // controller from the start, and no update would be there to see (seen on a loaded CI machine).
    proxy.hold();
    await deploy.edit('templates/styles.css', 'body', '/* deploy 2 */\nbody');
    await deploy.edit('content/pages/insights/en.md', 'Our views.', 'Our views, second deploy.');
    await deploy.edit('content/pages/your-team/en.md', 'Our people.', 'Our people, second deploy.');
    await deploy.redeploy();
    const v2 = (await deploy.appData()).webpackCompilationHash;
    assert.notEqual(v2, v1, 'the rebuild has a new build hash');

    // Navigation 1 (a click on the old page): the new deploy, at once.
    await tab.click('/insights/');
    await until(async () => (await tab.buildHash()) === v2, 'the new build on the first navigation');
    assert.equal(new URL(tab.page.url()).pathname, '/insights/');
    assert.ok((await tab.main()).includes('Our views, second deploy.'), 'the new text');

    // The browser asks for the new sw.js after that navigation; the new worker installs over the old one.
    await tab.booted();
    proxy.release();
    await tab.waitForEvent(UPDATED_EVENT, 30_000);
    assert.deepEqual(tab.logs('error'), [], `no console error: ${JSON.stringify(tab.console)}`);

    // Navigation 2: a full load (the rule after an update), still the new deploy.
    await tab.booted();
    await tab.mark();
    const documents = tab.documents;
    await tab.click('/bobs-corner/');
    await until(async () => new URL(tab.page.url()).pathname === '/bobs-corner/' && (await tab.h1()) !== 'Insights', 'the column page');
    await tab.booted();
    assert.equal(tab.documents, documents + 1, 'a full page load');
    assert.ok(!(await tab.stillSameDocument()));
    assert.equal(await tab.buildHash(), v2);

    // Navigation 3: client-side again, and the page data the old worker had cached is not shown.
    await tab.mark();
    await tab.click('/your-team/');
    await until(async () => (await tab.main()).includes('Our people'), 'the team page');
    assert.ok((await tab.main()).includes('Our people, second deploy.'), 'the new text, not the old cached one');
    assert.ok(await tab.stillSameDocument(), 'a client-side navigation');
    assert.equal(await tab.buildHash(), v2);
  });
});

describe('a new deploy while its worker cannot install yet (a slow /sw.js), or without any worker', { skip }, () => {
  const TEAM = '/page-data/your-team/page-data.json';
  const BIO = '/page-data/your-team/jdoe/page-data.json';
  let deploy: DeployableSite | undefined;
  let proxy: WorkerHoldingProxy | undefined;
  let browser: Browser | undefined;

  after(async () => {
    await browser?.close();
    await proxy?.close();
    await deploy?.close();
  });

  /** A fresh site behind a /sw.js-holding proxy, a fresh browser, and a tab on the home page controlled by the first worker. */
  async function start(name: string): Promise<{ tab: Tab; local: (sitePath: string) => string }> {
    await browser?.close();
    await proxy?.close();
    await deploy?.close();
    deploy = await DeployableSite.create(name);
    proxy = await WorkerHoldingProxy.start(deploy.site.port);
    browser = await launchBrowser();
    const port = proxy.port;
    const local = (sitePath: string) => `http://localhost:${port}${sitePath}`;
    const tab = await Tab.open(browser, local('/'));
    await tab.booted();
    await tab.waitForEvent(CACHED_EVENT);
    return { tab, local };
  }

  test('content only (same build hash): the first navigation shows the new text, although the page was in memory and in the old worker', { timeout: 120_000 }, async () => {
    const { tab } = await start('offline-slow-content');
    const v1 = await deploy!.appData();
    await tab.mark();
    await tab.click('/your-team/');
    await until(async () => (await tab.main()).includes('Our people.'), 'the team page');
    await tab.click('/');
    await until(async () => (await tab.h1()) === 'Welcome', 'the home page');
    await until(async () => (await tab.cachedText('ir-site-page-data', TEAM))?.includes('Our people.'), 'the old worker holds the team record');

    await deploy!.edit('content/pages/your-team/en.md', 'Our people.', 'Our people, second deploy.');
    proxy!.hold();
    await deploy!.redeploy();
    const v2 = await deploy!.appData();
    assert.equal(v2.webpackCompilationHash, v1.webpackCompilationHash, 'setup: a content-only deploy keeps the build hash');
    assert.notEqual(v2.deploy, v1.deploy, 'setup: but it is a new deploy');

    // Navigation 1 after the deploy, client-side: the deployed text, neither the tab's memory nor the old worker's cache.
    await tab.click('/your-team/');
    await until(async () => (await tab.main()).includes('Our people'), 'the team page');
    assert.ok((await tab.main()).includes('Our people, second deploy.'), `the new text, got: ${await tab.main()}`);
    assert.ok(await tab.stillSameDocument(), 'a client-side navigation');
    // The browser asked for the new /sw.js (the runtime checks after a client navigation); it is held.
    await until(() => proxy!.heldRequests > 0, 'a held /sw.js request');
    assert.ok(!(await tab.events()).includes(UPDATED_EVENT), 'setup: the new worker could not install meanwhile');

    // The new worker installs once /sw.js answers, and replaces the one this page saw install:
    // the normal end of a worker, no console error. A request of this page (a prefetch, an
    // image) can reach the old worker while Chromium stops it for the hand-over, and start it
    // again; the restarted worker asks the new one to skip waiting again (sw.ts), which starts
    // the hand-over again. Without that the new one would wait here for 5 minutes (DevTools is
    // attached, so Chromium never stops the old worker for being idle).
    const workers = await tab.recordWorkers();
    await tab.page.evaluate(() => {
      (window as unknown as { __old: ServiceWorker | null }).__old = navigator.serviceWorker.controller;
    });
    proxy!.release();
    await tab.waitForEvent(UPDATED_EVENT);
    // Its state changes in the same task as its statechange event fires: the runtime has seen it.
    await until(
      () => tab.page.evaluate(() => (window as unknown as { __old: ServiceWorker | null }).__old?.state === 'redundant'),
      'the old worker to become redundant',
    ).catch(async (error: Error) => {
      const states = await tab.page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        const old = (window as unknown as { __old: ServiceWorker | null }).__old;
        return { old: old?.state, controller: navigator.serviceWorker.controller?.state, same: old === navigator.serviceWorker.controller, active: registration?.active?.state, waiting: registration?.waiting?.state, installing: registration?.installing?.state };
      });
      throw new Error(`${error.message}; workers: ${JSON.stringify(states)}; events: ${JSON.stringify(await tab.events())}; versions: ${workers.join(', ')}`);
    });
    await until(async () => (await tab.events()).filter((e) => e === ACTIVATED_EVENT).length === 2, 'the successor to activate too');
    assert.deepEqual(tab.logs('error'), [], `no console error: ${JSON.stringify(tab.console)}`);
  });

  test('a new build hash: the old worker drops what it cached before the full load, and the next client-side navigations show the new deploy', { timeout: 120_000 }, async () => {
    const { tab } = await start('offline-slow-hash');
    const v1 = (await deploy!.appData()).webpackCompilationHash;
    await tab.click('/your-team/');
    await until(async () => (await tab.main()).includes('Our people.'), 'the team page');
    await tab.page.hover('a[href="/your-team/jdoe/"]');
    await until(async () => (await tab.cachedText('ir-site-page-data', BIO))?.includes('Bio of jdoe.'), 'the old worker holds the bio record');

    await deploy!.edit('templates/styles.css', 'body', '/* deploy 2 */\nbody');
    await deploy!.edit('content/pages/your-team/en.md', 'Our people.', 'Our people, second deploy.');
    await deploy!.edit('content/team/jdoe/en.md', 'Bio of jdoe.', 'Bio of jdoe, second deploy.');
    proxy!.hold();
    await deploy!.redeploy();
    const v2 = (await deploy!.appData()).webpackCompilationHash;
    assert.notEqual(v2, v1, 'setup: a new build hash');

    // Navigation 1: the new build hash, a full load of the new deploy, under the old worker.
    await tab.click('/insights/');
    await until(async () => (await tab.buildHash()) === v2, 'the new build on the first navigation');
    await tab.booted();
    await until(() => proxy!.heldRequests > 0, 'a held /sw.js request');
    assert.ok(!(await tab.events()).includes(UPDATED_EVENT), 'setup: the old worker still controls the page');
    // The bio (not linked from here, so not prefetched again) is not left behind in the old build's version.
    const bio = await tab.cachedText('ir-site-page-data', BIO);
    assert.ok(bio === null || !bio.includes('Bio of jdoe.'), 'the old worker dropped the old record (it still holds "Bio of jdoe.")');

    // Navigation 2 and 3, client-side under the old worker: the new deploy's records.
    await tab.mark();
    await tab.click('/your-team/');
    await until(async () => (await tab.main()).includes('Our people'), 'the team page');
    assert.ok((await tab.main()).includes('Our people, second deploy.'), `the new text, got: ${await tab.main()}`);
    await tab.click('/your-team/jdoe/');
    await until(async () => (await tab.main()).includes('Bio of jdoe'), 'the bio page');
    assert.ok((await tab.main()).includes('Bio of jdoe, second deploy.'), `the new bio, got: ${await tab.main()}`);
    assert.ok(await tab.stillSameDocument(), 'client-side navigations');
    assert.equal(await tab.buildHash(), v2);
    proxy!.release();
  });

  test('no worker at all: a content-only deploy shows at the first navigation to a page the tab holds in memory', { timeout: 90_000 }, async () => {
    await browser?.close();
    await proxy?.close();
    await deploy?.close();
    proxy = undefined;
    deploy = await DeployableSite.create('offline-none');
    browser = await launchBrowser({ serviceWorkers: 'block' });
    const tab = await Tab.open(browser, `http://localhost:${deploy.site.port}/`);
    await tab.booted();
    await tab.mark();
    await tab.click('/your-team/');
    await until(async () => (await tab.main()).includes('Our people.'), 'the team page');
    await tab.click('/');
    await until(async () => (await tab.h1()) === 'Welcome', 'the home page');

    await deploy.edit('content/pages/your-team/en.md', 'Our people.', 'Our people, second deploy.');
    await deploy.redeploy();
    await tab.click('/your-team/');
    await until(async () => (await tab.main()).includes('Our people'), 'the team page');
    assert.ok((await tab.main()).includes('Our people, second deploy.'), `the new text, got: ${await tab.main()}`);
    assert.ok(await tab.stillSameDocument(), 'a client-side navigation');
    assert.equal(await tab.controller(), null, 'setup: no worker');
  });
});

describe('offline after a deploy: the newest copy of a page the device holds, with its own styles', { skip }, () => {
  const TEAM = '/page-data/your-team/page-data.json';
  let deploy: DeployableSite | undefined;
  let browser: Browser | undefined;

  after(async () => {
    await browser?.close();
    await deploy?.close();
  });

  /** A fresh site and browser, a tab on the home page controlled by the first worker. */
  async function start(name: string): Promise<{ site: DeployableSite; tab: Tab; local: (sitePath: string) => string }> {
    await browser?.close();
    await deploy?.close();
    const site = await DeployableSite.create(name);
    deploy = site;
    browser = await launchBrowser();
    const local = (sitePath: string) => `http://localhost:${site.site.port}${sitePath}`;
    const tab = await Tab.open(browser, local('/'));
    await tab.booted();
    await tab.waitForEvent(CACHED_EVENT);
    return { site, tab, local };
  }

  /** The new deploy's worker installs over the one that controls the tab, and activates (no navigation). */
  async function updateWorker(tab: Tab): Promise<void> {
    const activated = async () => (await tab.events()).filter((e) => e === ACTIVATED_EVENT).length;
    const before = await activated();
    await tab.page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await tab.waitForEvent(UPDATED_EVENT, 30_000);
    await until(async () => (await activated()) > before, 'the new worker to activate', 30_000);
  }

  // docs/offline.md: "a new deploy is never hidden behind an old one for more than one
  // navigation", and offline the worker keeps "every page they have seen". A page loaded in
  // full under deploy 1, then seen client-side under deploy 2 (its record of deploy 2 cached),
  // opens offline with deploy 2's text, rendered in the shell, not deploy 1's cached HTML.
  test('a page loaded in full under deploy 1, then visited client-side under deploy 2, opens offline with deploy 2\'s text', { timeout: 120_000 }, async () => {
    const { site, tab, local } = await start('offline-after-deploy');
    const v1 = await site.appData();
    // Deploy 1: the team page loaded in full, its HTML cached by worker 1.
    await tab.page.goto(local('/your-team/'), { waitUntil: 'load' });
    await until(async () => (await tab.cachedText('ir-site-pages', '/your-team/'))?.includes('Our people.'), "deploy 1's team page in ir-site-pages");
    await tab.page.goto(local('/'), { waitUntil: 'load' });
    await tab.booted();

    await site.edit('content/pages/your-team/en.md', 'Our people.', 'Our people, second deploy.');
    await site.redeploy();
    assert.notEqual((await site.appData()).deploy, v1.deploy, 'setup: a new deploy');
    await updateWorker(tab);

    // Deploy 2, online: the next navigation is a full load (after an update), then a client-side visit to the team page.
    await tab.page.goto(local('/'), { waitUntil: 'load' });
    await tab.booted();
    await tab.mark();
    await tab.click('/your-team/');
    await until(async () => (await tab.main()).includes('Our people'), 'the team page');
    assert.ok((await tab.main()).includes('Our people, second deploy.'), `setup: deploy 2's text online, got: ${await tab.main()}`);
    assert.ok(await tab.stillSameDocument(), 'setup: a client-side navigation');
    await until(async () => (await tab.cachedText('ir-site-page-data', TEAM))?.includes('Our people, second deploy.'), "deploy 2's team record in ir-site-page-data");
    assert.ok((await tab.cachedText('ir-site-pages', '/your-team/'))?.includes('Our people.'), "setup: deploy 1's HTML of the page is still cached");

    await browser!.context.setOffline(true);
    const team = await tab.page.goto(local('/your-team/'), { waitUntil: 'load' });
    assert.ok(team?.fromServiceWorker(), 'answered by the worker');
    assert.equal(team?.status(), 200);
    await until(async () => (await tab.main()).includes('Our people'), 'the team page, offline');
    assert.ok((await tab.main()).includes('Our people, second deploy.'), `deploy 2's text offline, not deploy 1's cached page; got: ${await tab.main()}`);
    assert.equal(await tab.h1(), 'Your team');
    assert.equal(new URL(tab.page.url()).pathname, '/your-team/');
  });

  // docs/offline.md: "`ir-site-static` holds only hashed, immutable names and is kept". A page
  // cached under the deploy before names that deploy's hashed stylesheet; offline, once the
  // browser's HTTP cache has let it go (cleared here, as eviction would), it still has it.
  test('a deploy with a new stylesheet: a page cached under deploy 1 opens offline with deploy 1\'s stylesheet', { timeout: 120_000 }, async () => {
    const { site, tab, local } = await start('offline-after-styles');
    const v1 = await site.appData();
    const stylesheet = 'link[rel="stylesheet"][href^="/static/styles."]';
    const oldCss = await tab.page.getAttribute(stylesheet, 'href');
    assert.ok(oldCss, 'setup: the page names its hashed stylesheet');
    // A document controlled by worker 1 from its start, its HTML cached by worker 1.
    await tab.page.goto(local('/'), { waitUntil: 'load' });
    await tab.booted();

    await site.edit('templates/styles.css', 'body', '/* deploy 2 */\nbody');
    await site.redeploy();
    assert.notEqual((await site.appData()).webpackCompilationHash, v1.webpackCompilationHash, 'setup: a new build hash');
    await updateWorker(tab);
    assert.ok(!(await tab.precached()).includes(oldCss), "setup: deploy 1's stylesheet left the precache");
    assert.ok((await tab.cached('ir-site-static')).includes(oldCss), `${oldCss} is kept in ir-site-static`);

    const cdp = await browser!.context.newCDPSession(tab.page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    await browser!.context.setOffline(true);
    const home = await tab.page.goto(local('/'), { waitUntil: 'load' });
    assert.ok(home?.fromServiceWorker(), 'answered by the worker');
    assert.equal(home?.status(), 200);
    assert.equal(await tab.buildHash(), v1.webpackCompilationHash, "setup: deploy 1's page, as cached");
    assert.equal(await tab.page.getAttribute(stylesheet, 'href'), oldCss);
    // A stylesheet that failed to load has no readable rules (reading them throws).
    const rules = await tab.page.$eval(stylesheet, (link) => {
      try {
        return (link as HTMLLinkElement).sheet?.cssRules.length ?? 0;
      } catch {
        return 0;
      }
    });
    assert.ok(rules > 0, `${oldCss} loaded offline`);
  });
});
