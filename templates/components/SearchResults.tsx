// The result list of the search page: rendered in the browser only, after the index has
// loaded (the server-rendered page has the form and an empty status line).
import type { ArticleType } from 'ir-site/templates';
import { articleTypeLabel, formatDate, t, type Strings } from '../lib/i18n.js';
import type { SearchHit, TextPart } from '../lib/search-client.js';

export function searchTypeLabel(strings: Strings, type: string): string {
  if (type === 'page' || type === 'bio') return t(strings, `search.type.${type}`);
  return articleTypeLabel(strings, type as ArticleType);
}

function Marked({ parts }: { parts: TextPart[] }) {
  return (
    <>
      {parts.map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : part.text))}
    </>
  );
}

export interface SearchResultsProps {
  hits: SearchHit[];
  strings: Strings;
  locale: string;
  /** Cuts a text into parts with the matched words marked. */
  mark(text: string, hit: SearchHit): TextPart[];
}

export function SearchResults({ hits, strings, locale, mark }: SearchResultsProps) {
  return (
    <ol className="search-results__list">
      {hits.map((hit) => (
        <li key={hit.id} className="search-result">
          <h2 className="search-result__title">
            <a href={hit.path}>
              <Marked parts={mark(hit.title, hit)} />
            </a>
          </h2>
          <p className="search-result__meta">
            <span className="search-result__type">{searchTypeLabel(strings, hit.type)}</span>
            {hit.date && (
              <>
                {' · '}
                <time dateTime={hit.date}>{formatDate(strings, hit.date, locale)}</time>
              </>
            )}
          </p>
          {hit.summary && (
            <p className="search-result__summary">
              <Marked parts={mark(hit.summary, hit)} />
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}
