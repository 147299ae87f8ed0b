// Issue 20, points 1-4, as a visitor sees them in Debian's Chromium on the built demo served by
// `ir-site serve`: the header's search form (also without JavaScript), any `/search/<name>/`
// showing the search page (scoped, or whole-site with a note), English-only articles and
// French slugs reaching the English article, and any legacy `/cn/` path reaching its page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, launchBrowser, type Browser } from './browser.js';
import { withSiteAndBrowser, type BuiltSite } from './runtime-harness.js';

const skip = browserSkipReason();
const ENGLISH_ONLY = '/article/brightwater-to-present-at-new-york-closed-end-symposium-2024/';

describe('search everywhere, wildcards and redirects in the browser', { skip }, () => {
  let site: BuiltSite;
  let browser: Browser;

  withSiteAndBrowser((built, opened) => ((site = built), (browser = opened)), launchBrowser);

  async function open(sitePath: string, { javascript = true } = {}): Promise<Page> {
    const page = await browser.context.newPage();
    if (!javascript) await page.route('**/*.js', (route) => route.abort());
    await page.goto(`${site.url}${sitePath}`, { waitUntil: 'load' });
    return page;
  }

  /** Marks the document, so a later check can tell a client-side navigation from a full load. */
  const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __kept: boolean }).__kept = true));
  const kept = (page: Page) => page.evaluate(() => (window as unknown as { __kept?: boolean }).__kept === true);
  /** Waits until the runtime has hydrated the page (the router owns link clicks from then on). */
  const hydrated = (page: Page) => page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/static\/chunks\//.test(e.name)));

  async function clickLinkTo(page: Page, href: string): Promise<void> {
    await page.evaluate((h) => {
      document.getElementById('test-link')?.remove();
      const a = document.createElement('a');
      a.href = h;
      a.id = 'test-link';
      a.textContent = 'go';
      document.querySelector('main')!.append(a);
    }, href);
    await page.click('#test-link');
  }

  test('point 1: every page has a labelled search form in its header, in its language, that works without JavaScript', async () => {
    const page = await open('/fr/insights/', { javascript: false });
    const form = page.locator('header form[role="search"]');
    assert.equal(await form.getAttribute('method'), 'get');
    assert.equal(await form.getAttribute('action'), '/fr/search/');
    assert.equal(await form.getAttribute('aria-label'), 'Recherche rapide');
    assert.equal((await page.locator('label[for="site-search-q"]').textContent())?.trim(), 'Recherche rapide');
    await page.fill('#site-search-q', 'commentaire');
    await Promise.all([page.waitForURL(/\/fr\/search\/\?q=commentaire$/), page.press('#site-search-q', 'Enter')]);
    assert.equal(await page.locator('h1').textContent(), site.h1('/fr/search/'));
    await page.close();

    const english = await open('/your-team/', { javascript: false });
    assert.equal(await english.locator('header form[role="search"]').getAttribute('action'), '/search/');
    assert.equal(await english.locator('header form[role="search"] button').textContent(), 'Search');
    await english.close();
  });

  test('point 2: /search/<unknown>/ shows the search page, searches the whole site and says so', async () => {
    const page = await open('/search/no-such-section/?q=commentary');
    await page.locator('.search-scope--unknown').waitFor();
    assert.match((await page.locator('.search-scope--unknown').textContent()) ?? '', /no-such-section.*whole site/);
    await page.waitForFunction(() => /results? for/.test(document.querySelector('#search-status')?.textContent ?? ''));
    await page.close();

    const french = await open('/fr/search/inconnue/');
    await french.locator('.search-scope--unknown').waitFor();
    assert.match((await french.locator('.search-scope--unknown').textContent()) ?? '', /inconnue.*tout le site/);
    await french.close();
  });

  test('point 2: a client-side navigation to /search/<section>/ that has no page of its own renders the search page scoped to it', async () => {
    const page = await open('/search/');
    await hydrated(page);
    await mark(page);
    const subsite = site.record('/search/insights/').result.data as { subsites: { key: string; title: string }[] };
    const section = subsite.subsites[0]!;
    // Another case of the slug: no file, so only the match path can answer it.
    await clickLinkTo(page, `/search/${section.key.toUpperCase()}/`);
    await page.waitForURL(new RegExp(`/search/${section.key.toUpperCase()}/$`));
    await page.locator('.search-scope strong').waitFor({ timeout: 10_000 }).catch(async (error: unknown) => {
      throw new Error(`${(error as Error).message}\n${page.url()}\n${await page.locator('main').innerText()}`);
    });
    assert.equal(await page.locator('.search-scope strong').textContent(), section.title);
    assert.ok(await kept(page), 'rendered by the runtime, not a full load');
    await clickLinkTo(page, '/search/zzz/');
    await page.locator('.search-scope--unknown').waitFor();
    assert.ok(await kept(page));
    await page.close();
  });

  test('point 3: an English-only article under /fr/ and a French slug without /fr/ reach the English article, query kept', async () => {
    const page = await open(`/fr${ENGLISH_ONLY}?from=fr`);
    assert.equal(new URL(page.url()).pathname + new URL(page.url()).search, `${ENGLISH_ONLY}?from=fr`);
    assert.equal(await page.locator('html').getAttribute('lang'), 'en-CA');
    await page.close();

    const french = await open('/article/commentaire-Q1-2024/?x=1');
    assert.equal(new URL(french.url()).pathname + new URL(french.url()).search, '/article/commentary-Q1-2024/?x=1');
    await french.close();

    // In the browser too: a link on a French page to the English-only article's French path.
    const client = await open('/fr/insights/');
    await hydrated(client);
    await mark(client);
    await clickLinkTo(client, `/fr${ENGLISH_ONLY}`);
    await client.waitForURL(new RegExp(`${ENGLISH_ONLY}$`));
    assert.ok(await kept(client), 'redirected by the runtime, not a full load');
    assert.equal(await client.locator('h1').textContent(), site.h1(ENGLISH_ONLY));
    await client.close();
  });

  test('point 4: a legacy /cn/ path to a French or unknown page reaches it without JavaScript', async () => {
    const page = await open('/CN/fr/insights/?a=1', { javascript: false });
    assert.equal(new URL(page.url()).pathname + new URL(page.url()).search, '/fr/insights/?a=1');
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr-CA');
    const response = await page.goto(`${site.url}/cn/search/anything/`);
    assert.equal(response?.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/search/anything/');
    await page.close();
  });
});
