// The search page's browser half, in a chunk of its own: the search page imports it
// dynamically after it mounts, so no other page downloads MiniSearch, the stemmers or qs,
// and prefetching a link to the search page does not either.
import qs from 'qs';
import { SearchIndex, highlight, searchIndexPartPath, searchIndexPath, type SearchFilters, type SearchOutcome, type SearchHit, type TextPart } from 'ir-site/search';

export { highlight };
export type { SearchIndex, SearchOutcome, SearchHit, SearchFilters, TextPart };

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

async function fetchText(url: string, init: RequestInit): Promise<string> {
  const response = await fetch(url, { credentials: 'same-origin', ...init });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.text();
}

/**
 * The locale's index, its base fetched once per page load; queries fetch the files they need
 * (`SearchIndex.prepare`). `no-cache` revalidates the base (a 304 when the build did not
 * change it), so a new deploy's index is never hidden by a stale copy; the other files'
 * names carry a hash of their content, so any copy of them is the right one.
 */
export function loadSearchIndex(locale: string): Promise<SearchIndex> {
  let pending = loaded.get(locale);
  if (!pending) {
    const base = searchIndexPath(locale);
    pending = fetchText(base, { cache: 'no-cache' }).then((text) => {
      const index = SearchIndex.load(JSON.parse(text), {
        fetchPart: (file) => fetchText(searchIndexPartPath(locale, file), {}),
        // A file the base names is gone: a new build. Past any cache (the offline worker's
        // included, hence the query string), for the new base.
        reloadBase: async () => JSON.parse(await fetchText(`${base}?fresh=${Date.now().toString(36)}`, { cache: 'reload' })) as unknown,
      });
      // What results show, in parallel with the first query's postings.
      index.prefetchDocuments();
      return index;
    });
    pending.catch(() => loaded.delete(locale));
    loaded.set(locale, pending);
  }
  return pending;
}
