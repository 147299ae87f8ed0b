// The search page, whole-site or scoped to a subsite (`/search/insights/`).
//
// The server renders the form (a plain GET to this same page), the scope and an empty
// status line: the same markup the browser's first render produces, so hydration matches.
// When the address holds a search, or at the visitor's first focus or press in the form, the
// page loads its search chunk (MiniSearch, qs) and this language's index (its base file:
// each query then fetches the few index files it needs), reads `?q=`
// and `?type=` from the URL, and shows results as the visitor types. The search page also
// answers any other `/search/<name>/` (its match path): the scope is then read from the
// address, and a name that is no section searches the whole site and says so.
// State lives in search-hooks.ts; this file is the markup.
import { useCallback, useEffect, useMemo, useRef, type FormEvent, type RefObject } from 'react';
import { localizePath, type SearchData, type TemplateProps } from 'ir-site/templates';
import { t, type Strings } from '../lib/i18n.js';
import type { SearchHit, SearchOutcome } from '../lib/search-client.js';
import { Layout, currentPath } from './Layout.js';
import { Markdown } from './Markdown.js';
import { SearchResults, searchTypeLabel } from './SearchResults.js';
import { Text } from './Text.js';
import { FILTER_TYPES, PAGE_SIZE, useScope, useSearchAnswer, useSearchIndex, useSearchUrl, type Subsite } from './search-hooks.js';

/** Quiet time after the last keystroke before results and the URL follow. */
const DEBOUNCE_MS = 200;

/** The status line: loading, failure, or how many results the shown query has (and where). */
function statusText(strings: Strings, locale: string, failed: boolean, query: string, outcome: SearchOutcome | null, subsite: Subsite | null): string {
  if (failed) return t(strings, 'search.error');
  if (!query) return '';
  if (!outcome) return t(strings, 'search.loading');
  if (outcome.words.length === 0) return t(strings, 'search.tooShort');
  const count = outcome.total;
  const results = count === 0 ? t(strings, 'search.results.none', { query }) : t(strings, count === 1 ? 'search.results.one' : 'search.results.many', { count: count.toLocaleString(locale), query });
  return subsite && count > 0 ? t(strings, 'search.results.scoped', { results, subsite: subsite.title }) : results;
}

interface SearchFormProps {
  strings: Strings;
  action: string;
  inputRef: RefObject<HTMLInputElement | null>;
  typeRef: RefObject<HTMLSelectElement | null>;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  onInput(): void;
  onTypeChange(): void;
  /** The visitor shows interest in the form: time to load the search code. */
  onInterest(): void;
}

/** A plain GET form to this same page; with the search code loaded, the page searches as the visitor types. */
function SearchForm({ strings, action, inputRef, typeRef, onSubmit, onInput, onTypeChange, onInterest }: SearchFormProps) {
  return (
    <form
      className="search-form"
      role="search"
      method="get"
      action={action}
      aria-label={t(strings, 'search.label')}
      onSubmit={onSubmit}
      onFocus={onInterest}
      onPointerDown={onInterest}
    >
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
  );
}

export function SearchPage(props: TemplateProps<SearchData>) {
  const { pageData, pageContext, site, strings, location } = props;
  const locale = pageContext.locale;
  const here = currentPath(props);
  const { subsite, unknown } = useScope(props);
  const inputRef = useRef<HTMLInputElement>(null);
  const typeRef = useRef<HTMLSelectElement>(null);
  const fields = useMemo(() => ({ input: inputRef, type: typeRef }), []);
  const { client, index, failed, setFailed, want } = useSearchIndex(locale, location.search, fields);
  const { params, limit, setLimit, commit, timer } = useSearchUrl(client, fields, location.search);

  const current = () => {
    const type = typeRef.current?.value ?? '';
    return { q: inputRef.current?.value ?? '', types: type ? [type] : [] };
  };
  const onInput = () => {
    want();
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
    want();
    // Until the search code is here: it reads the chosen type when it arrives.
    if (!client) return;
    if (timer.current) clearTimeout(timer.current);
    commit(current(), 'push');
  };

  const answer = useSearchAnswer(index, params, subsite?.key ?? null, limit, setFailed);
  const searching = !!params && params.q.trim() !== '';
  const outcome = searching ? (answer?.outcome ?? null) : null;
  const mark = useCallback((text: string, hit: SearchHit) => (client && index ? client.highlight(text, hit.matched, index.language) : [{ text, mark: false }]), [client, index]);
  const query = searching && answer ? answer.q.trim() : (params?.q.trim() ?? '');
  const status = statusText(strings, locale, failed, query, outcome, subsite);
  const keep = params && client ? client.searchParamsString({ q: params.q, types: params.types }) : '';
  const wholeSite = localizePath('/search/', locale, site.defaultLocale);
  // "Show more results" goes away when everything is shown: focus moves to the first new result
  // instead of falling to the page, so a keyboard or screen-reader user keeps their place.
  const resultsRef = useRef<HTMLElement>(null);
  const firstNew = useRef<number | null>(null);
  const showMore = () => {
    firstNew.current = outcome?.hits.length ?? null;
    setLimit((n) => n + PAGE_SIZE);
  };
  useEffect(() => {
    const from = firstNew.current;
    if (from === null || !outcome || outcome.hits.length <= from) return;
    firstNew.current = null;
    resultsRef.current?.querySelectorAll<HTMLAnchorElement>('.search-result__title a')[from]?.focus();
  }, [outcome]);

  return (
    <Layout props={props}>
      <h1>{pageData.title}</h1>
      <Markdown tree={pageData.body} strings={strings} />
      {unknown !== null && (
        <p className="search-scope search-scope--unknown">{t(strings, 'search.unknownScope', { slug: unknown })}</p>
      )}
      {subsite !== null && (
        <p className="search-scope">
          <Text strings={strings} k="search.scope" vars={{ subsite: <strong>{subsite.title}</strong> }} />{' '}
          <a href={`${wholeSite}${keep}`}>{t(strings, 'search.removeScope')}</a>
        </p>
      )}
      <SearchForm strings={strings} action={here} inputRef={inputRef} typeRef={typeRef} onSubmit={onSubmit} onInput={onInput} onTypeChange={onTypeChange} onInterest={want} />
      <noscript>
        <p className="search-noscript">{t(strings, 'search.noscript')}</p>
      </noscript>
      <p id="search-status" className="search-status" role="status" aria-live="polite" aria-atomic="true">
        {status}
      </p>
      {outcome && outcome.hits.length > 0 && (
        <section ref={resultsRef} className="search-results" aria-label={t(strings, 'search.resultsHeading')}>
          <SearchResults hits={outcome.hits} strings={strings} locale={locale} mark={mark} />
          {outcome.total > outcome.hits.length && (
            <button type="button" className="button search-results__more" onClick={showMore}>
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
                <a href={`${s.path}${keep}`} aria-current={s.key === subsite?.key ? 'page' : undefined}>
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
