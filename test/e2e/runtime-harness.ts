// Shared by the runtime-*.test.ts browser tests: builds a site once per test file into a
// temp folder, serves it with the real `ir-site serve`, and opens pages in Debian's
// Chromium (as test/e2e/browser.ts does: everything but 127.0.0.1/localhost is aborted;
// plus service workers blocked, see openBrowser) with recorders for what a person, a
// screen reader and the network see.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { BrowserContext, Locator, Page, Request } from 'playwright-core';
import { build } from '../../src/build/index.js';
import { serve } from '../../src/commands/server/serve.js';
import type { PageRecord } from '../../src/shared/types.js';
import { demoBuild } from '../demo-build.js';
import { REPO } from '../helpers.js';
import { browserSkipReason, launchBrowser, type Browser } from './browser.js';

export { REPO };
export const skip = browserSkipReason();

/** The sessionStorage key that stops a reload loop when the build hash differs on a first load. */
export const RELOAD_GUARD = 'ir-site:reloaded-for-build';
export const DELAYED_EVENT = 'ir-site:route-update-delayed';

// ---------------------------------------------------------------------------------------
// The built site
// ---------------------------------------------------------------------------------------

export interface BuiltSite {
  /** `http://127.0.0.1:{port}`, no trailing slash. */
  url: string;
  dir: string;
  /** The built HTML of a page (`/x/` -> x/index.html, `/404.html` as is). */
  html(sitePath: string): string;
  /** The built page-data record of a page. */
  record(sitePath: string): PageRecord;
  /** The text of the page's h1 as the server rendered it. */
  h1(sitePath: string): string;
  /** The server-rendered <title>. */
  title(sitePath: string): string;
  /** The build hash the pages were rendered with. */
  buildHash: string;
  close(): Promise<void>;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
export function decodeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') return String.fromCodePoint(code[1]?.toLowerCase() === 'x' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10));
    return ENTITIES[code.toLowerCase()] ?? whole;
  });
}

const stripTags = (html: string) => decodeHtml(html.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();

function htmlFile(dir: string, sitePath: string): string {
  return path.join(dir, ...(sitePath.endsWith('/') ? `${sitePath}index.html` : sitePath).split('/').filter(Boolean));
}

export function pageDataPath(sitePath: string): string {
  const trimmed = sitePath.replace(/^\/+|\/+$/g, '');
  return `/page-data/${trimmed === '' ? 'index' : trimmed}/page-data.json`;
}

/** `component---templates-search-subsite-tsx` -> `search-subsite`: the chunk file is /static/chunks/search-subsite.{HASH}.js. */
export function templateOf(chunkName: string): string {
  return chunkName.replace(/^component---templates-/, '').replace(/-tsx$/, '');
}

export const chunkPattern = (template: string) => new RegExp(`^/static/chunks/${template}\\.[A-Za-z0-9_-]+\\.js$`);

/**
 * Serves a built `root` with `ir-site serve` on a free port: the demo from the run's one
 * shared build (test/demo-build.ts), any other site built into a temp folder.
 */
export async function buildSite(root: string = REPO): Promise<BuiltSite> {
  const { dir, shared } = root === REPO ? await demoBuild() : await buildInto(root);
  const tmp = path.dirname(dir);
  const server = await serve({ dir, port: 0 });
  const html = (sitePath: string) => readFileSync(htmlFile(dir, sitePath), 'utf8');
  const buildHash = (JSON.parse(readFileSync(path.join(dir, 'page-data', 'app-data.json'), 'utf8')) as { webpackCompilationHash: string })
    .webpackCompilationHash;
  return {
    url: server.url,
    dir,
    buildHash,
    html,
    record: (sitePath) => JSON.parse(readFileSync(path.join(dir, ...pageDataPath(sitePath).split('/').filter(Boolean)), 'utf8')) as PageRecord,
    h1(sitePath) {
      const match = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html(sitePath));
      assert.ok(match, `${sitePath} has an h1`);
      return stripTags(match[1]!);
    },
    title(sitePath) {
      const match = /<title>([\s\S]*?)<\/title>/.exec(html(sitePath));
      assert.ok(match, `${sitePath} has a title`);
      return decodeHtml(match[1]!);
    },
    async close() {
      await server.close();
      if (!shared) await rm(tmp, { recursive: true, force: true });
    },
  };
}

async function buildInto(root: string): Promise<{ dir: string; shared: boolean }> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ir-site-runtime-'));
  const dir = path.join(tmp, 'public');
  // Another build of the same root (another test file) may run at the same time. A build into
  // a folder waits for the site's lock (src/build/lock.ts); one into memory takes none, but shares
  // only the image cache, whose entries are never removed under a reader (images/process.ts, placeEntry).
  try {
    await build({ root, outDir: dir, reporter: {} });
    return { dir, shared: false };
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}

