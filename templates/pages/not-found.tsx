import type { NotFoundData, TemplateProps } from 'ir-site/templates';
import { homePath, t } from '../lib/i18n.js';
import { Layout } from '../components/Layout.js';
import { Markdown } from '../components/Markdown.js';
import { SavedPages } from '../components/SavedPages.js';

export default function NotFoundTemplate(props: TemplateProps<NotFoundData>) {
  const { pageData, pageContext, site, strings } = props;
  return (
    <Layout props={props}>
      <h1>{pageData.title}</h1>
      <Markdown tree={pageData.body} strings={strings} eagerFirstImage />
      {/* The offline pages (`/offline.html`) share this template; a real 404 lists nothing. */}
      {pageContext.originalPath === '/offline.html' && <SavedPages locale={pageContext.locale} strings={strings} />}
      <p className="back-home">
        <a href={homePath(site, pageContext.locale)}>{t(strings, 'notFound.backHome')}</a>
      </p>
    </Layout>
  );
}
