// `ir-site/search`: the search engine a search page runs in the browser, over the index the build
// writes (docs/search.md). Bundled, this name resolves to these source files (build/templates/ir-site-package.ts).

/** Loads a language's index on first use and answers queries (scoped, filtered, ranked). */
export { SearchIndex, highlight, type SearchFilters, type SearchOutcome, type SearchHit, type TextPart } from '../features/search/engine.js';
/** Where a language's index and its parts are published. */
export { searchIndexPartPath, searchIndexPath } from '../features/search/paths.js';
