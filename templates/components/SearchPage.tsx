// The search page, whole-site or scoped to a subsite (`/search/insights/`).
//
// The server renders the form (a plain GET to this same page), the scope and an empty
// status line: the same markup the browser's first render produces, so hydration matches.
// After mounting, the page loads its search chunk (MiniSearch, qs) and this language's
// index (its base file: each query then fetches the few index files it needs), reads `?q=`
// and `?type=` from the URL, and shows results as the visitor types.
// The URL follows the query: a new history entry when a new search starts (and on submit or
// a filter change), updated in place while typing, so back and forward restore searches.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { localizePath, ARTICLE_TYPES, type SearchData, type TemplateProps } from 'ir-site/templates';
import { t } from '../lib/i18n.js';
import type { SearchHit, SearchIndex, SearchOutcome, SearchParams } from '../lib/search-client.js';
import { Layout, currentPath } from './Layout.js';
import { Markdown } from './Markdown.js';
import { SearchResults, searchTypeLabel } from './SearchResults.js';
import { Text } from './Text.js';

type SearchClient = typeof import('../lib/search-client.js');

/** Results shown at first, and added by "Show more results". */
const PAGE_SIZE = 20;
/** Quiet time after the last keystroke before results and the URL follow. */
const DEBOUNCE_MS = 200;
const FILTER_TYPES = [...ARTICLE_TYPES, 'page', 'bio'];

const newHistoryKey = () => Math.random().toString(36).slice(2, 10);

