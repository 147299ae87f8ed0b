// A listing's page links and its filters, as plain links: they work without JavaScript, and
// with it the runtime turns them into client navigations like any other link.
import type { SectionData } from 'ir-site/templates';
import { articleTypeLabel, t, type Strings } from '../lib/i18n.js';

/** Page `n` of a listing: page 1 is the listing's own path, never `/1/` (src/build/graph/listings.ts). */
export const listingPagePath = (basePath: string, n: number) => (n <= 1 ? basePath : `${basePath}${n}/`);

/** The page numbers shown: the first, the last, and two either side of the current one; null is a gap. */
export function pageWindow(page: number, pages: number): Array<number | null> {
  const out: Array<number | null> = [];
  for (let n = 1; n <= pages; n++) {
    if (n === 1 || n === pages || Math.abs(n - page) <= 2) out.push(n);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

export function Pagination({ pagination, strings }: { pagination: SectionData['pagination']; strings: Strings }) {
  const { page, pages, basePath } = pagination;
  if (pages <= 1) return null;
  const href = (n: number) => listingPagePath(basePath, n);
  return (
    <nav className="pagination" aria-label={t(strings, 'pagination.label')}>
      <ul>
        {page > 1 && (
          <li>
            <a href={href(page - 1)} rel="prev">
              {t(strings, 'pagination.previous')}
            </a>
          </li>
        )}
        {pageWindow(page, pages).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              {n === page ? (
                <a href={href(n)} aria-current="page" aria-label={t(strings, 'pagination.page', { page: n })}>
                  {n}
                </a>
              ) : (
                <a href={href(n)} aria-label={t(strings, 'pagination.page', { page: n })}>
                  {n}
                </a>
              )}
            </li>
          ),
        )}
        {page < pages && (
          <li>
            <a href={href(page + 1)} rel="next">
              {t(strings, 'pagination.next')}
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}

function FilterLink({ path, label, current }: { path: string; label: string; current: boolean }) {
  return (
    <li>
      <a href={path} aria-current={current ? 'page' : undefined}>
        {label}
      </a>
    </li>
  );
}

export function ListingFilters({ data, strings }: { data: SectionData; strings: Strings }) {
  const { filters, filter } = data;
  if (filters.years.length === 0 && filters.types.length === 0) return null;
  return (
    <nav className="listing-filters" aria-label={t(strings, 'filters.label')}>
      {filters.years.length > 0 && (
        <div className="listing-filters__group">
          {/* Each list is named by its label ("Year: All", not two bare "All" links). */}
          <span className="listing-filters__name" id="filters-year">
            {t(strings, 'filters.year')}
          </span>
          <ul aria-labelledby="filters-year">
            <FilterLink path={filters.all} label={t(strings, 'filters.all')} current={filter === null} />
            {filters.years.map((y) => (
              <FilterLink key={y.value} path={y.path} label={y.value} current={filter?.kind === 'year' && filter.value === y.value} />
            ))}
          </ul>
        </div>
      )}
      {filters.types.length > 0 && (
        <div className="listing-filters__group">
          <span className="listing-filters__name" id="filters-type">
            {t(strings, 'filters.type')}
          </span>
          <ul aria-labelledby="filters-type">
            <FilterLink path={filters.all} label={t(strings, 'filters.all')} current={filter === null} />
            {filters.types.map((ty) => (
              <FilterLink
                key={ty.value}
                path={ty.path}
                label={articleTypeLabel(strings, ty.value as Parameters<typeof articleTypeLabel>[1])}
                current={filter?.kind === 'type' && filter.value === ty.value}
              />
            ))}
          </ul>
        </div>
      )}
    </nav>
  );
}
