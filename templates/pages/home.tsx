import type { HomeData, TemplateProps } from 'ir-site/templates';
import { t } from '../lib/i18n.js';
import { ArticleList } from '../components/ArticleList.js';
import { Layout } from '../components/Layout.js';
import { Markdown } from '../components/Markdown.js';

export default function HomeTemplate(props: TemplateProps<HomeData>) {
  const { pageData, pageContext, strings } = props;
  return (
    <Layout props={props}>
      <h1>{pageData.title}</h1>
      <Markdown tree={pageData.body} strings={strings} eagerFirstImage />
      <ArticleList
        id="latest-heading"
        heading={t(strings, 'home.latest')}
        articles={pageData.latest}
        strings={strings}
        locale={pageContext.hrefLang}
      />
    </Layout>
  );
}
