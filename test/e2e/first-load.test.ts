// What a first visit on a phone costs (docs/runtime.md "First load"), on the demo site in
// Debian's Chromium: the image that is the largest paint is fetched at high priority and
// shown without a fade (lazy images keep theirs), and the code only navigation needs is
// not part of the first load: it arrives after hydration, and the runtime still starts;
// every script carries V8's compile hint, and pages with dates make no Intl formatter.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Route } from 'playwright-core';
import { skip, until, withSiteAndBrowser, type BuiltSite } from './runtime-harness.js';
import type { Browser } from './browser.js';

const BIO = '/your-team/hmercier/';
const TEAM = '/your-team/';

describe('first load', { skip }, () => {
  let site: BuiltSite;
  let browser: Browser;
  withSiteAndBrowser((built, opened) => ((site = built), (browser = opened)));

  test('the first image of a page is fetched at high priority; every other image loads lazily at the default priority', () => {
    const images = (sitePath: string) => [...site.html(sitePath).matchAll(/<img class="ir-image__main"[^>]*>/g)].map((m) => m[0]);
    const [portrait] = images(BIO);
    assert.ok(portrait, `${BIO} has a processed portrait`);
    assert.match(portrait, /loading="eager"/);
    assert.match(portrait, /fetchPriority="high"/i);
    const team = images(TEAM);
    assert.ok(team.length > 2, 'the team page has several portraits');
    assert.match(team[0]!, /fetchPriority="high"/i);
    for (const img of team.slice(1)) {
      assert.match(img, /loading="lazy"/);
      assert.doesNotMatch(img, /fetchpriority/i);
    }
  });

  test('the eager image is visible while it loads (no fade from opacity 0); lazy images still fade in', { timeout: 60_000 }, async () => {
    const page = await browser.context.newPage();
    // Hold every processed image: nothing is marked loaded, so what shows is what CSS gives
    // an image that has not arrived yet.
    const held: Route[] = [];
    await page.route('**/static/images/**', (route) => void held.push(route));
    try {
      for (const sitePath of [BIO, TEAM]) {
        await page.goto(`${site.url}${sitePath}`, { waitUntil: 'domcontentloaded' });
        const shown = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>('.ir-image__main:not(.ir-image__main--noscript)')].map((img) => ({
            eager: img.closest('.ir-image')!.classList.contains('ir-image--eager'),
            priority: img.fetchPriority,
            opacity: getComputedStyle(img).opacity,
            transition: getComputedStyle(img).transitionDuration,
          })),
        );
        assert.deepEqual(shown[0], { eager: true, priority: 'high', opacity: '1', transition: '0s' }, `${sitePath}: the first image`);
        for (const later of shown.slice(1)) assert.deepEqual(later, { eager: false, priority: 'auto', opacity: '0', transition: '0.5s' }, `${sitePath}: a lazy image`);
      }
    } finally {
      await page.close();
      for (const route of held) await route.abort().catch(() => undefined);
    }
  });

  test('navigation code is not preloaded: it is requested after the template chunk, and the router then starts', { timeout: 60_000 }, async () => {
    const html = site.html(BIO);
    const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
    const navigationChunk = preloaded.find((f) => /\/navigation\.[^/]+\.js$/.test(f));
    assert.equal(navigationChunk, undefined, 'no navigation chunk among the modulepreloads');
    // The router's code (its route-update event name) is in none of the preloaded files.
    for (const file of preloaded) {
      assert.ok(!readFileSync(path.join(site.dir, file), 'utf8').includes('ir-site:route-update'), `${file} holds no router code`);
    }

    const page = await browser.context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    try {
      await page.goto(`${site.url}${BIO}`);
      await until(() => page.evaluate(() => !!(history.state as { key?: string } | null)?.key), 'the router to start');
      const navigation = requested.findIndex((p) => /^\/static\/chunks\/navigation\.[^/]+\.js$/.test(p));
      const template = requested.findIndex((p) => /^\/static\/chunks\/bio\.[^/]+\.js$/.test(p));
      assert.ok(navigation > template && template >= 0, `the navigation chunk comes after the template chunk: ${requested.join(' ')}`);
      // And navigation works: a client-side render keeps this document.
      await page.evaluate(() => ((window as unknown as { __irMarker: number }).__irMarker = 1));
      await page.locator(`a[href="${TEAM}"]`).first().click();
      await until(() => page.evaluate((p) => location.pathname === p && !!document.querySelector('.team-card'), TEAM), `${TEAM} to render`);
      assert.equal(await page.evaluate(() => (window as unknown as { __irMarker?: number }).__irMarker), 1, 'a client-side navigation, not a full load');
    } finally {
      await page.close();
    }
  });

  test('every script starts with the compile hint, so Chromium compiles it off the main thread', () => {
    const scripts = readdirSync(path.join(site.dir, 'static'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    assert.ok(scripts.length > 5, `the runtime and its chunks: ${scripts.join(' ')}`);
    for (const file of scripts) {
      const head = readFileSync(path.join(site.dir, 'static', file), 'utf8').slice(0, 40);
      assert.ok(head.startsWith('//# allFunctionsCalledOnLoad\n'), `static/${file} starts with ${JSON.stringify(head)}`);
    }
  });

  test('a page full of dates loads, hydrates and starts navigation without making an Intl formatter', { timeout: 60_000 }, async () => {
    const page = await browser.context.newPage();
    // Count every Intl formatter the page makes: the first one loads the browser's locale data.
    await page.addInitScript(() => {
      const made: string[] = ((window as unknown as { __irIntl: string[] }).__irIntl = []);
      for (const name of ['DateTimeFormat', 'NumberFormat'] as const) {
        const Original = Intl[name] as unknown as new (...args: unknown[]) => object;
        const Counting = function (this: unknown, ...args: unknown[]) {
          made.push(name);
          return new Original(...args);
        };
        Object.defineProperty(Intl, name, { value: Counting, configurable: true, writable: true });
      }
      const toLocale = Date.prototype.toLocaleDateString;
      Date.prototype.toLocaleDateString = function (...args: Parameters<typeof toLocale>) {
        made.push('toLocaleDateString');
        return toLocale.apply(this, args);
      };
    });
    try {
      for (const sitePath of [BIO, `/fr${BIO}`, '/article/annual-report-2024/']) {
        await page.goto(`${site.url}${sitePath}`);
        assert.ok(/\d{4}<\/time>/.test(site.html(sitePath)), `${sitePath} shows dates`);
        await until(() => page.evaluate(() => !!(history.state as { key?: string } | null)?.key), `the router to start on ${sitePath}`);
        const made = await page.evaluate(() => (window as unknown as { __irIntl: string[] }).__irIntl);
        assert.deepEqual(made, [], `${sitePath}: Intl formatters made during the first load`);
      }
    } finally {
      await page.close();
    }
  });
});
