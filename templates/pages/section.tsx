import type { SectionData, TemplateProps } from 'ir-site/templates';
import { t } from '../lib/i18n.js';
import { ArticleList } from '../components/ArticleList.js';
import { Layout } from '../components/Layout.js';
import { Markdown } from '../components/Markdown.js';
import { ListingFilters, Pagination } from '../components/Pagination.js';

export default function SectionTemplate(props: TemplateProps<SectionData>) {
  const { pageData, pageContext, strings } = props;
  const { pagination } = pageData;
  return (
    <Layout props={props}>
      <h1>{pageData.title}</h1>
      <Markdown tree={pageData.body} strings={strings} eagerFirstImage />
      <ListingFilters data={pageData} strings={strings} />
      <ArticleList
        id="articles-heading"
        heading={t(strings, 'section.articles')}
        articles={pageData.articles}
        strings={strings}
        locale={pageContext.hrefLang}
        showEmpty
      />
      {pagination.pages > 1 && (
        <p className="pagination__status">
          {t(strings, 'pagination.status', { page: pagination.page, pages: pagination.pages, total: pagination.total })}
        </p>
      )}
      <Pagination pagination={pagination} strings={strings} />
    </Layout>
  );
}
