// A new deploy in Debian's Chromium, with the offline worker (docs/offline.md, "Deploys:
// never hidden"): a copy of the minimal fixture is rebuilt into the folder `ir-site serve`
// serves, while a tab shows the old deploy. Every test has its own site and browser profile.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { browserSkipReason, launchBrowser, type Browser } from './browser.js';
import { CACHED_EVENT, DeployableSite, Tab, until, UPDATED_EVENT } from './offline-harness.js';

const skip = browserSkipReason();

describe('offline worker: a new deploy is never hidden behind the old one', { skip }, () => {
  let deploy: DeployableSite;
  let browser: Browser;

  before(async () => {
    deploy = await DeployableSite.create('offline-hash');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await deploy?.close();
  });

  test('rebuilt with a new hash: shown at the first navigation, then one full load when the new worker takes over, never the old content', { timeout: 90_000 }, async () => {
    const local = (sitePath: string) => `http://localhost:${deploy.site.port}${sitePath}`;
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

    // The browser fetched the new sw.js on that navigation; the new worker installs over the old one.
    await tab.waitForEvent(UPDATED_EVENT);
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
