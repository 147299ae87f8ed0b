// Tells screen-reader users where a client navigation took them, and moves keyboard
// focus to the new page (RUNTIME.md "Links, scroll, focus, announcements").
import { ANNOUNCER_ID } from '../shared/dom-ids.js';
import { focusWrapper, ownElement } from './own-elements.js';

const FALLBACK: Record<string, string> = { en: 'Navigated to {name}', fr: 'Page affichée\u00a0: {name}' };

export function announce(locale: string, strings: Record<string, string>, pathname: string): void {
  const announcer = ownElement(ANNOUNCER_ID);
  const wrapper = focusWrapper();
  const h1 = wrapper?.querySelector('h1')?.textContent?.trim();
  const name = h1 || document.title || `new page at ${pathname}`;
  const template = strings['announcer.navigatedTo'] ?? FALLBACK[locale] ?? FALLBACK.en!;
  if (announcer) announcer.textContent = template.replace('{name}', name);
  wrapper?.focus({ preventScroll: true });
}
