// The offline worker's routing rules (src/features/offline/worker/rules.ts), run in Node: the
// worker registers the same RULES in the same order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPagePath, offlinePageFor, ruleFor, RULES, type RequestFacts, type RuleName } from '../../src/features/offline/worker/rules.js';

const ORIGIN = 'https://www.example.com';

function facts(url: string, { mode = 'cors', destination = '' }: { mode?: string; destination?: string } = {}): RequestFacts {
  const parsed = new URL(url, ORIGIN);
  return { url: parsed, sameOrigin: parsed.origin === ORIGIN, mode, destination };
}

const cases: Array<[string, { mode?: string; destination?: string }, RuleName | null]> = [
  // Never cached: the worker script and the build hash the runtime compares.
  ['/sw.js', {}, 'network-only'],
  ['/sw.js', { mode: 'navigate', destination: 'document' }, 'network-only'],
  ['/page-data/app-data.json', {}, 'network-only'],
  // Hashed JS/CSS and /static/: cache first.
  ['/static/runtime.6IADZB22.js', { destination: 'script' }, 'static'],
  ['/static/chunks/article.VWL4OWWY.js', { destination: 'script' }, 'static'],
  ['/static/styles.390ccf7bad.css', { destination: 'style' }, 'static'],
  ['/static/images/abc/portrait-400.webp', { destination: 'image' }, 'static'],
  ['/vendor.ABCDEFGH.js', { destination: 'script' }, 'static'],
  // Page data and static queries: stale-while-revalidate.
  ['/page-data/index/page-data.json', {}, 'page-data'],
  ['/page-data/fr/insights/page-data.json', {}, 'page-data'],
  ['/page-data/404.html/page-data.json', {}, 'page-data'],
  ['/page-data/sq/d/1394488084.json', {}, 'page-data'],
  // Images, fonts, other JSON and CSS: stale-while-revalidate.
  ['/favicon.svg', { destination: 'image' }, 'asset'],
  ['/article/annual-report-2024/chart.png', { destination: 'image' }, 'asset'],
  ['/redirects.json', {}, 'asset'],
  ['/manifest_fr.webmanifest', { destination: 'manifest' }, 'asset'],
  ['/fonts/body.woff2', { destination: 'font' }, 'asset'],
  ['/print.css', { destination: 'style' }, 'asset'],
  // Navigations (and page URLs the window asks the worker to cache): network first.
  ['/', { mode: 'navigate', destination: 'document' }, 'page'],
  ['/fr/insights/', { mode: 'navigate', destination: 'document' }, 'page'],
  ['/fr/404.html', { mode: 'navigate', destination: 'document' }, 'page'],
  ['/insights', { mode: 'navigate', destination: 'document' }, 'page'],
  ['/article/x/report.pdf', { mode: 'navigate', destination: 'document' }, 'page'],
  ['/insights/', {}, 'page'],
  // Nothing else: the browser goes to the network itself.
  ['/article/x/report.pdf', {}, null],
  ['/robots.txt', {}, null],
  ['https://use.typekit.net/abc1234.js', { destination: 'script' }, null],
  ['https://fonts.example.net/a.woff2', { destination: 'font' }, null],
  ['https://www.youtube-nocookie.com/embed/x', { mode: 'navigate', destination: 'iframe' }, null],
];

for (const [url, options, expected] of cases) {
  test(`${options.mode ?? 'cors'} ${options.destination || '-'} ${url} -> ${expected ?? 'no route'}`, () => {
    assert.equal(ruleFor(facts(url, options)), expected);
  });
}

test('the rules are in the order of RUNTIME.md, after the two that must reach the network', () => {
  assert.deepEqual(
    RULES.map((r) => r.name),
    ['network-only', 'static', 'page-data', 'asset', 'page'],
  );
});

test('page paths: folders, .html files, and paths without an extension', () => {
  for (const p of ['/', '/fr/', '/a/b/', '/404.html', '/insights']) assert.equal(isPagePath(p), true, p);
  for (const p of ['/sw.js', '/a/report.pdf', '/robots.txt', '/page-data/app-data.json']) assert.equal(isPagePath(p), false, p);
});

test("the language's offline page: the longest prefix, whatever the case", () => {
  const pages = [
    { prefix: '/fr/', page: '/fr/offline.html' },
    { prefix: '/', page: '/offline.html' },
  ];
  assert.equal(offlinePageFor('/fr/insights/', pages), '/fr/offline.html');
  assert.equal(offlinePageFor('/FR/Insights/', pages), '/fr/offline.html');
  assert.equal(offlinePageFor('/cn/insights/', pages), '/offline.html', 'a legacy prefix is not a language');
  assert.equal(offlinePageFor('/insights/', pages), '/offline.html');
  assert.equal(offlinePageFor('/french/', pages), '/offline.html', 'a prefix is a whole folder');
  assert.equal(offlinePageFor('/fr', pages), '/offline.html');
  // Order of the list does not matter.
  assert.equal(offlinePageFor('/fr/x/', [...pages].reverse()), '/fr/offline.html');
  assert.equal(offlinePageFor('/x/', []), null);
});
