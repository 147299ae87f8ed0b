// The search page in Debian's Chromium, on the built demo served by `ir-site serve`:
// typing shows results and keeps the query in the URL, back and forward restore searches,
// the subsite scope narrows results and can be removed, French folding and elisions work,
// the page is a plain GET form without JavaScript, no other page asks for the index or the
// search code, the search page fetches the index's base and only the postings shards a query
// needs, and axe finds nothing wrong with results on screen, in both languages. The page's own
// search box is the one in <main>; every page also has the header's (test/e2e/routes.test.ts).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { chromium, type Page } from 'playwright-core';
import { docFile, type IndexBase, type StoredRow } from '../../src/features/search/codec.js';
import { SearchIndex } from '../../src/features/search/engine.js';
import { withSiteAndBrowser, type BuiltSite } from './runtime-harness.js';
import { browserSkipReason, CHROMIUM_PATH, launchBrowser, type Browser } from './browser.js';

const require = createRequire(import.meta.url);
const skip = browserSkipReason();
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

describe('search page in the browser', { skip }, () => {
  let outDir: string;
  let server: BuiltSite;
  let browser: Browser;
  let axeSource: string;

  withSiteAndBrowser((built, opened) => ((server = built), (outDir = built.dir), (browser = opened)), launchBrowser);
  before(async () => {
    axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  });

  interface Opened {
    page: Page;
    /** Paths the page requested, in order. */
    requests: string[];
    /** console.error and page errors (hydration mismatches land here). */
    errors: string[];
  }

  async function open(sitePath: string): Promise<Opened> {
    const page = await browser.context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    const response = await page.goto(`${server.url}${sitePath}`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200, `GET ${sitePath}`);
    return { page, requests, errors };
  }

  /** The search files a page has requested: the search chunk and the index. */
  const searchFiles = (requests: string[]) => requests.filter((p) => p.startsWith('/search-index/') || /\/search-client\./.test(p));

  /**
   * The visitor puts the cursor in the search box, as before typing: the search code loads then
   * (at once for an address that holds a search). Waits until the index is being fetched.
   */
  async function ready(page: Page): Promise<void> {
    await page.getByRole('main').getByRole('searchbox').focus();
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/search-index\//.test(e.name)));
  }

  const status = (page: Page) => page.locator('#search-status');

  const readBase = async (locale: string) => JSON.parse(await readFile(path.join(outDir, 'search-index', `${locale}.json`), 'utf8')) as IndexBase;

  /** The index files (site paths) a query fetches, stored documents aside: the engine in Node, from the built files. */
  async function shardsFor(locale: string, query: string): Promise<string[]> {
    const fetched: string[] = [];
    const index = SearchIndex.load(await readBase(locale), async (file) => {
      fetched.push(`/search-index/${locale}/${file}`);
      return readFile(path.join(outDir, 'search-index', locale, file), 'utf8');
    });
    index.prefetchDocuments();
    await index.prepare(query, { limit: 20 });
    return fetched.filter((p) => /\/t-[^/]+$/.test(p));
  }
  const resultTitles = (page: Page) => page.locator('.search-result__title').allInnerTexts();

  async function typeQuery(page: Page, text: string): Promise<void> {
    const input = page.getByRole('main').getByRole('searchbox');
    await input.fill('');
    await input.pressSequentially(text, { delay: 30 });
  }

  async function waitForQuery(page: Page, q: string): Promise<void> {
    await page.waitForFunction((q) => new URL(location.href).searchParams.get('q') === q, q);
    await status(page).filter({ hasText: q }).waitFor();
  }

  test('en: typing shows results, marks matches, announces the count and keeps ?q= in the URL', async () => {
    const { page, errors } = await open('/search/');
    try {
      await ready(page);
      await typeQuery(page, 'dividend');
      await waitForQuery(page, 'dividend');
      const text = await status(page).innerText();
      assert.match(text, /^\d+ results? for “dividend”$/);
      assert.equal(await status(page).getAttribute('aria-live'), 'polite');
      assert.equal(await status(page).getAttribute('role'), 'status');
      const count = Number(/^\d+/.exec(text)![0]);
      assert.ok(count >= 3, `several results: ${text}`);
      assert.equal(await page.locator('.search-result').count(), Math.min(count, 20));
      const titles = await resultTitles(page);
      assert.ok(titles.some((t) => /dividend/i.test(t)), `a title about dividends: ${titles.join(' | ')}`);
      const marks = await page.locator('.search-result mark').allInnerTexts();
      assert.ok(marks.length > 0 && marks.every((m) => /^dividends?$/i.test(m)), `marks: ${marks.join(', ')}`);
      // A prefix while typing already finds the word.
      await typeQuery(page, 'divid');
      await waitForQuery(page, 'divid');
      assert.ok((await page.locator('.search-result').count()) > 0, 'prefix "divid" finds dividends');
      // A typo in a longer word is forgiven.
      await typeQuery(page, 'sharehlders');
      await waitForQuery(page, 'sharehlders');
      assert.ok((await page.locator('.search-result').count()) > 0, 'typo "sharehlders" finds shareholders');
      assert.deepEqual(errors, [], 'no console errors (hydration warnings included)');
    } finally {
      await page.close();
    }
  });

  test('en: a shared URL shows its results on arrival, and the type filter narrows them', async () => {
    const { page, errors } = await open('/search/?q=dividend');
    try {
      await status(page).filter({ hasText: 'dividend' }).waitFor();
      assert.equal(await page.getByRole('main').getByRole('searchbox').inputValue(), 'dividend');
      const all = Number(/^\d+/.exec(await status(page).innerText())![0]);
      await page.getByLabel('Type', { exact: true }).selectOption('press-release');
      await page.waitForFunction(() => new URL(location.href).searchParams.get('type') === 'press-release');
      await page.waitForFunction((all) => Number(/^\d+/.exec(document.getElementById('search-status')!.textContent ?? '')?.[0] ?? -1) !== all, all);
      const types = await page.locator('.search-result__type').allInnerTexts();
      assert.ok(types.length > 0 && types.length < all, `${types.length} press releases of ${all}`);
      assert.ok(types.every((t) => t === 'Press release'), types.join(', '));
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('words typed before the search code arrives are searched when it does', async () => {
    // Without the offline worker: its cache would answer before the page's route could hold the chunk.
    const own = await launchBrowser({ serviceWorkers: 'block' });
    const page = await own.context.newPage();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/search-client\.[A-Z0-9]+\.js$/, async (route) => {
      await gate;
      await route.continue();
    });
    try {
      await page.goto(`${server.url}/search/`);
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /\/search\.[A-Z0-9]+\.js$/.test(e.name)));
      await page.getByRole('main').getByRole('searchbox').pressSequentially('dividend', { delay: 20 });
      assert.equal(await page.locator('.search-result').count(), 0);
      release();
      await waitForQuery(page, 'dividend');
      assert.ok((await page.locator('.search-result').count()) > 0);
    } finally {
      release();
      await own.close();
    }
  });

  test('back and forward restore earlier searches without reloading', async () => {
    const { page, requests } = await open('/search/');
    try {
      await ready(page);
      await typeQuery(page, 'dividend');
      await waitForQuery(page, 'dividend');
      await page.getByRole('main').getByRole('searchbox').press('Enter');
      await typeQuery(page, 'portfolio');
      await waitForQuery(page, 'portfolio');
      const documents = () => requests.filter((p) => p === '/search/').length;
      assert.equal(documents(), 1);

      await page.goBack();
      await waitForQuery(page, 'dividend');
      assert.equal(await page.getByRole('main').getByRole('searchbox').inputValue(), 'dividend');
      assert.ok((await resultTitles(page)).some((t) => /dividend/i.test(t)));

      await page.goBack();
      await page.waitForFunction(() => location.search === '');
      await page.waitForFunction(() => (document.getElementById('search-input') as HTMLInputElement).value === '');
      assert.equal(await page.locator('.search-result').count(), 0);

      await page.goForward();
      await waitForQuery(page, 'dividend');
      await page.goForward();
      await waitForQuery(page, 'portfolio');
      assert.equal(await page.getByRole('main').getByRole('searchbox').inputValue(), 'portfolio');
      assert.equal(documents(), 1, 'the page was never reloaded');
      const index = requests.filter((p) => p.startsWith('/search-index/'));
      assert.deepEqual(index.filter((p) => p === '/search-index/en.json'), ['/search-index/en.json'], 'the base was fetched once');
      assert.equal(new Set(index).size, index.length, `no index file was fetched twice: ${index.join(' ')}`);
    } finally {
      await page.close();
    }
  });

  test('a slow answer to an earlier query never replaces the answer to a later one', async () => {
    const slow = await shardsFor('en', 'dividend');
    const fast = await shardsFor('en', 'portfolio');
    assert.ok(slow.length > 0 && slow.every((p) => !fast.includes(p)), 'the two queries need different shards');
    // Without the offline worker, whose cache would answer before the page's route could.
    const own = await launchBrowser({ serviceWorkers: 'block' });
    const page = await own.context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held: string[] = [];
    await page.route(/\/search-index\/en\/t-/, async (route) => {
      if (slow.includes(new URL(route.request().url()).pathname)) {
        held.push(route.request().url());
        await gate;
      }
      await route.continue();
    });
    try {
      await page.goto(`${server.url}/search/`);
      await ready(page);
      await typeQuery(page, 'dividend');
      await page.waitForFunction(() => new URL(location.href).searchParams.get('q') === 'dividend');
      await typeQuery(page, 'portfolio');
      await waitForQuery(page, 'portfolio');
      const answered = await status(page).innerText();
      assert.ok(held.length > 0, 'the first query was held back');
      const responses = slow.map((p) => page.waitForResponse((r) => new URL(r.url()).pathname === p));
      release();
      await Promise.all(responses);
      // Time for a late answer to land, were it to.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
      assert.equal(await status(page).innerText(), answered);
      assert.equal(new URL(page.url()).searchParams.get('q'), 'portfolio');
      assert.ok((await resultTitles(page)).length > 0);
      assert.ok(!(await page.locator('.search-result mark').allInnerTexts()).some((m) => /dividend/i.test(m)), 'no dividend results');
      assert.deepEqual(errors, []);
    } finally {
      release();
      await own.close();
    }
  });

  test('a subsite search shows its scope, finds only that section, and the scope can be removed', async () => {
    const { page } = await open('/search/insights/?q=discount');
    try {
      await status(page).filter({ hasText: 'discount' }).waitFor();
      assert.match(await page.locator('.search-scope').innerText(), /Searching in: Insights/);
      assert.match(await status(page).innerText(), /in Insights$/);
      const scoped = Number(/^\d+/.exec(await status(page).innerText())![0]);
      const base = await readBase('en');
      const rows = JSON.parse(await readFile(path.join(outDir, 'search-index', 'en', docFile(base, 0)), 'utf8')) as StoredRow[];
      const insights = new Set(rows.filter((_, id) => base.classes[base.docClass[id]!]![1].split(' ').includes('insights')).map(([, p]) => p));
      const hrefs = await page.locator('.search-result__title a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
      assert.ok(hrefs.length > 0 && hrefs.every((h) => insights.has(h)), `every result is in insights: ${hrefs.join(' ')}`);

      const remove = page.getByRole('link', { name: 'Search the whole site' });
      assert.equal(await remove.getAttribute('href'), '/search/?q=discount', 'removing the scope keeps the query');
      await remove.click();
      await page.waitForURL(`${server.url}/search/?q=discount`);
      await status(page).filter({ hasText: 'discount' }).waitFor();
      assert.equal(await page.locator('.search-scope').count(), 0);
      const whole = Number(/^\d+/.exec(await status(page).innerText())![0]);
      assert.ok(whole > scoped, `whole site (${whole}) finds more than Insights (${scoped})`);
    } finally {
      await page.close();
    }
  });

  test("moving to the other language's search page without a reload shows and announces only that language's results", async () => {
    const { page, errors } = await open('/search/?q=dividend');
    try {
      await status(page).filter({ hasText: 'dividend' }).waitFor();
      // Every state the status line and the first result go through, from the click on.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        new MutationObserver(() => {
          seen.push(`${location.pathname} | ${document.getElementById('search-status')?.textContent ?? ''} | ${document.querySelector('.search-result__title a')?.getAttribute('href') ?? ''}`);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
        const link = document.createElement('a');
        link.href = '/fr/search/?q=dividende';
        link.textContent = 'French search';
        link.id = 'to-french';
        document.querySelector('main')!.append(link);
      });
      await page.locator('#to-french').click();
      await page.waitForFunction(() => /résultats? pour «\u00a0dividende\u00a0»/.test(document.getElementById('search-status')?.textContent ?? ''));
      const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
      const french = seen.filter((s) => s.startsWith('/fr/search/'));
      assert.ok(french.length > 0, 'the runtime moved to the French page without a reload');
      for (const state of french) {
        assert.doesNotMatch(state, /«\u00a0dividend\u00a0»/, `the French page spoke of the English query: ${state}`);
        assert.doesNotMatch(state, / \| \/(?!fr\/)[^ ]+$/, `the French page showed an English result: ${state}`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('a type the Type list does not have is ignored, not a silent filter; "Show more results" moves focus to the first new result', async () => {
    const { page, errors } = await open('/search/?q=dividend&type=annual-reports');
    try {
      await status(page).filter({ hasText: 'dividend' }).waitFor();
      assert.equal(await page.getByLabel('Type', { exact: true }).inputValue(), '', 'the list says All types');
      const total = Number(/^\d+/.exec(await status(page).innerText())?.[0] ?? 0);
      assert.ok(total > 20, `${total} results for "dividend", all types`);
      const more = page.getByRole('button', { name: 'Show more results' });
      await more.focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('.search-result').length > 20);
      const focused = await page.evaluate(() => ({ href: document.activeElement?.getAttribute('href'), index: [...document.querySelectorAll('.search-result__title a')].indexOf(document.activeElement as Element) }));
      assert.equal(focused.index, 20, `focus on the 21st result: ${JSON.stringify(focused)}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('fr: accents are folded and elisions dropped', async () => {
    const { page, errors } = await open('/fr/search/');
    try {
      await ready(page);
      assert.equal(await page.getAttribute('html', 'lang'), 'fr-CA');
      await typeQuery(page, 'societe');
      await waitForQuery(page, 'societe');
      assert.match(await status(page).innerText(), /^\d+ résultats? pour «\u00a0societe\u00a0»$/);
      const marks = await page.locator('.search-result mark').allInnerTexts();
      assert.ok(marks.some((m) => /^société/i.test(m)), `"societe" marks société: ${marks.join(', ')}`);

      await typeQuery(page, "l'entreprise");
      await waitForQuery(page, "l'entreprise");
      assert.ok((await page.locator('.search-result').count()) > 0, "l'entreprise finds entreprise");
      const elided = await page.locator('.search-result mark').allInnerTexts();
      assert.ok(elided.length > 0 && elided.every((m) => /^entreprises?$/i.test(m)), `marks: ${elided.join(', ')}`);

      await typeQuery(page, 'zzqxw');
      await waitForQuery(page, 'zzqxw');
      assert.equal(await status(page).innerText(), 'Aucun résultat pour «\u00a0zzqxw\u00a0».');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('with no search in the address, the search code and index wait until the visitor uses the form', async () => {
    for (const use of ['focus', 'type filter'] as const) {
      const { page, requests, errors } = await open('/search/');
      try {
        // Hydrated and navigation started (the router keys the history entry); the network then settles.
        await page.waitForFunction(() => !!(history.state as { key?: string } | null)?.key);
        await page.waitForLoadState('networkidle');
        assert.deepEqual(searchFiles(requests), [], `${use}: nothing before the visitor shows interest`);
        if (use === 'focus') {
          await ready(page);
          await typeQuery(page, 'dividend');
          await waitForQuery(page, 'dividend');
        } else {
          // A type chosen before the search code is here is kept when it arrives.
          await page.locator('#search-type').selectOption('press-release');
          await page.waitForFunction(() => new URL(location.href).searchParams.get('type') === 'press-release');
          assert.equal(await page.locator('#search-type').inputValue(), 'press-release');
        }
        assert.ok(searchFiles(requests).includes('/search-index/en.json'), `${use}: the index once the form is used`);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    }
  });

  test('no other page asks for the index or the search code; the search page does, once', async () => {
    for (const sitePath of ['/', '/insights/', '/article/annual-report-2024/', '/fr/', '/your-team/hmercier/']) {
      const { page, requests } = await open(sitePath);
      try {
        // Let hydration and viewport prefetching run.
        await page.waitForLoadState('networkidle');
        const searchy = searchFiles(requests);
        assert.deepEqual(searchy, [], `${sitePath} requested ${searchy.join(', ')}`);
      } finally {
        await page.close();
      }
    }
    const { page, requests } = await open('/fr/search/');
    try {
      await ready(page);
      await page.waitForLoadState('networkidle');
      // The base, and what results show (fetched at once, to be there when the first query's postings are).
      const base = await readBase('fr');
      const documents = `/search-index/fr/${docFile(base, 0)}`;
      assert.deepEqual(requests.filter((p) => p.startsWith('/search-index/')), ['/search-index/fr.json', documents]);
      // A query: the postings shards it reaches, no others. The engine in Node, fed the same files, asks for the same.
      for (const query of ['societe', "l'entreprise"]) {
        const before = requests.length;
        await typeQuery(page, query);
        await waitForQuery(page, query);
        const fetched = requests.slice(before).filter((p) => p.startsWith('/search-index/'));
        const expected = await shardsFor('fr', query);
        assert.deepEqual(new Set(fetched), new Set(expected.filter((p) => !requests.slice(0, before).includes(p))), `${query}: ${fetched.join(' ')}`);
        assert.ok(expected.length > 0 && expected.length < base.shards.length / 2, `${query}: ${expected.length} of ${base.shards.length} shards`);
      }
    } finally {
      await page.close();
    }
  });

  test('without JavaScript the page is a plain GET form to itself, and says search needs JavaScript', async () => {
    const profile = await mkdtemp(path.join(os.tmpdir(), 'ir-site-chromium-nojs-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      javaScriptEnabled: false,
    });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/fr/search/news-and-events/`);
      assert.ok(await page.locator('.search-noscript').isVisible(), 'the noscript notice shows');
      const form = page.getByRole('main').getByRole('search');
      assert.equal(await form.getAttribute('method'), 'get');
      assert.equal(await form.getAttribute('action'), '/fr/search/news-and-events/');
      await page.getByRole('main').getByRole('searchbox').fill('dividende');
      await page.getByLabel('Type', { exact: true }).selectOption('press-release');
      await Promise.all([page.waitForURL(/\?q=/), page.getByRole('main').getByRole('button', { name: 'Rechercher' }).click()]);
      const url = new URL(page.url());
      assert.equal(url.pathname, '/fr/search/news-and-events/');
      assert.equal(url.searchParams.get('q'), 'dividende');
      assert.equal(url.searchParams.get('type'), 'press-release');
      assert.match(await page.locator('h1').innerText(), /\S/);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });

  for (const [locale, sitePath, query] of [
    ['en', '/search/?q=dividend', 'dividend'],
    ['fr', '/fr/search/insights/?q=rendement', 'rendement'],
  ] as const) {
    test(`${locale}: axe finds no violation with results on screen (${sitePath})`, async () => {
      const { page, errors } = await open(sitePath);
      try {
        await status(page).filter({ hasText: query }).waitFor();
        assert.ok((await page.locator('.search-result mark').count()) > 0, 'results with marks are shown');
        await page.evaluate(axeSource); // through the DevTools protocol: the page's policy blocks an inline <script>
        const violations = await page.evaluate(async (tags) => {
          const axe = (window as unknown as { axe: { run: Function } }).axe;
          const result = await axe.run(document, { runOnly: { type: 'tag', values: tags } });
          return (result.violations as Array<{ id: string; help: string; nodes: Array<{ target: unknown[] }> }>).map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`);
        }, AXE_TAGS);
        assert.deepEqual(violations, []);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }
});
