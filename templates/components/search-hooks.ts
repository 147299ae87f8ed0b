// The search page's state, one hook per job: the search code and index, the URL (read on
// arrival and on back/forward, written as the visitor searches), the answer to the current
// search, and the scope read from the address (`/search/<section>/`).
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { ARTICLE_TYPES, localizePath, type SearchData, type TemplateProps } from 'ir-site/templates';
import type { SearchIndex, SearchOutcome, SearchParams } from '../lib/search-client.js';

export type SearchClient = typeof import('../lib/search-client.js');
export type Subsite = SearchData['subsites'][number];

/** Results shown at first, and added by "Show more results". */
export const PAGE_SIZE = 20;
export const FILTER_TYPES = [...ARTICLE_TYPES, 'page', 'bio'];

const newHistoryKey = () => Math.random().toString(36).slice(2, 10);

/**
 * The search chunk and this language's index (only this page asks for them), loaded when
 * wanted: at once when the address holds a search, otherwise at the visitor's first sign of
 * interest in the form (`want`: focus or a press), or if the form was used before the page
 * came to life. Parsing them is the longest task this page has; on a phone a visitor who only
 * reads the page should not pay for it.
 */
export function useSearchIndex(locale: string, search: string, fields: SearchFields) {
  const [wanted, setWanted] = useState(false);
  const [client, setClient] = useState<SearchClient | null>(null);
  // With its language: the page is kept when the visitor moves to the other language's search
  // page, and the old index must not answer the new language's query while the new one loads.
  const [loaded, setLoaded] = useState<{ locale: string; index: SearchIndex } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const input = fields.input.current;
    const used = !!input && (input.value !== '' || document.activeElement === input || (fields.type.current?.value ?? '') !== '');
    // Not URLSearchParams.size: Safari before 17 has none.
    if (new URLSearchParams(search).toString() !== '' || used) setWanted(true);
  }, [search, fields]);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    setFailed(false);
    import('../lib/search-client.js')
      .then((mod) => {
        if (!live) return;
        setClient(mod);
        return mod.loadSearchIndex(locale).then((index) => {
          if (live) setLoaded({ locale, index });
        });
      })
      .catch((error: unknown) => {
        console.error(error);
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [locale, wanted]);
  const want = useCallback(() => setWanted(true), []);
  return { client, index: loaded?.locale === locale ? loaded.index : null, failed, setFailed, want };
}

export interface SearchFields {
  input: RefObject<HTMLInputElement | null>;
  type: RefObject<HTMLSelectElement | null>;
}

/**
 * URL <-> search. The URL follows the query: a new history entry when a new search starts (and
 * on submit or a filter change), updated in place while typing, so back and forward restore searches.
 */
export function useSearchUrl(client: SearchClient | null, fields: SearchFields, search: string) {
  /** What is searched; null until the URL has been read after mounting. */
  const [params, setParams] = useState<SearchParams | null>(null);
  const [limit, setLimit] = useState(PAGE_SIZE);
  /** True while the current history entry is a search being typed (updated in place). */
  const typingEntry = useRef(false);
  /** True until the URL has been read once after mounting. */
  const arrived = useRef(true);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // URL -> search: on arrival, and whenever the URL changes under us (back and forward).
  useEffect(() => {
    if (!client) return;
    const sync = () => {
      // A keystroke still waiting must not push a search over the entry just restored.
      if (timer.current) clearTimeout(timer.current);
      const fromUrl = client.parseSearchParams(window.location.search);
      const input = fields.input.current;
      // Words typed and a type chosen before the search code arrived (and the URL has none) are kept.
      const select = fields.type.current;
      const typed = arrived.current && input && input.value !== '' && !fromUrl.q ? input.value : null;
      const chosen = arrived.current && select && select.value !== '' && fromUrl.types.length === 0 ? select.value : null;
      arrived.current = false;
      // The filter is what the Type list can show: the address's first type the list has. A
      // misspelt or second type would narrow the results while the list says "All types".
      const listed = fromUrl.types.find((type) => FILTER_TYPES.includes(type));
      const next = { ...fromUrl, q: typed ?? fromUrl.q, types: chosen !== null ? [chosen] : listed ? [listed] : [] };
      if (input && input.value !== next.q) input.value = next.q;
      if (select) select.value = next.types[0] ?? '';
      typingEntry.current = false;
      if (typed !== null || chosen !== null) {
        history.replaceState(history.state, '', `${window.location.pathname}${client.searchParamsString(next)}${window.location.hash}`);
        typingEntry.current = true;
      }
      setParams(next);
      setLimit(PAGE_SIZE);
    };
    sync();
    addEventListener('popstate', sync);
    return () => removeEventListener('popstate', sync);
  }, [client, search, fields]);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  /** Search -> URL. `push`: a new history entry; otherwise the typing entry is updated. */
  const commit = useCallback(
    (next: SearchParams, mode: 'typing' | 'push') => {
      if (!client) return;
      setParams(next);
      setLimit(PAGE_SIZE);
      const url = `${window.location.pathname}${client.searchParamsString(next)}${window.location.hash}`;
      if (url === `${window.location.pathname}${window.location.search}${window.location.hash}`) {
        if (mode === 'push') typingEntry.current = false;
        return;
      }
      if (mode === 'typing' && typingEntry.current) {
        history.replaceState(history.state, '', url);
      } else {
        history.pushState({ key: newHistoryKey() }, '', url);
        typingEntry.current = mode === 'typing';
      }
    },
    [client],
  );
  return { params, limit, setLimit, commit, timer };
}

