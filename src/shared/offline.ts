// What the build, the browser runtime and the offline worker must agree on about offline
// use (docs/offline.md): where each language's offline page lives, and the messages a page
// sends the worker.
import { localizePath } from './paths.js';

/** The worker script. Never answered by the worker: the browser checks it for updates. */
export const WORKER_PATH = '/sw.js';
/** The build hash the runtime compares on every navigation: always from the network. */
export const APP_DATA_PATH = '/page-data/app-data.json';

/** The offline page's file: `/offline.html` for the default language, `/fr/offline.html` for French. */
export const OFFLINE_PAGE_FILE = 'offline.html';

export function offlinePagePath(locale: string, defaultLocale: string): string {
  return localizePath(`/${OFFLINE_PAGE_FILE}`, locale, defaultLocale);
}

/** Whether a record's path is an offline page (at the root or one language folder down). */
export function isOfflinePagePath(path: string): boolean {
  return /^\/(?:[^/]+\/)?offline\.html$/.test(path);
}

/**
 * Sent by a page to the worker that controls it when `app-data.json` names another build:
 * the worker empties its runtime caches (page data, assets) and answers on the given port.
 * Gatsby's offline plugin does the same (`clearPathResources`).
 */
export const CLEAR_RUNTIME_CACHES = 'IR_SITE_CLEAR_RUNTIME_CACHES';

/**
 * Sent by a page to the worker that has just taken control of it, with `urls`: what the page
 * loaded before the worker existed. The worker stores each with its own route and answers on
 * the given port once every copy is in its cache (Workbox's own `CACHE_URLS` answers when the
 * responses are in, before its cache writes end).
 */
export const CACHE_PAGE_URLS = 'IR_SITE_CACHE_PAGE_URLS';
