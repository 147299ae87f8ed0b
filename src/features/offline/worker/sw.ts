/// <reference lib="webworker" />
// The offline worker (/sw.js). The build bundles this file with esbuild, then workbox-build
// (injectManifest) writes the precache manifest in place of `self.__WB_MANIFEST`
// (src/features/offline/index.ts). One worker per deploy: its text carries the deploy id, so any
// change to the site makes the browser install a new one.
import { cacheNames, clientsClaim, copyResponse, type WorkboxPlugin } from 'workbox-core';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { CacheExpiration, ExpirationPlugin } from 'workbox-expiration';
import { addPlugins, cleanupOutdatedCaches, getCacheKeyForURL, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { RangeRequestsPlugin } from 'workbox-range-requests';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly, StaleWhileRevalidate, type Strategy } from 'workbox-strategies';
import { CACHE_PAGE_URLS, CLEAR_RUNTIME_CACHES } from '../../../shared/offline.js';
import { pageDataUrl } from '../../../shared/paths.js';
import { CACHES, PER_DEPLOY_CACHES, RULES, offlinePageFor, ruleFor, type OfflinePage, type RuleName } from './rules.js';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };
/** Defined by the build (esbuild `define`). */
declare const __IR_SITE_WORKER__: { deploy: string; offline: OfflinePage[] };

const CONFIG = __IR_SITE_WORKER__;
/** Readable in the worker's console, and the reason the script differs between deploys. */
(self as unknown as { IR_SITE_DEPLOY: string }).IR_SITE_DEPLOY = CONFIG.deploy;

// A new worker takes over at once (Gatsby does the same): the window then knows an update
// happened, and loads the next page in full (src/client/service-worker.ts).
void self.skipWaiting();
clientsClaim();

/** To the worker waiting behind this one: call skipWaiting() again (Workbox's message for it). */
const SKIP_WAITING = 'SKIP_WAITING';
/** From this worker to itself: it has started (the browser answers only then), now ask the successor. */
const HAND_OVER = 'IR_SITE_HAND_OVER';

// Chromium hands over by stopping the outgoing worker. A page request that reaches it while it
// stops starts it again, and the hand-over is dropped: the new worker stays installed (waiting)
// until the old one has been idle for 30 s, or a page navigates (5 minutes with DevTools
// attached, as in the browser tests). A skipWaiting() call made while it waits starts the
// hand-over again (the one above came before it installed; Chromium takes one per waiting
// worker). So a worker that starts while a successor waits (that restart) asks the successor
// to call it: first a message to itself, which the browser delivers once it has this worker
// running (a call before that would not have it stopped when idle).
if (self.serviceWorker?.state === 'activated' && self.registration.waiting) self.serviceWorker.postMessage({ type: HAND_OVER });
self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === SKIP_WAITING) void self.skipWaiting();
  else if (type === HAND_OVER) self.registration.waiting?.postMessage({ type: SKIP_WAITING });
});

/**
 * A request with a `Range` header that a cached copy answers gets that range (206), or 416
 * when the copy has no such bytes: a PDF viewer or a media element reading a file it opened
 * before, offline, as `ir-site serve` answers it online. Last in every list, so it slices
 * the copy the other plugins chose.
 */
const ranges = new RangeRequestsPlugin();

const manifest = self.__WB_MANIFEST;
addPlugins([ranges]);
precacheAndRoute(manifest);
cleanupOutdatedCaches();

const STATIC_LIMIT = 300;

/**
 * The hashed scripts and stylesheets of the deploy before leave the precache when this worker
 * activates; a page cached under that deploy still names them, and offline it would show
 * unstyled and inert. Kept in the static cache (capped, oldest out first) while they are there.
 */
async function keepOutgoingStatic(): Promise<void> {
  const current = new Set(manifest.map((entry) => new URL(typeof entry === 'string' ? entry : entry.url, self.location.href).href));
  const [precache, statics] = await Promise.all([caches.open(cacheNames.precache), caches.open(CACHES.static)]);
  const expiration = new CacheExpiration(CACHES.static, { maxEntries: STATIC_LIMIT });
  for (const request of await precache.keys()) {
    const url = new URL(request.url);
    url.searchParams.delete('__WB_REVISION__');
    if (current.has(url.href) || ruleFor({ url, sameOrigin: url.origin === self.location.origin, mode: 'no-cors', destination: '' }) !== 'static') continue;
    if (await statics.match(url.href)) continue;
    const response = await precache.match(request);
    if (!response) continue;
    await statics.put(url.href, response);
    await expiration.updateTimestamp(url.href);
  }
  await expiration.expireEntries();
}

self.addEventListener('install', (event) => {
  event.waitUntil(keepOutgoingStatic().catch(() => undefined));
});

/** Only complete answers are kept: no 404s, no opaque redirects. */
const completeOnly = new CacheableResponsePlugin({ statuses: [200] });

/**
 * A navigation the network cannot answer, to a page whose HTML is not cached: the offline
 * page of the URL's language. The runtime then renders the page in it from its cached record
 * (an app shell, as Gatsby's offline plugin has), or the page says the visitor is offline.
 * 200 when the record is cached, 503 when it is not: never a 404, which only the server can
 * tell (online, its answer always comes first).
 */
