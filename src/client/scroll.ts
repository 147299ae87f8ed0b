// Scroll positions per history entry, as RUNTIME.md names them:
// sessionStorage `@@scroll|{pathname}|{historyKey}`, memory when storage fails.
import { fragmentTarget } from './own-elements.js';

const memory = new Map<string, number>();
const keyFor = (pathname: string, historyKey: string) => `@@scroll|${pathname}|${historyKey}`;

export function savePosition(pathname: string, historyKey: string, y: number): void {
  const key = keyFor(pathname, historyKey);
  try {
    sessionStorage.setItem(key, JSON.stringify(y));
  } catch {
    memory.set(key, y);
  }
}

export function readPosition(pathname: string, historyKey: string): number | null {
  const key = keyFor(pathname, historyKey);
  try {
    const value = sessionStorage.getItem(key);
    if (value !== null) return Number(JSON.parse(value));
  } catch {
    // storage unavailable (private mode, quota): fall through to memory
  }
  return memory.get(key) ?? null;
}

/**
 * Saves on scroll, at most once per animation frame (Gatsby writes on every event). `current`
 * names the entry the position belongs to, or null while the address already shows the next
 * entry but the page on screen is still the last one (back/forward before its render): a
 * position saved then would be the old page's, stored under the new entry.
 */
export function trackScroll(current: () => { pathname: string; key: string } | null): void {
  let queued = false;
  addEventListener(
    'scroll',
    () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        const entry = current();
        if (entry) savePosition(entry.pathname, entry.key, scrollY);
      });
    },
    { passive: true },
  );
}

/** The element `hash` (`#id`, as in an address) points at in the page, or null. */
export function hashTarget(hash: string): HTMLElement | null {
  if (hash.length <= 1) return null;
  let id = hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // a malformed escape: look the fragment up as written
  }
  return fragmentTarget(id);
}

/**
 * After the browser followed `hash` itself (a first load, an in-page link): it scrolls only to an
 * id as written, and a content id carries a prefix (own-elements.ts), so this finds that one.
 */
export function followContentHash(hash: string): void {
  const target = hashTarget(hash);
  if (target && `#${target.id}` !== hash) target.scrollIntoView();
}

/** Top for a new page, the anchor for a hash, the saved position when going back or forward. */
export function scrollAfterNavigation(hash: string, restored: number | null): void {
  if (restored !== null) return scrollTo(0, restored);
  const target = hashTarget(hash);
  if (target) return target.scrollIntoView();
  scrollTo(0, 0);
}
