// The runtime's own elements, found in a way content cannot shadow. Content lives inside the
// root container; the runtime's elements are children of <body> (src/build/render/document.ts).
// A lookup by id would return an element of the body first if one took the same id, and a
// named element can shadow a property of `document` itself (`<img name="getElementById">`),
// so the lookups go through the prototypes' own methods and check where the element is.
// (The build also prefixes every id and name written in content: src/features/markdown/content-ids.ts.)
import { CONTENT_ID_PREFIX, FOCUS_WRAPPER_ID, ROOT_ID } from '../shared/dom-ids.js';

const bodyOf = Object.getOwnPropertyDescriptor(Document.prototype, 'body')!.get!;
const headOf = Object.getOwnPropertyDescriptor(Document.prototype, 'head')!.get!;
const childrenOf = Object.getOwnPropertyDescriptor(Element.prototype, 'children')!.get!;
const idOf = Object.getOwnPropertyDescriptor(Element.prototype, 'id')!.get!;
const byId = Document.prototype.getElementById;
const byName = Document.prototype.getElementsByName;

function childWithId(parent: Element | null, id: string): HTMLElement | null {
  if (!parent) return null;
  for (const child of childrenOf.call(parent) as HTMLCollection) {
    if (idOf.call(child) === id) return child as HTMLElement;
  }
  return null;
}

export const documentBody = (): HTMLElement | null => bodyOf.call(document) as HTMLElement | null;
export const documentHead = (): HTMLHeadElement | null => headOf.call(document) as HTMLHeadElement | null;

/** One of the runtime's elements: a child of <body> with this id (the root, the announcer, the inline data). */
export function ownElement(id: string): HTMLElement | null {
  return childWithId(documentBody(), id);
}

/** The focusable wrapper around the page, inside the root. */
export function focusWrapper(): HTMLElement | null {
  return childWithId(ownElement(ROOT_ID), FOCUS_WRAPPER_ID);
}

/**
 * The element a URL fragment points at in the page: a heading id as written, else an id or a
 * name from content, which carry CONTENT_ID_PREFIX (as GitHub resolves `#foo` to
 * `#user-content-foo`). Only elements inside the root count.
 */
export function fragmentTarget(fragment: string): HTMLElement | null {
  const root = ownElement(ROOT_ID);
  if (!root || fragment === '') return null;
  const inside = (el: Element | null | undefined) => (el && root.contains(el) ? (el as HTMLElement) : null);
  const content = fragment.startsWith(CONTENT_ID_PREFIX) ? fragment : CONTENT_ID_PREFIX + fragment;
  return (
    inside(byId.call(document, fragment)) ??
    inside(byId.call(document, content)) ??
    inside(byName.call(document, content)[0]) ??
    inside(byName.call(document, fragment)[0])
  );
}
