// Tells screen-reader users where a client navigation took them, and moves keyboard
// focus to the new page (RUNTIME.md "Links, scroll, focus, announcements").
const FALLBACK: Record<string, string> = { en: 'Navigated to {name}', fr: 'Page affichée : {name}' };

export function announce(locale: string, strings: Record<string, string>, pathname: string): void {
  const announcer = document.getElementById('gatsby-announcer');
  const h1 = document.querySelector('#gatsby-focus-wrapper h1')?.textContent?.trim();
  const name = h1 || document.title || `new page at ${pathname}`;
  const template = strings['announcer.navigatedTo'] ?? FALLBACK[locale] ?? FALLBACK.en!;
  if (announcer) announcer.textContent = template.replace('{name}', name);
  document.getElementById('gatsby-focus-wrapper')?.focus({ preventScroll: true });
}
