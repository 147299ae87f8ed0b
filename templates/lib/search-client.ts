// The search page's browser half, in a chunk of its own: the search page imports it
// dynamically after it mounts, so no other page downloads MiniSearch, the stemmers or qs,
// and prefetching a link to the search page does not either.
import qs from 'qs';
import { SearchIndex, highlight, type SearchOutcome, type SearchHit, type TextPart } from '../../src/search/engine.js';
import { searchIndexPath } from '../../src/search/paths.js';

export { highlight };
export type { SearchIndex, SearchOutcome, SearchHit, TextPart };

/** SPEC.md section 9: query-string parsing limits. */
export const QUERY_LIMITS = { depth: 5, arrayLimit: 20, parameterLimit: 1000 } as const;

export interface SearchParams {
  /** The query as typed ('' for none). */
  q: string;
  /** Type filters (`commentary`, `page`...); empty for all. */
  types: string[];
}

const TYPE = /^[a-z][a-z-]{0,39}$/;

/** `?q=...&type=...` -> SearchParams. Anything else in the query string is ignored. */
export function parseSearchParams(search: string): SearchParams {
  const parsed = qs.parse(search, { ...QUERY_LIMITS, ignoreQueryPrefix: true });
  const first = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '');
  const type = parsed['type'];
  const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string' && TYPE.test(t));
  return { q: first(parsed['q']).slice(0, 200), types: [...new Set(types)] };
}

/** SearchParams -> `?q=...&type=...`, or '' when there is nothing to keep. */
export function searchParamsString(params: SearchParams): string {
  const query = new URLSearchParams();
  if (params.q.trim()) query.set('q', params.q);
  for (const type of params.types) query.append('type', type);
  const text = query.toString();
  return text ? `?${text}` : '';
}

const loaded = new Map<string, Promise<SearchIndex>>();

/**
 * The locale's index, fetched once per page load. `no-cache` revalidates it (a 304 when the
 * build did not change it), so a new deploy's index is never hidden by a stale copy.
 */
export function loadSearchIndex(locale: string): Promise<SearchIndex> {
  let pending = loaded.get(locale);
  if (!pending) {
    pending = fetch(searchIndexPath(locale), { cache: 'no-cache', credentials: 'same-origin' })
      .then((response) => {
        if (!response.ok) throw new Error(`search index answered ${response.status}`);
        return response.json();
      })
      .then((data: unknown) => SearchIndex.load(data));
    pending.catch(() => loaded.delete(locale));
    loaded.set(locale, pending);
  }
  return pending;
}
