// What the build, the browser runtime and the offline worker must agree on about offline
// use (docs/offline.md): where each language's offline page lives, and the message a page
// sends the worker when it sees a new build.
import { localizePath } from './paths.js';

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
