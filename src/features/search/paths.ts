// Where each language's search index is published. Isomorphic: the build writes it, the
// search page fetches it.

/** `/search-index/fr.json`, the base file. A stable name: the page fetches it with `cache: 'no-cache'`,
 * so a new build is picked up after one conditional request (a 304 while nothing changed). */
export function searchIndexPath(locale: string): string {
  return `/search-index/${encodeURIComponent(locale)}.json`;
}

/** `/search-index/fr/t-so.0123456789.json`: one of the files the base names (their names carry a content hash). */
export function searchIndexPartPath(locale: string, file: string): string {
  return `/search-index/${encodeURIComponent(locale)}/${encodeURIComponent(file)}`;
}
