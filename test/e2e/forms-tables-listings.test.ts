// Issue 20, what a visitor sees, in Chromium against a built fixture served by `ir-site serve`:
// - the contact form posts to a real local endpoint: in the page with JavaScript (bot-check
//   token, localised success or failure, the text kept on failure), as a plain POST without it
//   (a localised thank-you page); with no target the page shows the e-mail and `check` warns;
// - French tables and dates through Intl, the same after hydration (no hydration error);
// - listings a page at a time, with page and filter links that work with and without JavaScript.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { build } from '../../src/build/index.js';
import { check } from '../../src/commands/check/index.js';
import { serve } from '../../src/commands/server/serve.js';
import { buildToMemory, writableFixture } from '../helpers.js';
import { buildSite, openBrowser, script, skip, until, type Browser, type BuiltSite } from './runtime-harness.js';

const require = createRequire(import.meta.url);

interface Posted {
  accept: string;
  fields: Record<string, string>;
}

/** A form endpoint like a hosted form service: JSON to fetch(), a 303 to `_next` to a plain POST. */
async function startEndpoint(port = 0): Promise<{ url: string; posted: Posted[]; fail: { on: boolean }; server: Server }> {
  const posted: Posted[] = [];
  const fail = { on: false };
  const read = async (req: IncomingMessage) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    return Object.fromEntries(new URLSearchParams(body));
  };
  const server = createServer(async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method !== 'POST') return res.writeHead(405).end();
    const fields = await read(req);
    const accept = req.headers.accept ?? '';
    posted.push({ accept, fields });
    if (fail.on) return res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"ok":false}');
    if (accept.includes('application/json')) return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    res.writeHead(303, { Location: fields['_next'] ?? '/' }).end();
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posted, fail, server };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** The minimal fixture with a form target (or none), a portfolio of every number kind and enough articles to page. */
async function fixtureWith(copy: string, formAction: string, siteUrl: string): Promise<string> {
  const root = await writableFixture('minimal', copy);
  const configFile = path.join(root, 'site.config.ts');
  let config = await readFile(configFile, 'utf8');
  config = config
    .replace(`siteUrl: 'https://beta.example/'`, `siteUrl: '${siteUrl}'`)
    .replace(
      `  paths:`,
      `  integrations: { botCheck: { siteKey: 'test-site-key', formAction: '${formAction}' } },\n  contact: { email: 'ir@beta.example' },\n  listings: { pageSize: 2 },\n  paths:`,
    );
  await writeFile(configFile, config);
  await writeFile(
    path.join(root, 'content', 'portfolio', 'core.yaml'),
    [
      'title: { en: Core, fr: Noyau }',
      'order: 1',
      'columns: { weight: percent, value: millions, invested: year }',
      'holdings:',
      '  - { company: Acme, ticker: ACM, weight: 4.8, value: 1234.5, shares: 1234567, invested: 2011, since: "2026-11-25" }',
    ].join('\n'),
  );
  for (const [locale, title] of [['en', 'Portfolio'], ['fr', 'Portefeuille']]) {
    await mkdir(path.join(root, 'content', 'pages', 'portfolio'), { recursive: true });
    await writeFile(path.join(root, 'content', 'pages', 'portfolio', `${locale}.md`), `---\ntitle: ${title}\ndescription: ${title}\ntemplate: portfolio\n---\n`);
  }
  for (let i = 1; i <= 5; i++) {
    for (const locale of ['en', 'fr']) {
      const dir = path.join(root, 'content', 'articles', `note-${i}`);
      await mkdir(dir, { recursive: true });
      const year = i <= 2 ? 2023 : 2024;
      await writeFile(
        path.join(dir, `${locale}.md`),
        `---\ntitle: ${locale === 'en' ? 'Note' : 'Note fr'} ${i}\nslug: ${locale === 'en' ? 'note' : 'note-fr'}-${i}\ndate: ${year}-0${i}-10\ntype: ${i % 2 ? 'insight' : 'news'}\nsections: [insights]\n---\nText ${i}.\n`,
      );
    }
  }
  return root;
}

const CSP_VIOLATION = /Content Security Policy|Refused to/i;

