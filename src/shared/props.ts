// Builds the props a template receives from a page record and its static queries.
// The same function runs in the build and (later) in the browser, so the server and
// the hydrating client hand templates identical props.
import type { MarkdownTree, PageRecord, StaticQueries, TemplateLocation, TemplateProps } from './types.js';

/** A static query file's `data`: the query's name as its single key. */
export type StaticQueryResult = Partial<StaticQueries>;

export class MissingStaticQueryError extends Error {}

/** The markdown body a page record carries; null when its template has none. */
export function recordBody(record: PageRecord): MarkdownTree | null {
  const data = record.result.data;
  return 'body' in data ? (data.body ?? null) : null;
}

export function composeProps(record: PageRecord, queries: readonly StaticQueryResult[], location: TemplateLocation): TemplateProps {
  const merged: StaticQueryResult = Object.assign({}, ...queries);
  const site = merged['site-metadata'];
  const navigation = merged.navigation;
  const strings = merged['ui-strings'];
  const series = merged['portfolio-series'];
  if (!site || !navigation || !strings || !series) {
    throw new MissingStaticQueryError(`page ${record.path} is missing shared data (static queries ${record.staticQueryHashes.join(', ')})`);
  }
  const data = record.result.data;
  return {
    site,
    pageContext: record.result.pageContext,
    pageData: data,
    location,
    portfolio: data.template === 'portfolio' ? (data.series ?? []) : null,
    performanceApprovalDate: site.performanceApprovalDate,
    asAtDate: site.asAtDate,
    allPortfolioSeries: series,
    navigation,
    strings,
  };
}
