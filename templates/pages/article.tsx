import type { ArticleData, DocumentLink, TemplateProps } from 'ir-site/templates';
import { articleTypeLabel, formatQuarter, t, type Strings } from '../lib/i18n.js';
import { DateText } from '../components/ArticleList.js';
import { Image } from '../components/Image.js';
import { Layout } from '../components/Layout.js';
import { Markdown } from '../components/Markdown.js';
import { Text } from '../components/Text.js';
import { VideoEmbed } from '../components/VideoEmbed.js';

const PDF = /\.pdf(?:$|[?#])/i;

function DocumentItem({ doc, strings }: { doc: DocumentLink; strings: Strings }) {
  // A PDF says so, unless its label already does.
  const hint = PDF.test(doc.href) && !/\bpdf\b/i.test(doc.label);
  return (
    <li>
      <a href={doc.href}>
        {doc.label}
        {hint && <span className="doc-hint"> {t(strings, 'article.pdfHint')}</span>}
      </a>
    </li>
  );
}

export default function ArticleTemplate(props: TemplateProps<ArticleData>) {
  const { pageData, pageContext, strings } = props;
  const locale = pageContext.locale;
  const sections = pageData.sectionLinks.map((s) => ({ key: s.key, label: s.title, href: s.path }));
  return (
    <Layout props={props}>
      <article className="article">
        <header className="article__header">
          <h1>{pageData.title}</h1>
          <p className="article-meta">
            <span className="article-meta__type">{articleTypeLabel(strings, pageData.type)}</span>
            <span className="article-meta__sep" aria-hidden="true">
              {' · '}
            </span>
            <Text strings={strings} k="article.publishedOn" vars={{ date: <DateText date={pageData.date} strings={strings} locale={locale} /> }} />
            {pageData.author && (
              <>
                <span className="article-meta__sep" aria-hidden="true">
                  {' · '}
                </span>
                <Text
                  strings={strings}
                  k="article.by"
                  vars={{ author: <a href={pageData.author.path}>{pageData.author.name}</a> }}
                />
              </>
            )}
          </p>
          {pageData.quarter && (
            <p className="article-quarter">
              {t(strings, 'article.quarter', { quarter: formatQuarter(strings, pageData.quarter) })}
            </p>
          )}
        </header>
        {pageData.cover && (
          // The cover is the page's first image: it loads at once, the body's load lazily.
          <div className={`article__cover article__cover--${pageData.cover.image.layout}`}>
            <Image image={pageData.cover.image} alt={pageData.cover.alt} eager />
          </div>
        )}
        {pageData.video && <VideoEmbed video={pageData.video} title={pageData.title} strings={strings} />}
        <Markdown tree={pageData.body} strings={strings} eagerFirstImage={!pageData.cover} />
        {pageData.documents.length > 0 && (
          <section className="documents" aria-labelledby="documents-heading">
            <h2 id="documents-heading">{t(strings, 'article.documents')}</h2>
            <ul className="link-list">
              {pageData.documents.map((doc) => (
                <DocumentItem key={doc.href} doc={doc} strings={strings} />
              ))}
            </ul>
          </section>
        )}
        {sections.length > 0 && (
          <p className="article-sections">
            {t(strings, 'article.backTo')}{' '}
            {sections.map((s, index) => (
              <span key={s.key}>
                {index > 0 && ', '}
                <a href={s.href}>{s.label}</a>
              </span>
            ))}
          </p>
        )}
      </article>
    </Layout>
  );
}
