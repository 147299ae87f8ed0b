// Tells screen-reader users where a client navigation took them, and moves keyboard
// focus to the new page (RUNTIME.md "Links, scroll, focus, announcements").
import { ANNOUNCER_ID } from '../shared/dom-ids.js';
import { focusWrapper, ownElement } from './own-elements.js';

const FALLBACK: Record<string, string> = { en: 'Navigated to {name}', fr: 'Page affichée\u00a0: {name}' };

/**
 * Announces the new page and moves focus to it: to the wrapper, so the next Tab starts at the
 * page; or to `anchor`, the element an address's `#id` scrolled into view, so the next Tab
 * starts there (as the browser's own following of a fragment does) instead of at the page's top.
 */
export function announce(locale: string, strings: Record<string, string>, pathname: string, anchor: HTMLElement | null = null): void {
  const announcer = ownElement(ANNOUNCER_ID);
  const wrapper = focusWrapper();
  const h1 = wrapper?.querySelector('h1')?.textContent?.trim();
  const name = h1 || document.title || `new page at ${pathname}`;
  const template = strings['announcer.navigatedTo'] ?? FALLBACK[locale] ?? FALLBACK.en!;
  if (announcer) announcer.textContent = template.replace('{name}', name);
  if (anchor) focusAnchor(anchor);
  else wrapper?.focus({ preventScroll: true });
}

/** Focuses a fragment's target; one that cannot take focus gets `tabindex="-1"` until it loses it. */
function focusAnchor(anchor: HTMLElement): void {
  if (anchor.tabIndex < 0 && !anchor.hasAttribute('tabindex')) {
    anchor.setAttribute('tabindex', '-1');
    anchor.addEventListener('blur', () => anchor.removeAttribute('tabindex'), { once: true });
  }
  anchor.focus({ preventScroll: true });
}
