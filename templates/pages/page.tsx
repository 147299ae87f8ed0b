import type { ContentPageData, TemplateProps } from 'ir-site/templates';
import { ContactForm, ContactSent } from '../components/ContactForm.js';
import { Layout } from '../components/Layout.js';
import { Markdown } from '../components/Markdown.js';

export default function PageTemplate(props: TemplateProps<ContentPageData>) {
  const { pageData, site, strings } = props;
  return (
    <Layout props={props}>
      <h1>{pageData.title}</h1>
      <Markdown tree={pageData.body} strings={strings} eagerFirstImage />
      {pageData.form === 'contact' && <ContactForm site={site} strings={strings} sentPath={pageData.sentPath} />}
      {pageData.form === 'contact-sent' && <ContactSent strings={strings} formPath={pageData.formPath} />}
    </Layout>
  );
}
