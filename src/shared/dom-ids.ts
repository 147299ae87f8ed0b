// The ids of the page's own elements, and the rule that keeps content from shadowing them.
// Ids from content are untrusted: an element of a body whose id equals one of these would be
// found by `getElementById` first (it comes earlier in the document), and a `name` on some
// elements shadows `document` properties. So ids and names written in a body always carry
// CONTENT_ID_PREFIX (src/features/markdown/content-ids.ts), and heading ids, which stay unprefixed so
// that `#net-asset-value` links work without JavaScript, never take a reserved id.

/** The container React hydrates (Gatsby's name). */
export const ROOT_ID = '___gatsby';
/** The live region that announces client navigations (RUNTIME.md). */
export const ANNOUNCER_ID = 'gatsby-announcer';
/** The focusable wrapper around the template; focus lands there after a navigation. */
export const FOCUS_WRAPPER_ID = 'gatsby-focus-wrapper';
export const PAGE_DATA_SCRIPT_ID = '__IR_PAGE_DATA__';
export const STATIC_QUERIES_SCRIPT_ID = '__IR_STATIC_QUERIES__';
export const CHUNKS_SCRIPT_ID = '__IR_CHUNKS__';

/** Ids and names written in content get this prefix, as GitHub's do. */
export const CONTENT_ID_PREFIX = 'user-content-';

/**
 * Every fixed id the runtime and the templates give their own elements. A template that adds
 * one adds it here (test/unit/content-ids.test.ts checks the templates against this list).
 * Ids the templates make from data contain a `:`, which a heading slug never holds.
 */
export const RESERVED_IDS: readonly string[] = [
  ROOT_ID,
  ANNOUNCER_ID,
  FOCUS_WRAPPER_ID,
  PAGE_DATA_SCRIPT_ID,
  STATIC_QUERIES_SCRIPT_ID,
  CHUNKS_SCRIPT_ID,
  'main-content',
  'filters-year',
  'filters-type',
  'search-input',
  'search-type',
  'search-status',
  'search-subsites-heading',
  'site-search-q',
  'saved-pages-heading',
  'contact-form-heading',
  'contact-name',
  'contact-email',
  'contact-message',
  'contact-name-error',
  'contact-email-error',
  'contact-message-error',
  'latest-heading',
  'articles-heading',
  'bio-articles-heading',
  'documents-heading',
];