describe('forms, tables and listings in the browser', { skip, timeout: 300_000 }, () => {
  let browser: Browser;
  let endpoint: Awaited<ReturnType<typeof startEndpoint>>;
  let site: { url: string; dir: string; close(): Promise<unknown> };
  const errors: string[] = [];

  before(async () => {
    endpoint = await startEndpoint();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const root = await fixtureWith('forms-tables-listings', `${endpoint.url}/contact`, url);
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'ir-site-forms-'));
    const dir = path.join(tmp, 'public');
    await build({ root, outDir: dir, reporter: {} });
    const server = await serve({ dir, port });
    site = { url, dir, close: async () => (await server.close(), await rm(tmp, { recursive: true, force: true })) };
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    endpoint?.server.close();
  });

  async function open(sitePath: string, { js = true } = {}): Promise<Page> {
    const page = await browser.context.newPage();
    errors.length = 0;
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    // Without JavaScript: no script is loaded (the runtime never starts), as with scripts off.
    if (!js) await page.route('**/*', (route) => (route.request().resourceType() === 'script' ? route.abort() : route.continue()));
    else {
      // The bot check's provider (blocked here, like any third party) stands in with a stub.
      await page.addInitScript(
        script(() => {
          (window as unknown as { grecaptcha: unknown }).grecaptcha = {
            ready: (f: () => void) => f(),
            execute: () => Promise.resolve('token-from-the-bot-check'),
          };
        }),
      );
    }
    await page.goto(site.url + sitePath, { waitUntil: 'load' });
    if (js) await until(() => page.evaluate(() => !!(history.state as { key?: string } | null)?.key), 'the runtime to start');
    return page;
  }

  async function fill(page: Page) {
    await page.fill('#contact-name', 'Jeanne Tremblay');
    await page.fill('#contact-email', 'jeanne@example.com');
    await page.fill('#contact-message', 'Bonjour, une question sur le dividende.');
  }

  test('with JavaScript, the French form is sent in the page with the bot-check token and says so', async () => {
    endpoint.fail.on = false;
    const before = endpoint.posted.length;
    const page = await open('/fr/contact-us/');
    await fill(page);
    await page.click('form[data-form="contact"] button[type="submit"]');
    const status = await until(async () => (await page.textContent('[role="status"]'))?.trim(), 'the status message');
    assert.match(status, /^Merci\u00a0: votre message a été envoyé/);
    assert.equal(new URL(page.url()).pathname, '/fr/contact-us/', 'stays on the page');
    const sent = endpoint.posted.slice(before);
    assert.equal(sent.length, 1);
    assert.match(sent[0]!.accept, /application\/json/);
    assert.equal(sent[0]!.fields['message'], 'Bonjour, une question sur le dividende.');
    assert.equal(sent[0]!.fields['bot-check-token'], 'token-from-the-bot-check');
    assert.equal(sent[0]!.fields['_next'], `${site.url}/fr/contact-us/sent/`);
    assert.equal(await page.inputValue('#contact-message'), '', 'the form is cleared once sent');
    assert.deepEqual(errors.filter((e) => CSP_VIOLATION.test(e)), [], 'no Content-Security-Policy violation');
    await page.close();
  });

  test('with JavaScript, a field left empty or a wrong address is said under it in French, and gets the focus; nothing is sent until all is right', async () => {
    endpoint.fail.on = false;
    const before = endpoint.posted.length;
    const page = await open('/fr/contact-us/');
    const submit = () => page.click('form[data-form="contact"] button[type="submit"]');
    const state = () =>
      page.evaluate(() =>
        ['contact-name', 'contact-email', 'contact-message'].map((id) => {
          const control = document.getElementById(id)!;
          const error = document.getElementById(control.getAttribute('aria-describedby') ?? '-');
          return [id, control.getAttribute('aria-invalid'), error?.textContent ?? null];
        }),
      );
    await submit();
    await until(() => page.evaluate(() => document.querySelectorAll('.field__error').length === 3), 'three field errors');
    assert.deepEqual(await state(), [
      ['contact-name', 'true', 'Veuillez remplir ce champ.'],
      ['contact-email', 'true', 'Veuillez remplir ce champ.'],
      ['contact-message', 'true', 'Veuillez remplir ce champ.'],
    ]);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'contact-name', 'the first field in error has the focus');
    // axe-core on the form in its error state: no violation.
    await page.evaluate(await readFile(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string }[] }> } }).axe;
      return (await axe.run('form[data-form="contact"]', { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })).violations.map((v) => v.id);
    });
    assert.deepEqual(violations, []);

    await page.fill('#contact-name', 'Jeanne Tremblay');
    await page.fill('#contact-email', 'jeanne');
    await page.fill('#contact-message', 'Bonjour.');
    assert.equal(await page.evaluate(() => document.querySelectorAll('.field__error').length), 1, 'an error goes once its field is right');
    await submit();
    await until(() => page.evaluate(() => document.getElementById('contact-email-error')?.textContent?.startsWith('Veuillez entrer une adresse courriel')), 'the address error');
    assert.deepEqual(await state(), [
      ['contact-name', null, null],
      ['contact-email', 'true', 'Veuillez entrer une adresse courriel, par exemple nom@exemple.com.'],
      ['contact-message', null, null],
    ]);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'contact-email');
    assert.equal(endpoint.posted.length, before, 'nothing was sent');

    await page.fill('#contact-email', 'jeanne@example.com');
    await submit();
    const status = await until(async () => (await page.textContent('[role="status"]'))?.trim(), 'the status message');
    assert.match(status, /^Merci/);
    assert.equal(endpoint.posted.length, before + 1);
    assert.equal(await page.evaluate(() => document.querySelectorAll('[aria-invalid]').length), 0);
    await page.close();
  });

  test('when the endpoint fails, the page says so in French and keeps the text', async () => {
    endpoint.fail.on = true;
    const page = await open('/fr/contact-us/');
    await fill(page);
    await page.click('form[data-form="contact"] button[type="submit"]');
    const status = await until(async () => (await page.textContent('[role="status"]'))?.trim(), 'the status message');
    assert.match(status, /n’a pas pu être envoyé.*ir@beta\.example/);
    assert.equal(await page.inputValue('#contact-message'), 'Bonjour, une question sur le dividende.');
    endpoint.fail.on = false;
    await page.close();
  });

  test('without JavaScript, the form is a plain POST that lands on the French thank-you page', async () => {
    const before = endpoint.posted.length;
    const page = await open('/fr/contact-us/', { js: false });
    await fill(page);
    await Promise.all([page.waitForURL(`${site.url}/fr/contact-us/sent/`), page.click('form[data-form="contact"] button[type="submit"]')]);
    assert.equal((await page.textContent('h1'))?.trim(), 'Merci de votre message');
    const sent = endpoint.posted.slice(before);
    assert.equal(sent.length, 1);
    assert.doesNotMatch(sent[0]!.accept, /application\/json/);
    assert.equal(sent[0]!.fields['name'], 'Jeanne Tremblay');
    await page.close();
  });

  test('the French portfolio table reads French through Intl, identical after hydration', async () => {
    const served = await readFile(path.join(site.dir, 'fr', 'portfolio', 'index.html'), 'utf8');
    const page = await open('/fr/portfolio/');
    const table = async () => page.evaluate(() => [...document.querySelectorAll('table.data-table tr')].map((tr) => [...tr.children].map((c) => c.textContent)));
    // Hydration is asynchronous: wait until React owns the table, then any difference between the
    // server's text and the client's has been reported (React throws the server's HTML away, with an error).
    await until(
      () => page.evaluate(() => Object.keys(document.querySelector('table.data-table tbody td') ?? {}).some((k) => k.startsWith('__reactFiber'))),
      'React to hydrate the table',
    );
    await until(() => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(true))))), 'a frame after hydration');
    assert.deepEqual(errors, [], 'no hydration mismatch or other error in the console');
    const rows = await table();
    assert.deepEqual(rows[0], ['Société', 'Symbole', 'Pondération', 'Juste valeur', 'Shares', 'Investissement', 'Since']);
    assert.deepEqual(rows[1], ['Acme', 'ACM', '4,8\u00a0%', '1\u00a0234,5\u00a0M$', '1\u00a0234\u00a0567', '2011', '25 novembre 2026']);
    for (const cell of rows[1]!) assert.ok(served.includes(cell!), `the server rendered ${JSON.stringify(cell)} too`);
    await page.close();
    const en = await open('/portfolio/');
    // The company is the row's header: a screen reader names it with every cell of the row.
    assert.equal(await en.evaluate(() => document.querySelector('table.data-table tbody tr > :first-child')?.outerHTML.replace(/>.*/, '>')), '<th scope="row">');
    assert.deepEqual((await en.evaluate(() => [...document.querySelectorAll('table.data-table tbody tr > *')].map((c) => c.textContent))), [
      'Acme',
      'ACM',
      '4.8%',
      '$1,234.5M',
      '1,234,567',
      '2011',
      'November 25, 2026',
    ]);
    await en.close();
  });

  test('listing pages and filters are plain links: without JavaScript and with it', async () => {
    const page = await open('/fr/insights/', { js: false });
    assert.equal(await page.getAttribute('nav.pagination a[aria-current="page"]', 'href'), '/fr/insights/');
    await Promise.all([page.waitForURL(`${site.url}/fr/insights/2/`), page.click('nav.pagination a[rel="next"]')]);
    assert.match((await page.textContent('h1'))!, /^Perspectives|^Insights/);
    assert.match((await page.textContent('h1'))!, /page 2 de/);
    await Promise.all([page.waitForURL(`${site.url}/fr/insights/year/2023/`), page.click('nav.listing-filters a[href="/fr/insights/year/2023/"]')]);
    const dates = await page.$$eval('.card time', (ts) => ts.map((t) => t.getAttribute('datetime')));
    assert.ok(dates.length > 0 && dates.every((d) => d!.startsWith('2023')), `only 2023: ${dates.join(' ')}`);
    await page.close();

    const js = await open('/fr/insights/');
    await js.evaluate(() => ((window as unknown as { __mark: number }).__mark = 1));
    await js.click('nav.pagination a[rel="next"]');
    await until(async () => (await js.textContent('h1'))?.includes('page 2'), 'page 2 rendered');
    assert.equal(new URL(js.url()).pathname, '/fr/insights/2/');
    assert.equal(await js.evaluate(() => (window as unknown as { __mark?: number }).__mark), 1, 'a client navigation, no full load');
    assert.deepEqual(errors, []);
    await js.close();
  });
});

