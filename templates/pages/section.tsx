import type { SectionData, TemplateProps } from 'ir-site/templates';
import { t } from '../lib/i18n.js';
import { ArticleList } from '../components/ArticleList.js';
import { Layout } from '../components/Layout.js';
import { Markdown } from '../components/Markdown.js';

export default function SectionTemplate(props: TemplateProps<SectionData>) {
  const { pageData, pageContext, strings } = props;
  return (
    <Layout props={props}>
      <h1>{pageData.title}</h1>
      <Markdown tree={pageData.body} strings={strings} eagerFirstImage />
      <ArticleList
        id="articles-heading"
        heading={t(strings, 'section.articles')}
        articles={pageData.articles}
        strings={strings}
        locale={pageContext.locale}
        showEmpty
      />
    </Layout>
  );
}
