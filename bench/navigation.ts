// Client navigation time after prefetch, in Debian Chromium against `ir-site serve`:
// from the click to the new page's announcement (rendered, head updated, focus moved).
//
//   npx tsx bench/navigation.ts [outDir=public] [rounds=5]
import path from 'node:path';
import { serve } from '../src/commands/server/serve.js';
import { launchBrowser } from '../test/e2e/browser.js';

const out = path.resolve(process.argv[2] ?? 'public');
const rounds = Number(process.argv[3] ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const server = await serve({ dir: out, port: 0 });
const browser = await launchBrowser();
const page = await browser.context.newPage();
const prefetched: number[] = [];
const cold: number[] = [];

async function timeClick(href: string): Promise<number> {
  return page.evaluate(
    (target) =>
      new Promise<number>((resolve) => {
        const link = [...document.querySelectorAll<HTMLAnchorElement>('a')].find((a) => a.getAttribute('href') === target)!;
        const announcer = document.getElementById('gatsby-announcer')!;
        const t0 = performance.now();
        new MutationObserver((_, observer) => {
          observer.disconnect();
          resolve(performance.now() - t0);
        }).observe(announcer, { childList: true, characterData: true, subtree: true });
        link.click();
      }),
    href,
  );
}

const links = ['/insights/', '/news-and-events/', '/portfolio/', '/financial-reports/', '/your-team/', '/henris-corner/'];
for (let round = 0; round < rounds; round++) {
  for (const href of links) {
    // Prefetched: hover first, let the prefetch finish.
    await page.goto(`${server.url}/`);
    await page.hover(`a[href="${href}"]`);
    await page.waitForTimeout(300);
    prefetched.push(await timeClick(href));
  }
}
// Without prefetch: saveData turns viewport prefetching off, and nothing is hovered, so
// the click fetches page data (and a template chunk the first time) itself.
await page.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true }));
for (let round = 0; round < rounds; round++) {
  for (const href of links) {
    await page.goto(`${server.url}/`);
    await page.waitForTimeout(300); // the runtime boots after load; a click before that is a full load
    cold.push(await timeClick(href));
  }
}
console.log(`client navigation, click to announcement (median of ${prefetched.length}): after prefetch ${median(prefetched).toFixed(1)} ms; without prefetch ${median(cold).toFixed(1)} ms`);
await browser.close();
await server.close();