describe('with no form target', { timeout: 120_000 }, () => {
  test('the contact page shows the e-mail instead of a form, and check warns', async () => {
    const root = await fixtureWith('forms-no-target', '', 'https://beta.example');
    const { out } = await buildToMemory(root);
    const html = out.files.get('fr/contact-us/index.html')!.toString('utf8');
    assert.doesNotMatch(html, /<form[^>]*data-form/, 'no form that cannot send');
    assert.match(html, /<a href="mailto:ir@beta\.example">ir@beta\.example<\/a>/);
    assert.equal(out.files.has('fr/contact-us/sent/index.html'), false, 'no thank-you page');
    const result = await check({ root });
    const warnings = result.diagnostics.filter((d) => d.rule === 'site/no-form-target');
    assert.deepEqual(warnings.map((w) => [w.file, w.severity]).sort(), [
      ['content/pages/contact-us/en.md', 'warning'],
      ['content/pages/contact-us/fr.md', 'warning'],
    ]);
  });
});

// The demo names a form target on this machine (site.config.ts: http://127.0.0.1:8787/contact,
// which `node scripts/form-endpoint.mjs` serves next to `ir-site dev`). Here the test serves it.
describe("the demo's contact form reaches the form target the demo names", { skip, timeout: 120_000 }, () => {
  let browser: Browser;
  let demo: BuiltSite;
  let endpoint: Awaited<ReturnType<typeof startEndpoint>>;
  let action: URL;

  before(async () => {
    demo = await buildSite();
    const form = /<form[^>]*data-form="contact"[^>]*>/.exec(demo.html('/contact-us/'))?.[0] ?? '';
    action = new URL(/action="([^"]+)"/.exec(form)?.[1] ?? 'about:blank');
    assert.equal(action.hostname, '127.0.0.1', `the demo's form posts to this machine: ${form}`);
    endpoint = await startEndpoint(Number(action.port));
    browser = await openBrowser();
  });
  after(async () => {
    await browser?.close();
    endpoint?.server.close();
    await demo?.close();
  });

  async function fillIn(page: Page, message: string) {
    await page.fill('#contact-name', 'Jeanne Tremblay');
    await page.fill('#contact-email', 'jeanne@example.com');
    await page.fill('#contact-message', message);
  }

  test('with JavaScript the message is sent in the page and the visitor is told; without it, a plain POST names the thank-you page', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${demo.url}/contact-us/`, { waitUntil: 'load' });
    await until(() => page.evaluate(() => !!(history.state as { key?: string } | null)?.key), 'the runtime to start');
    await fillIn(page, 'A question about the dividend.');
    await page.click('form[data-form="contact"] button[type="submit"]');
    const status = await until(async () => (await page.textContent('[role="status"]'))?.trim(), 'the status message');
    assert.match(status, /^Thank you: your message has been sent/, status);
    assert.equal(endpoint.posted.length, 1);
    assert.equal(endpoint.posted[0]!.fields['message'], 'A question about the dividend.');
    assert.match(endpoint.posted[0]!.accept, /application\/json/);
    await page.close();

    const plain = await browser.context.newPage();
    await plain.route('**/*', (route) => (route.request().resourceType() === 'script' ? route.abort() : route.continue()));
    await plain.goto(`${demo.url}/fr/contact-us/`, { waitUntil: 'load' });
    await fillIn(plain, 'Une question sur le dividende.');
    await plain.click('form[data-form="contact"] button[type="submit"]', { noWaitAfter: true });
    await until(() => endpoint.posted.length === 2 || null, 'the plain POST at the endpoint');
    const sent = endpoint.posted[1]!;
    assert.doesNotMatch(sent.accept, /application\/json/);
    assert.equal(sent.fields['message'], 'Une question sur le dividende.');
    assert.match(sent.fields['_next'] ?? '', /\/fr\/contact-us\/sent\/$/, "the French thank-you page, where the endpoint sends the visitor");
    await plain.close();
  });
});
