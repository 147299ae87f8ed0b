// Tells screen-reader users where a client navigation took them, and moves keyboard
// focus to the new page (RUNTIME.md "Links, scroll, focus, announcements").
import { ANNOUNCER_ID } from '../shared/dom-ids.js';
import { focusWrapper, ownElement } from './own-elements.js';

const FALLBACK: Record<string, string> = { en: 'Navigated to {name}', fr: 'Page affichée\u00a0: {name}' };

/**
 * Announces the new page and moves focus to it: to the wrapper, so the next Tab starts at the
 * page; or to `anchor`, so the next Tab starts there instead of at the page's top: the element
 * an address's `#id` scrolled into view (as the browser's own following of a fragment does), or,
 * back or forward, the link the visitor followed away from the page.
 */
export function announce(locale: string, strings: Record<string, string>, pathname: string, anchor: HTMLElement | null = null): void {
  const announcer = ownElement(ANNOUNCER_ID);
  const wrapper = focusWrapper();
  const h1 = wrapper?.querySelector('h1')?.textContent?.trim();
  const name = h1 || document.title || `new page at ${pathname}`;
  const template = strings['announcer.navigatedTo'] ?? FALLBACK[locale] ?? FALLBACK.en!;
  if (announcer) announcer.textContent = template.replace('{name}', name);
  // An anchor that cannot take focus (inside a closed <details>, hidden) leaves it to the page, as any other navigation does.
  if (!anchor || !focusAnchor(anchor)) wrapper?.focus({ preventScroll: true });
}

/** Focuses a fragment's target, one that is not focusable given `tabindex="-1"` until it loses focus; false when it cannot take it. */
function focusAnchor(anchor: HTMLElement): boolean {
  const lent = anchor.tabIndex < 0 && !anchor.hasAttribute('tabindex');
  if (lent) anchor.setAttribute('tabindex', '-1');
  anchor.focus({ preventScroll: true });
  if (document.activeElement === anchor) {
    if (lent) anchor.addEventListener('blur', () => anchor.removeAttribute('tabindex'), { once: true });
    return true;
  }
  if (lent) anchor.removeAttribute('tabindex');
  return false;
}
