// `ir-site/templates`: what a site's templates import from ir-site. Isomorphic (the templates
// render on the server and in the browser), so nothing here reaches for Node or the DOM.
// Bundled, this name resolves to these source files (build/templates/ir-site-package.ts), the same the
// browser runtime is bundled from, so a page carries one copy of them.

/** The props every template receives, the page data of each template, and the records' shapes. */
export type * from '../shared/types.js';
/** The article types, in the order the site lists them. */
export { ARTICLE_TYPES } from '../shared/types.js';
/** A path without locale prefix in a language: `/insights/` in `fr` is `/fr/insights/`. */
export { localizePath } from '../shared/paths.js';
/** What a markdown body may render, whatever a page record holds (the Markdown component uses these). */
export { imageOf, isSafeUrl, markdownElementFate, safeMarkdownProps } from '../shared/markdown-guard.js';
/** Sends a form in the page with the bot-check token (browser only: call it from an event handler). */
export { sendForm } from '../shared/form-submit.js';