// ---------------------------------------------------------------------------------------
// Pages with recorders
// ---------------------------------------------------------------------------------------

export interface RecordedRequest {
  url: string;
  /** Pathname (the search is in `url`). */
  path: string;
  method: string;
  /** Playwright's resource type: document, script, fetch, ... */
  type: string;
  /** A main-frame document load (a full page load). */
  document: boolean;
  /** ms since the tab was opened. */
  at: number;
  request: Request;
}

export interface ConsoleEntry {
  type: string;
  text: string;
}

/**
 * An init script that calls `fn(arg)` in the page: a function's closure does not travel to
 * the page, its argument does. The test runner's TypeScript transform (esbuild keepNames)
 * may wrap inner functions in `__name(...)`, which the page lacks: the wrapper provides it.
 */
export function script<A>(fn: (arg: A) => unknown, arg?: A): string {
  return `(function () { var __name = function (f) { return f; }; (${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)}); })();`;
}

/**
 * An init script that counts the app-data answers the runtime has read (`Tab.buildChecked`).
 * The loader shares one app-data request among everything that asks while it is in flight: a
 * navigation started before the first-load check was answered sends no request of its own.
 */
export const WATCH_APP_DATA = script(() => {
  const w = window as unknown as { __appDataRead: number };
  w.__appDataRead = 0;
  const original = window.fetch;
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    const answer = original.call(window, input, init);
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (url.pathname !== '/page-data/app-data.json') return answer;
    return answer.then((response) => {
      const json = response.json.bind(response);
      // The loader's own handling of the answer runs in the microtasks that follow, before any
      // task of the test's (an evaluate) can see the count.
      response.json = () => json().finally(() => void w.__appDataRead++);
      return response;
    });
  } as typeof fetch;
});

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a truthy value (errors while the page navigates count as false). */
export async function until<T>(check: () => Promise<T> | T, what: string, timeout = 10_000, every = 25): Promise<NonNullable<T>> {
  const end = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end) assert.fail(`timed out after ${timeout} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await sleep(every);
  }
}

export interface PageState {
  path: string;
  search: string;
  hash: string;
  h1: string | null;
  title: string;
  lang: string;
  announcer: string;
  activeId: string | null;
  scrollY: number;
  /** True while the document the test marked is still the one shown (no full load since). */
  marked: boolean;
  historyLength: number;
  historyKey: string | null;
  manifest: string | null;
}

export interface OpenOptions {
  /** Scripts run in every document before the page's own (page.addInitScript). */
  init?: Array<string | (() => unknown)>;
  /** Wait for the router to start (default true). */
  boot?: boolean;
  /** Called with the page before it loads (routes). */
  before?(page: Page): unknown;
}

let linkCounter = 0;

export class Tab {
  readonly requests: RecordedRequest[] = [];
  readonly console: ConsoleEntry[] = [];
  readonly pageErrors: string[] = [];
  private readonly t0 = Date.now();

  private constructor(
    readonly page: Page,
    readonly site: BuiltSite,
  ) {
    page.on('request', (request) => {
      const url = new URL(request.url());
      this.requests.push({
        url: request.url(),
        path: url.pathname,
        method: request.method(),
        type: request.resourceType(),
        document: request.isNavigationRequest() && request.frame() === page.mainFrame(),
        at: Date.now() - this.t0,
        request,
      });
    });
    page.on('console', (message) => this.console.push({ type: message.type(), text: message.text() }));
    page.on('pageerror', (error) => this.pageErrors.push(error.message));
  }

  static async open(context: BrowserContext, site: BuiltSite, sitePath: string, options: OpenOptions = {}): Promise<Tab> {
    const page = await context.newPage();
    const tab = new Tab(page, site);
    for (const init of options.init ?? []) await page.addInitScript(typeof init === 'string' ? init : script(init));
    await options.before?.(page);
    await page.goto(site.url + sitePath, { waitUntil: 'load' });
    if (options.boot !== false) await tab.booted();
    return tab;
  }

  now(): number {
    return Date.now() - this.t0;
  }

  /** The router has started (it keys every history entry). */
  async booted(): Promise<void> {
    await until(() => this.page.evaluate(() => !!(history.state as { key?: string } | null)?.key), 'the runtime to start');
  }

  /** The first load's build-hash check has been answered and read (needs WATCH_APP_DATA): the next navigation asks app data itself. */
  async buildChecked(): Promise<void> {
    await until(() => this.page.evaluate(() => (window as unknown as { __appDataRead?: number }).__appDataRead! > 0), 'the first build-hash check to be answered');
  }

  /** Marks the current document: a full page load loses the mark, a client navigation keeps it. */
  async mark(): Promise<void> {
    await this.page.evaluate(() => {
      (window as unknown as { __irMarker: number }).__irMarker = 1;
    });
  }

  async state(): Promise<PageState> {
    return this.page.evaluate(() => ({
      path: location.pathname,
      search: location.search,
      hash: location.hash,
      h1: document.querySelector('h1')?.textContent?.replace(/\s+/g, ' ').trim() ?? null,
      title: document.title,
      lang: document.documentElement.lang,
      announcer: document.getElementById('gatsby-announcer')?.textContent ?? '',
      activeId: document.activeElement?.id || null,
      scrollY: Math.round(scrollY),
      marked: (window as unknown as { __irMarker?: number }).__irMarker === 1,
      historyLength: history.length,
      historyKey: (history.state as { key?: string } | null)?.key ?? null,
      manifest: document.querySelector('link[rel="manifest"]')?.getAttribute('href') ?? null,
    }));
  }

  /** Requests for page data (not app-data, redirects or static queries), optionally of one page. */
  pageData(sitePath?: string): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.method === 'GET' && /^\/page-data\/.+\/page-data\.json$/.test(r.path) && (sitePath === undefined || r.path === pageDataPath(sitePath)),
    );
  }

  appData(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === '/page-data/app-data.json');
  }

  documents(): RecordedRequest[] {
    return this.requests.filter((r) => r.document);
  }

  consoleErrors(): string[] {
    return this.console.filter((m) => m.type === 'error').map((m) => m.text);
  }

  /** An anchor added outside the React root (so re-renders leave it alone), fixed on screen. */
  async insertLink(href: string, attrs: Record<string, string> = {}, text = 'Test link'): Promise<Locator> {
    const id = `ir-test-link-${++linkCounter}`;
    await this.page.evaluate(
      ({ href, attrs, id, text }) => {
        let box = document.getElementById('ir-test-links');
        if (!box) {
          box = document.createElement('div');
          box.id = 'ir-test-links';
          box.style.cssText = 'position:fixed;top:0;right:0;z-index:2147483647;background:#fff;padding:4px;display:flex;gap:8px';
          document.body.append(box);
        }
        const a = document.createElement('a');
        a.href = href;
        a.id = id;
        a.textContent = text;
        for (const [k, v] of Object.entries(attrs)) a.setAttribute(k, v);
        box.append(a);
      },
      { href, attrs, id, text },
    );
    return this.page.locator(`#${id}`);
  }

  /** Waits until the page shows `sitePath` with the given h1 (client render or full load). */
  async waitForPage(sitePath: string, h1: string, timeout = 8000): Promise<PageState> {
    return until(
      async () => {
        const s = await this.state();
        return s.path === sitePath && s.h1 === h1 ? s : null;
      },
      `${sitePath} with h1 "${h1}"`,
      timeout,
    );
  }

  /** Waits for a full load of `sitePath` (a document request for it) and for the runtime to start there. */
  async waitForFullLoad(sitePath: string, { boot = true, after = 0 } = {}): Promise<void> {
    await until(() => this.documents().some((r) => r.path === sitePath && r.at >= after), `a full load of ${sitePath}`);
    await until(() => this.page.evaluate((p) => location.pathname === p && document.readyState === 'complete', sitePath), `${sitePath} to load`);
    if (boot) await this.booted();
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}

/**
 * One browser per test file: Debian's Chromium as test/e2e/browser.ts launches it (same
 * flags, throw-away profile, every request but 127.0.0.1/localhost aborted), with service
 * workers blocked. The offline worker (/sw.js) would otherwise answer the page's fetches
 * itself, and page.route(), which these tests use to produce failures, never sees requests
 * a service worker handles. The worker has its own tests.
 */
export function openBrowser(): Promise<Browser> {
  return launchBrowser({ serviceWorkers: 'block' });
}

/**
 * For the tests of the enclosing describe block: the demo site built and served, and a browser
 * (`launch`, openBrowser by default), handed to `use` before the tests and both closed after.
 */
export function withSiteAndBrowser(use: (site: BuiltSite, browser: Browser) => void, launch: () => Promise<Browser> = openBrowser): void {
  let site: BuiltSite | undefined;
  let browser: Browser | undefined;
  before(async () => {
    site = await buildSite();
    browser = await launch();
    use(site, browser);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });
}

/** What Playwright logs in each page when it blocks the offline worker's registration (see openBrowser). */
export const SERVICE_WORKER_BLOCKED = 'Service Worker registration blocked by Playwright';


export type { Browser };
