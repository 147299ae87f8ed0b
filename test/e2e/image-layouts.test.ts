// RUNTIME.md "Images", in Chromium: the three layouts the content can choose (issue 20 point
// 12). A fullWidth cover fills its column, a fixed image keeps its pixel size where it fits, a constrained
// one its width at most and shrinks with the column; each box is reserved before the image
// arrives (no layout shift), and the browser picks a candidate of the srcset.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sharingFixture } from '../build/sharing-fixture.js';
import { buildSite, openBrowser, skip, Tab, until, type Browser, type BuiltSite } from './runtime-harness.js';

const recordShifts = () => {
  const w = window as unknown as { __shift: number };
  w.__shift = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as unknown as { value: number }[]) w.__shift += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
};

interface Box {
  layout: string;
  width: number;
  height: number;
  column: number;
  sizes: string;
  currentSrc: string;
  loaded: boolean;
}

const boxes = (tab: Tab) =>
  tab.page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('main .ir-image')].map((el) => {
      const img = el.querySelector<HTMLImageElement>('picture img')!;
      const r = el.getBoundingClientRect();
      return {
        layout: [...el.classList].find((c) => c.startsWith('ir-image--'))!.slice('ir-image--'.length),
        width: Math.round(r.width),
        height: Math.round(r.height),
        column: Math.round(el.parentElement!.getBoundingClientRect().width),
        sizes: img.sizes,
        currentSrc: img.currentSrc,
        loaded: el.hasAttribute('data-loaded'),
      };
    }),
  ) as Promise<Box[]>;

describe('image layouts in the browser', { skip, concurrency: 1 }, () => {
  let site: BuiltSite;
  let browser: Browser;

  before(async () => {
    [site, browser] = await Promise.all([sharingFixture('layouts-e2e').then((root) => buildSite(root)), openBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  for (const width of [1280, 420]) {
    test(`at ${width} px: fullWidth fills its column, fixed 760×380 or narrower with its column, constrained at most 760; no layout shift`, { timeout: 30_000 }, async () => {
      const tab = await Tab.open(browser.context, site, '/article/press-one/', { init: [recordShifts], before: (page) => page.setViewportSize({ width, height: 900 }) });
      try {
        // Lazy images load once near the viewport: scroll through, then wait for every image.
        await tab.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
        await until(async () => (await boxes(tab)).every((b) => b.loaded), 'every image loaded', 10_000);
        await tab.page.evaluate(() => window.scrollTo(0, 0));
        const [cover, fixed] = await boxes(tab);
        assert.equal(cover!.layout, 'fullWidth');
        assert.equal(cover!.width, cover!.column, 'fullWidth: the column\'s width');
        assert.ok(Math.abs(cover!.height - cover!.width / 2) <= 1, `fullWidth keeps the 2:1 ratio (${cover!.width}×${cover!.height})`);
        assert.equal(cover!.sizes, '100vw');
        assert.match(cover!.currentSrc, /\/static\/images\/chart-\d+\.[0-9a-f]+\.(avif|webp)$/, 'a candidate of the modern sources');
        assert.equal(fixed!.layout, 'fixed');
        assert.equal(fixed!.width, Math.min(760, fixed!.column), 'fixed: its own size, or the column on a narrow screen (no sideways scrolling)');
        assert.ok(Math.abs(fixed!.height - fixed!.width / 2) <= 1, `fixed keeps its 2:1 ratio (${fixed!.width}×${fixed!.height})`);
        assert.ok(await tab.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page does not scroll sideways');
        assert.equal(fixed!.sizes, '760px');

        const other = await Tab.open(browser.context, site, '/article/commentary-Q2-2025/', { init: [recordShifts], before: (page) => page.setViewportSize({ width, height: 900 }) });
        try {
          await other.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
          await until(async () => (await boxes(other)).every((b) => b.loaded), 'the image loaded', 10_000);
          const [constrained] = await boxes(other);
          assert.equal(constrained!.layout, 'constrained');
          assert.equal(constrained!.width, Math.min(760, constrained!.column), 'constrained: 760 at most, the column when narrower');
          assert.equal(constrained!.sizes, '(min-width: 760px) 760px, 100vw');
          assert.equal(await other.page.evaluate(() => (window as unknown as { __shift: number }).__shift), 0, 'no layout shift');
        } finally {
          await other.close();
        }
        assert.equal(await tab.page.evaluate(() => (window as unknown as { __shift: number }).__shift), 0, 'no layout shift');
      } finally {
        await tab.close();
      }
    });
  }
});