const offlineFallback: WorkboxPlugin = {
  handlerDidError: async ({ request }) => {
    if (request.mode !== 'navigate') return undefined;
    const pathname = new URL(request.url).pathname;
    const page = offlinePageFor(pathname, CONFIG.offline);
    const shell = page ? await matchPrecache(page) : undefined;
    if (!shell) return undefined;
    const record = await caches.match(pageDataUrl(pathname), { cacheName: CACHES.pageData });
    return new Response(shell.body, {
      status: record ? 200 : 503,
      statusText: record ? 'OK' : 'Service Unavailable',
      headers: shell.headers,
    });
  },
};

/** The deploy a cached page came from: a header of the cached copy only. */
const DEPLOY_HEADER = 'x-ir-site-deploy';

/**
 * Pages: one copy per page whatever its query (`/x/?utm_source=...` is `/x/`), marked with
 * its deploy. A page cached under an older deploy whose record of this deploy is cached is not
 * used: the offline fallback renders that record in the shell, so offline never shows a page
 * older than one the visitor has already seen online.
 */
const pageCopies: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => {
    const url = new URL(request.url);
    url.search = '';
    // The later plugins are given this key as the request: a range asked for stays on it.
    const range = request.headers.get('range');
    return range === null ? url.href : new Request(url.href, { headers: { range } });
  },
  cacheWillUpdate: async ({ response }) =>
    copyResponse(response, (init) => {
      const headers = new Headers(init.headers);
      headers.set(DEPLOY_HEADER, CONFIG.deploy);
      return { ...init, headers };
    }),
  cachedResponseWillBeUsed: async ({ cachedResponse, request }) => {
    if (!cachedResponse || cachedResponse.headers.get(DEPLOY_HEADER) === CONFIG.deploy) return cachedResponse;
    const record = await caches.match(pageDataUrl(new URL(request.url).pathname), { cacheName: CACHES.pageData });
    return record ? null : cachedResponse;
  },
};

const strategies: Record<RuleName, Strategy> = {
  'network-only': new NetworkOnly(),
  static: new CacheFirst({
    cacheName: CACHES.static,
    plugins: [completeOnly, new ExpirationPlugin({ maxEntries: STATIC_LIMIT, purgeOnQuotaError: true }), ranges],
  }),
  // Network first, not RUNTIME.md's stale-while-revalidate: a cached record is the deploy it
  // was fetched from, and an old worker (one whose successor cannot install yet) would show
  // it under a newer deploy's pages. The cache is the offline copy.
  'page-data': new NetworkFirst({ cacheName: CACHES.pageData, plugins: [completeOnly] }),
  asset: new StaleWhileRevalidate({ cacheName: CACHES.assets, plugins: [completeOnly, new ExpirationPlugin({ maxEntries: 200, purgeOnQuotaError: true }), ranges] }),
  page: new NetworkFirst({
    cacheName: CACHES.pages,
    plugins: [completeOnly, pageCopies, new ExpirationPlugin({ maxEntries: 200, purgeOnQuotaError: true }), offlineFallback, ranges],
  }),
};

for (const rule of RULES) {
  registerRoute(
    ({ url, request, sameOrigin }) => rule.match({ url, sameOrigin, mode: request.mode, destination: request.destination }),
    strategies[rule.name],
  );
}

/** One URL the window loaded before this worker took control, stored by the rule that answers it. */
async function storeLoaded(href: string, event: ExtendableEvent): Promise<void> {
  const request = new Request(href);
  const url = new URL(request.url);
  if (getCacheKeyForURL(url.href)) return; // the precache holds it already
  const rule = ruleFor({ url, sameOrigin: url.origin === self.location.origin, mode: request.mode, destination: request.destination });
  if (!rule) return;
  // handleAll's second promise ends when the strategy's cache writes have.
  await Promise.allSettled(strategies[rule].handleAll({ request, event }));
}

// The first take-over: the page lists what it loaded before this worker existed. The answer
// says it is stored, so the page's `ir-site:sw-cached` means it opens offline.
self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; urls?: unknown } | null;
  if (data?.type !== CACHE_PAGE_URLS || !Array.isArray(data.urls)) return;
  const hrefs = data.urls.filter((href): href is string => typeof href === 'string');
  const stored = Promise.all(hrefs.map((href) => storeLoaded(href, event).catch(() => undefined)));
  event.waitUntil(stored);
  void stored.then(() => event.ports[0]?.postMessage(true));
});

/** Page data and assets live at URLs that every deploy reuses. */
const clearPerDeployCaches = () => Promise.all(PER_DEPLOY_CACHES.map((name) => caches.delete(name)));

// A new worker starts them empty, so it never answers with what an older deploy cached.
// (The expiration timestamps of deleted entries stay behind; Workbox ignores them.)
self.addEventListener('activate', (event) => {
  event.waitUntil(clearPerDeployCaches());
});

// A page saw a new build hash while this worker still controls it (the new worker has not
// installed yet: a slow /sw.js): what this worker cached belongs to the old build. The page
// waits for the answer before it loads the new deploy.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type !== CLEAR_RUNTIME_CACHES) return;
  event.waitUntil(clearPerDeployCaches().then(() => event.ports[0]?.postMessage(true)));
});
