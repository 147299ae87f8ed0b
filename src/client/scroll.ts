// Scroll positions per history entry, as RUNTIME.md names them:
// sessionStorage `@@scroll|{pathname}|{historyKey}`, memory when storage fails. Beside each, the
// link a visitor followed away from the entry (`@@focus|...`), which back and forward focus again.
import { focusWrapper, fragmentTarget } from './own-elements.js';

const memory = new Map<string, string>();

function store(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    memory.set(key, value);
  }
}

function recall(key: string): string | null {
  try {
    const value = sessionStorage.getItem(key);
    if (value !== null) return value;
  } catch {
    // storage unavailable (private mode, quota): fall through to memory
  }
  return memory.get(key) ?? null;
}

export function savePosition(pathname: string, historyKey: string, y: number): void {
  store(`@@scroll|${pathname}|${historyKey}`, JSON.stringify(y));
}

export function readPosition(pathname: string, historyKey: string): number | null {
  const value = recall(`@@scroll|${pathname}|${historyKey}`);
  return value === null ? null : Number(JSON.parse(value));
}

/** Remembers the link of the page that has focus (the one followed away from it), if any. */
export function saveFocusedLink(pathname: string, historyKey: string): void {
  const active = document.activeElement;
  const href = active instanceof HTMLAnchorElement && focusWrapper()?.contains(active) ? active.getAttribute('href') : null;
  if (href !== null) store(`@@focus|${pathname}|${historyKey}`, href);
}

/** The link followed away from this entry, on the page as rendered again (back or forward), or null. */
export function followedLink(pathname: string, historyKey: string): HTMLElement | null {
  const href = recall(`@@focus|${pathname}|${historyKey}`);
  if (href === null) return null;
  const links = focusWrapper()?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? [];
  return [...links].find((a) => a.getAttribute('href') === href) ?? null;
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
  // An entry can be left before that frame comes (an anchor followed, then back at once: the
  // browser scrolled, the tracker has not run). Where the Navigation API is, its navigate event
  // comes while the address is still the entry being left: its position is saved then.
  const navigation = (globalThis as { navigation?: EventTarget }).navigation;
  navigation?.addEventListener('navigate', (event) => {
    const type = (event as Event & { navigationType?: string }).navigationType;
    const entry = type === 'traverse' || type === 'push' ? current() : null;
    if (entry) savePosition(entry.pathname, entry.key, scrollY);
  });
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
