// The pages this visitor has seen on this device, newest last, for the offline page's list
// (templates/components/SavedPages.tsx reads the same key). The worker's caches also hold
// pages the runtime only prefetched; the visitor never saw those, so the list leaves them out.

/** The localStorage key; SavedPages.tsx writes it out as a literal. */
export const SEEN_PAGES_KEY = 'ir-site:seen-pages';
const MAX_PAGES = 50;
/** The not-found and offline pages are shown in place of a page, never as one. */
const NOT_A_PAGE = /(^|\/)(404|offline)\.html$/;

/** Adds the page whose record was rendered (its own path, not the address: see the offline shell). */
export function rememberSeenPage(path: string): void {
  if (NOT_A_PAGE.test(path)) return;
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(SEEN_PAGES_KEY) ?? '[]');
    const others = Array.isArray(stored) ? stored.filter((p): p is string => typeof p === 'string' && p !== path) : [];
    localStorage.setItem(SEEN_PAGES_KEY, JSON.stringify([...others, path].slice(-MAX_PAGES)));
  } catch {
    // Storage blocked or full: the offline page lists fewer pages, nothing else changes.
  }
}
