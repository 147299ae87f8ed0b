// Applies a page's head (the same data the server wrote) after a client navigation:
// title, <html lang>, description, canonical, hreflang alternates, manifest. Tags that
// did not change stay in place, so the browser does not fetch the manifest again.
import { headFor, structuredDataFor } from '../shared/head.js';
import type { PageRecord, SiteMetadata } from '../shared/types.js';
import { documentHead } from './own-elements.js';

const MANAGED = 'data-ir-head';

export function applyHead(record: PageRecord, site: SiteMetadata): void {
  const head = headFor(record, site);
  document.title = head.title;
  document.documentElement.lang = head.lang;
  const wanted: Element[] = head.tags.map(({ tag, attrs }) => {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    el.setAttribute(MANAGED, '');
    return el;
  });
  // The page's JSON-LD, as the server writes it (render/document.ts): data, never run.
  const structured = structuredDataFor(record, site);
  if (structured) {
    const el = document.createElement('script');
    el.type = 'application/ld+json';
    el.setAttribute(MANAGED, '');
    // Escaped as the server escapes it (shared/escape.ts scriptSafe), so an unchanged one is kept.
    el.textContent = JSON.stringify(structured).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
    wanted.push(el);
  }
  const kept = new Set<Element>();
  const container = documentHead();
  if (!container) return;
  for (const old of container.querySelectorAll(`[${MANAGED}]`)) {
    const same = wanted.find((el) => !kept.has(el) && el.isEqualNode(old));
    if (same) kept.add(same);
    else old.remove();
  }
  const anchor = container.querySelector('link[rel="icon"]');
  for (const el of wanted) if (!kept.has(el)) container.insertBefore(el, anchor);
}
