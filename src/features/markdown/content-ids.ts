// Ids and names written in a body (raw HTML, footnotes) get CONTENT_ID_PREFIX, as GitHub's do,
// so content can never shadow the page's own elements (`<div id="__IR_PAGE_DATA__">`) or a
// `document` property (`<img name="getElementById">`). Runs on the sanitised tree, before
// heading ids are given (those stay unprefixed and avoid RESERVED_IDS: heading-ids.ts).
// remark-rehype's footnote ids already carry the prefix; its `footnote-label` gets it here,
// with the `aria-describedby` that points at it, and a link to an id of the same body follows
// the id it points at.
import type { Element, Root } from 'hast';
import { CONTENT_ID_PREFIX } from '../../shared/dom-ids.js';
import { elements } from './hast-elements.js';

const prefixed = (value: string) => (value.startsWith(CONTENT_ID_PREFIX) ? value : CONTENT_ID_PREFIX + value);

/** Properties that name an element of the page, as hast spells them. */
const NAMING = ['id', 'name'] as const;
const REFERRING = ['ariaDescribedBy', 'ariaLabelledBy'] as const;

/** rehype plugin: the body's own ids and names get the prefix; links to them follow. */
export function rehypeContentIds() {
  return prefixContentIds;
}

function prefixContentIds(tree: Root): void {
  const renamed = new Set<string>();
  const links: Element[] = [];
  elements(tree.children, (node) => {
    const props = node.properties;
    for (const key of NAMING) {
      const value = props[key];
      if (value === undefined || value === null) continue;
      const text = String(value);
      props[key] = prefixed(text);
      if (key === 'id' && props[key] !== text) renamed.add(text);
    }
    for (const key of REFERRING) {
      const value = props[key];
      if (value === undefined || value === null) continue;
      const tokens = Array.isArray(value) ? value.map(String) : String(value).split(/\s+/).filter(Boolean);
      props[key] = tokens.map(prefixed);
    }
    if (typeof props.href === 'string' && props.href.startsWith('#')) links.push(node);
  });
  if (renamed.size === 0) return;
  for (const link of links) {
    const href = link.properties.href as string;
    let target: string;
    try {
      target = decodeURIComponent(href.slice(1));
    } catch {
      continue;
    }
    if (renamed.has(target)) link.properties.href = `#${CONTENT_ID_PREFIX}${href.slice(1)}`;
  }
}