/**
 * Search -> results. The index fetches the parts of itself the query needs first, so the
 * answer comes later; a newer search (or leaving the page) makes an older answer moot, so a
 * slow earlier query never replaces a later one. The results on screen stay until the next
 * answer arrives, and the status line speaks of the query they answer.
 */
export function useSearchAnswer(index: SearchIndex | null, params: SearchParams | null, section: string | null, limit: number, setFailed: (f: boolean) => void) {
  // With the index that gave it: another index (the other language's) shows none of its answers.
  const [answer, setAnswer] = useState<{ q: string; outcome: SearchOutcome; index: SearchIndex } | null>(null);
  useEffect(() => {
    if (!index || !params) return;
    if (!params.q.trim()) {
      setAnswer(null);
      return;
    }
    let live = true;
    const q = params.q;
    index.prepare(q, { types: params.types, section, limit }).then(
      (outcome) => {
        if (!live) return;
        setAnswer({ q, outcome, index });
        setFailed(false);
      },
      (error: unknown) => {
        console.error(error);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [index, params, section, limit, setFailed]);
  return answer?.index === index ? answer : null;
}

/** The section slug an address names under the search page (`/fr/search/insights/` -> `insights`), or null. */
export function slugIn(pathname: string, searchRoot: string): string | null {
  if (!pathname.toLowerCase().startsWith(searchRoot.toLowerCase())) return null;
  const segment = pathname.slice(searchRoot.length).split('/')[0] ?? '';
  if (segment === '') return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The scope: the page's own (`/search/insights/`) when it renders, then the address's once
 * mounted, since the search page also answers every other `/search/...` path (its match path).
 * An address naming no section searches the whole site, and `unknown` says which name it was.
 * Read after mounting, so hydration sees the markup the server rendered for the page.
 */
export function useScope(props: TemplateProps<SearchData>): { subsite: Subsite | null; unknown: string | null } {
  const { pageData, pageContext, site, location } = props;
  const known = (key: string | null) => (key ? (pageData.subsites.find((s) => s.key.toLowerCase() === key.toLowerCase()) ?? null) : null);
  const own = pageData.subsite ? (known(pageData.subsite) ?? { key: pageData.subsite, title: pageData.subsite, path: location.pathname }) : null;
  const [scope, setScope] = useState<{ subsite: Subsite | null; unknown: string | null }>({ subsite: own, unknown: null });
  const searchRoot = localizePath('/search/', pageContext.locale, site.defaultLocale);
  useEffect(() => {
    const slug = slugIn(location.pathname, searchRoot);
    if (slug === null) setScope({ subsite: own, unknown: null });
    else setScope({ subsite: known(slug), unknown: known(slug) ? null : slug });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `own` and `known` follow pageData
  }, [location.pathname, searchRoot, pageData]);
  return scope;
}
