import type { ContentPageData, PortfolioSeries, TemplateProps } from 'ir-site/templates';
import { DateText } from '../components/ArticleList.js';
import { HoldingsTable, seriesId } from '../components/HoldingsTable.js';
import { Layout } from '../components/Layout.js';
import { Markdown } from '../components/Markdown.js';
import { Text } from '../components/Text.js';

function bySeriesOrder(a: PortfolioSeries, b: PortfolioSeries): number {
  return a.order - b.order || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export default function PortfolioTemplate(props: TemplateProps<ContentPageData>) {
  const { pageData, pageContext, strings, asAtDate, performanceApprovalDate } = props;
  // Dates and numbers are formatted for the page's language tag (fr-CA), the same on server and client.
  const locale = pageContext.hrefLang;
  const series = [...(props.portfolio ?? [])].sort(bySeriesOrder);
  return (
    <Layout props={props}>
      <h1>{pageData.title}</h1>
      <Markdown tree={pageData.body} strings={strings} eagerFirstImage />
      <div className="portfolio-dates">
        {asAtDate && (
          <p>
            <Text strings={strings} k="portfolio.asAt" vars={{ date: <DateText date={asAtDate} strings={strings} locale={locale} /> }} />
          </p>
        )}
        {performanceApprovalDate && (
          <p>
            <Text
              strings={strings}
              k="portfolio.performanceApproved"
              vars={{ date: <DateText date={performanceApprovalDate} strings={strings} locale={locale} /> }}
            />
          </p>
        )}
      </div>
      {series.map((s) => {
        const headingId = seriesId(s.key, 'series');
        return (
          <section key={s.key} className="portfolio-series" aria-labelledby={headingId}>
            <h2 id={headingId}>{s.title}</h2>
            <HoldingsTable series={s} strings={strings} hrefLang={locale} />
          </section>
        );
      })}
    </Layout>
  );
}
