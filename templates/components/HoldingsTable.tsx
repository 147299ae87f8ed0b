// One portfolio series as an accessible data table. Holdings rows are free-form:
// the columns are the union of their keys, in order of first appearance. Headers come from
// the locale's strings, numbers and dates through Intl for the page's language.
import type { NumberKind, PortfolioHolding, PortfolioSeries } from 'ir-site/templates';
import { formatDate, formatNumber, humanize, t, type Strings } from '../lib/i18n.js';

export function holdingColumns(rows: PortfolioHolding[]): string[] {
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  return columns;
}

interface CellProps {
  value: PortfolioHolding[string] | undefined;
  kind: NumberKind;
  strings: Strings;
  hrefLang: string;
  /** The row's header (its first, non-numeric column: the company): read out with every cell of the row. */
  rowHeader: boolean;
}

function Cell({ value, kind, strings, hrefLang, rowHeader }: CellProps) {
  const Tag = rowHeader ? 'th' : 'td';
  const scope = rowHeader ? 'row' : undefined;
  if (typeof value === 'number') return <Tag scope={scope} className="num">{formatNumber(strings, value, hrefLang, kind)}</Tag>;
  if (typeof value === 'boolean') return <Tag scope={scope}>{t(strings, value ? 'common.yes' : 'common.no')}</Tag>;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return (
      <Tag scope={scope}>
        <time dateTime={value}>{formatDate(strings, value, hrefLang)}</time>
      </Tag>
    );
  }
  return <Tag scope={scope}>{value ?? ''}</Tag>;
}

/** A column's header: the locale's `portfolio.column.<key>`, else the key made readable (a column the strings do not know yet). */
export function columnHeader(strings: Strings, column: string): string {
  return strings[`portfolio.column.${column}`] ?? humanize(column);
}

/** Columns whose every filled cell is a number: right-aligned, header included. */
function numericColumns(rows: PortfolioHolding[], columns: string[]): Set<string> {
  return new Set(
    columns.filter((column) => {
      const values = rows.map((row) => row[column]).filter((v) => v !== undefined && v !== null && v !== '');
      return values.length > 0 && values.every((v) => typeof v === 'number');
    }),
  );
}

/**
 * The page's own id for a series' element: a `:` keeps it apart from every heading slug a body
 * can make (src/shared/dom-ids.ts).
 */
export function seriesId(key: string, part: string): string {
  return `${part}:${key.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

export function HoldingsTable({ series, strings, hrefLang }: { series: PortfolioSeries; strings: Strings; hrefLang: string }) {
  const columns = holdingColumns(series.holdings);
  const captionId = seriesId(series.key, 'holdings-caption');
  const numeric = numericColumns(series.holdings, columns);
  if (series.holdings.length === 0 || columns.length === 0) {
    return <p className="empty">{t(strings, 'portfolio.noHoldings')}</p>;
  }
  return (
    <div className="table-scroll" role="region" tabIndex={0} aria-labelledby={captionId}>
      <table className="data-table">
        {/* Names the table and its scroll region for assistive technology; on screen the
            series heading right above already says it. */}
        <caption id={captionId} className="visually-hidden">{t(strings, 'portfolio.holdingsCaption', { title: series.title })}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={numeric.has(column) ? 'num' : undefined}>
                {columnHeader(strings, column)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {series.holdings.map((row, index) => (
            <tr key={index}>
              {columns.map((column, at) => (
                <Cell key={column} value={row[column]} kind={series.columns?.[column] ?? 'number'} strings={strings} hrefLang={hrefLang} rowHeader={at === 0 && !numeric.has(column)} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
