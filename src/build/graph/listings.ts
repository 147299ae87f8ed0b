// A section's listing cut into pages, and the same per year and per article type: every view
// is a set of plain static pages (`/insights/`, `/insights/2/`, `/insights/year/2025/`,
// `/insights/type/commentary/2/`), so paging and filtering work without JavaScript.
// Pure: summaries in (newest first), views out.
import { ARTICLE_TYPES, type ArticleSummary, type SectionData } from '../../shared/types.js';
import { byText } from '../../shared/order.js';

export type ListingFilter = NonNullable<SectionData['filter']>;

export interface ListingView {
  /** `all`, `year:2025`, `type:commentary`: the same view in another language has the same key. */
  key: string;
  filter: ListingFilter | null;
  /** The view's first page, localised (`/fr/insights/year/2025/`). */
  basePath: string;
  /** The same without the locale prefix, for `originalPath`. */
  originalBase: string;
  articles: ArticleSummary[];
  pages: number;
}

/** Page `n` of a listing whose first page is `basePath`: page 1 is the listing's own path (the canonical one), never `/1/`. */
export function listingPagePath(basePath: string, n: number): string {
  return n <= 1 ? basePath : `${basePath}${n}/`;
}

/**
 * The views of one section page: all its articles, then, when they take more than one page,
 * each year (newest first) and each type (in ARTICLE_TYPES order) that has articles, with the
 * filter links every page shows.
 */
export function listingViews(
  articles: ArticleSummary[],
  pageSize: number,
  localBase: string,
  originalBase: string,
): { views: ListingView[]; filters: SectionData['filters'] } {
  const view = (filter: ListingFilter | null, list: ArticleSummary[]): ListingView => {
    const suffix = filter ? `${filter.kind}/${filter.value}/` : '';
    return {
      key: filter ? `${filter.kind}:${filter.value}` : 'all',
      filter,
      basePath: `${localBase}${suffix}`,
      originalBase: `${originalBase}${suffix}`,
      articles: list,
      pages: Math.max(1, Math.ceil(list.length / pageSize)),
    };
  };
  const byYear = new Map<string, ArticleSummary[]>();
  const byType = new Map<string, ArticleSummary[]>();
  for (const a of articles) {
    const year = a.date.slice(0, 4);
    (byYear.get(year) ?? byYear.set(year, []).get(year)!).push(a);
    (byType.get(a.type) ?? byType.set(a.type, []).get(a.type)!).push(a);
  }
  // Filters are for listings longer than a page; and a filter with one value would list the
  // same articles as the whole listing: none then.
  const long = articles.length > pageSize;
  const years = long && byYear.size > 1 ? [...byYear.keys()].sort((a, b) => byText(b, a)) : [];
  const types = long && byType.size > 1 ? ARTICLE_TYPES.filter((t) => byType.has(t)) : [];
  const views = [
    view(null, articles),
    ...years.map((y) => view({ kind: 'year', value: y }, byYear.get(y)!)),
    ...types.map((t) => view({ kind: 'type', value: t }, byType.get(t)!)),
  ];
  const link = (v: ListingView) => ({ value: v.filter!.value, path: v.basePath });
  return {
    views,
    filters: {
      all: localBase,
      years: views.filter((v) => v.filter?.kind === 'year').map(link),
      types: views.filter((v) => v.filter?.kind === 'type').map(link),
    },
  };
}
