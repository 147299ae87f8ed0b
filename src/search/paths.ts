// Where each language's search index is published. Isomorphic: the build writes it, the
// search page fetches it.

/** `/search-index/fr.json`. A stable name: the page fetches it with `cache: 'no-cache'`, so a
 * new build is picked up after one conditional request (a 304 while nothing changed). */
export function searchIndexPath(locale: string): string {
  return `/search-index/${encodeURIComponent(locale)}.json`;
}
