// The templates a page can use, one list: the `TemplateId` type, the server registry and the
// browser's chunks are all made from it.

/** Each renders a page from a file of that name in the templates folder (`templates/pages/<id>.tsx`). */
export const TEMPLATE_IDS = [
  'home',
  'section',
  'page',
  'portfolio',
  'team',
  'column',
  'search',
  'search-subsite',
  'article',
  'bio',
  'not-found',
] as const;