export function SearchPage(props: TemplateProps<SearchData>) {
  const { pageData, pageContext, site, strings, location } = props;
  const locale = pageContext.locale;
  const here = currentPath(props);
  const subsite = pageData.subsite ? (pageData.subsites.find((s) => s.key === pageData.subsite) ?? { key: pageData.subsite, title: pageData.subsite, path: here }) : null;

  const [client, setClient] = useState<SearchClient | null>(null);
  const [index, setIndex] = useState<SearchIndex | null>(null);
  const [failed, setFailed] = useState(false);
  /** What is searched; null until the URL has been read after mounting. */
  const [params, setParams] = useState<SearchParams | null>(null);
  const [limit, setLimit] = useState(PAGE_SIZE);
  const inputRef = useRef<HTMLInputElement>(null);
  const typeRef = useRef<HTMLSelectElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** True while the current history entry is a search being typed (updated in place). */
  const typingEntry = useRef(false);
  /** True until the URL has been read once after mounting. */
  const arrived = useRef(true);

  // The search chunk and the index: only this page ever asks for them.
  useEffect(() => {
    let live = true;
    setFailed(false);
    import('../lib/search-client.js')
      .then((mod) => {
        if (!live) return;
        setClient(mod);
        return mod.loadSearchIndex(locale).then((loaded) => {
          if (live) setIndex(loaded);
        });
      })
      .catch((error: unknown) => {
        console.error(error);
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [locale]);

  // URL -> search: on arrival, and whenever the URL changes under us (back and forward).
  useEffect(() => {
    if (!client) return;
    const sync = () => {
      // A keystroke still waiting must not push a search over the entry just restored.
      if (timer.current) clearTimeout(timer.current);
      const fromUrl = client.parseSearchParams(window.location.search);
      const input = inputRef.current;
      // Words typed before the page came to life (and the URL has none) are kept.
      const typed = arrived.current && input && input.value !== '' && !fromUrl.q ? input.value : null;
      arrived.current = false;
      const next = typed === null ? fromUrl : { ...fromUrl, q: typed };
      if (input && input.value !== next.q) input.value = next.q;
      if (typeRef.current) typeRef.current.value = next.types.length === 1 && FILTER_TYPES.includes(next.types[0]!) ? next.types[0]! : '';
      typingEntry.current = false;
      if (typed !== null) {
        history.replaceState(history.state, '', `${window.location.pathname}${client.searchParamsString(next)}${window.location.hash}`);
        typingEntry.current = true;
      }
      setParams(next);
      setLimit(PAGE_SIZE);
    };
    sync();
    addEventListener('popstate', sync);
    return () => removeEventListener('popstate', sync);
  }, [client, location.search]);

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

  const current = (): SearchParams => {
    const type = typeRef.current?.value ?? '';
    return { q: inputRef.current?.value ?? '', types: type ? [type] : [] };
  };

  const onInput = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(current(), 'typing'), DEBOUNCE_MS);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // Until the search chunk is here, the plain GET does the job.
    if (!client) return;
    event.preventDefault();
    if (timer.current) clearTimeout(timer.current);
    commit(current(), 'push');
  };

  const onTypeChange = () => {
    if (!client) return;
    if (timer.current) clearTimeout(timer.current);
    commit(current(), 'push');
  };

  // Search -> results. The index fetches the parts of itself the query needs first, so the
  // answer comes later; a newer search (or leaving the page) makes an older answer moot, so a
  // slow earlier query never replaces a later one. The results on screen stay until the next
  // answer arrives, and the status line speaks of the query they answer.
  const [answer, setAnswer] = useState<{ q: string; outcome: SearchOutcome } | null>(null);
  const section = subsite?.key ?? null;
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
        setAnswer({ q, outcome });
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
  }, [index, params, section, limit]);
  const searching = !!params && params.q.trim() !== '';
  const outcome = searching ? (answer?.outcome ?? null) : null;

  const mark = useCallback((text: string, hit: SearchHit) => (client && index ? client.highlight(text, hit.matched, index.language) : [{ text, mark: false }]), [client, index]);

  const query = searching && answer ? answer.q.trim() : (params?.q.trim() ?? '');
  let status = '';
  if (failed) status = t(strings, 'search.error');
  else if (query && !outcome) status = t(strings, 'search.loading');
  else if (query && outcome) {
    const count = outcome.total;
    if (outcome.words.length === 0) status = t(strings, 'search.tooShort');
    else {
      const results = count === 0 ? t(strings, 'search.results.none', { query }) : t(strings, count === 1 ? 'search.results.one' : 'search.results.many', { count: count.toLocaleString(locale), query });
      status = subsite && count > 0 ? t(strings, 'search.results.scoped', { results, subsite: subsite.title }) : results;
    }
  }

  const keep = params && client ? client.searchParamsString({ q: params.q, types: params.types }) : '';
  const wholeSite = localizePath('/search/', locale, site.defaultLocale);

  return (
    <Layout props={props}>
      <h1>{pageData.title}</h1>
      <Markdown tree={pageData.body} strings={strings} />
      {subsite !== null && (
        <p className="search-scope">
          <Text strings={strings} k="search.scope" vars={{ subsite: <strong>{subsite.title}</strong> }} />{' '}
          <a href={`${wholeSite}${keep}`}>{t(strings, 'search.removeScope')}</a>
        </p>
      )}
      <form className="search-form" role="search" method="get" action={here} aria-label={t(strings, 'search.label')} onSubmit={onSubmit}>
        <label className="search-form__label" htmlFor="search-input">
          {t(strings, 'search.label')}
        </label>
        <div className="search-form__row">
          <input
            id="search-input"
            type="search"
            name="q"
            ref={inputRef}
            placeholder={t(strings, 'search.placeholder')}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            onInput={onInput}
            aria-describedby="search-status"
          />
          <button type="submit" className="button">
            {t(strings, 'search.submit')}
          </button>
        </div>
        <div className="search-form__filters">
          <label className="search-form__filter-label" htmlFor="search-type">
            {t(strings, 'search.typeLabel')}
          </label>
          <select id="search-type" name="type" ref={typeRef} defaultValue="" onChange={onTypeChange}>
            <option value="">{t(strings, 'search.typeAll')}</option>
            {FILTER_TYPES.map((type) => (
              <option key={type} value={type}>
                {searchTypeLabel(strings, type)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <noscript>
        <p className="search-noscript">{t(strings, 'search.noscript')}</p>
      </noscript>
      <p id="search-status" className="search-status" role="status" aria-live="polite" aria-atomic="true">
        {status}
      </p>
      {outcome && outcome.hits.length > 0 && (
        <section className="search-results" aria-label={t(strings, 'search.resultsHeading')}>
          <SearchResults hits={outcome.hits} strings={strings} locale={locale} mark={mark} />
          {outcome.total > outcome.hits.length && (
            <button type="button" className="button search-results__more" onClick={() => setLimit((n) => n + PAGE_SIZE)}>
              {t(strings, 'search.showMore')}
            </button>
          )}
        </section>
      )}
      {pageData.subsites.length > 0 && (
        <section className="search-subsites" aria-labelledby="search-subsites-heading">
          <h2 id="search-subsites-heading">{t(strings, 'search.subsites')}</h2>
          <ul className="link-list">
            {pageData.subsites.map((s) => (
              <li key={s.key}>
                <a href={`${s.path}${keep}`} aria-current={s.key === pageData.subsite ? 'page' : undefined}>
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Layout>
  );
}
