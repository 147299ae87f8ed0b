import type { BioData, TemplateProps } from 'ir-site/templates';
import { t } from '../lib/i18n.js';
import { ArticleList } from '../components/ArticleList.js';
import { Layout, currentPath } from '../components/Layout.js';
import { Markdown } from '../components/Markdown.js';
import { Portrait } from '../components/Portrait.js';

/** `/fr/your-team/jdoe/` -> `/fr/your-team/`: the team list a bio belongs to. */
function parentPath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const cut = trimmed.lastIndexOf('/');
  return cut <= 0 ? '/' : `${trimmed.slice(0, cut)}/`;
}

export default function BioTemplate(props: TemplateProps<BioData>) {
  const { pageData, pageContext, strings } = props;
  return (
    <Layout props={props}>
      <div className="bio">
        <div className="bio__header">
          {/* No alt text: the name is the heading beside it; a screen reader would say it twice. */}
          {pageData.photo && <Portrait photo={pageData.photo} alt="" eager className="bio__photo" />}
          <div>
            <h1>{pageData.name}</h1>
            <p className="bio__role">{pageData.role}</p>
            {(pageData.email || pageData.linkedin) && (
              <ul className="bio__contact">
                {pageData.email && (
                  <li>
                    <span className="bio__contact-label">{t(strings, 'bio.email')} </span>
                    <a href={`mailto:${pageData.email}`}>{pageData.email}</a>
                  </li>
                )}
                {pageData.linkedin && (
                  <li>
                    <a href={pageData.linkedin}>{t(strings, 'bio.linkedin', { name: pageData.name })}</a>
                  </li>
                )}
              </ul>
            )}
          </div>
        </div>
        <Markdown tree={pageData.body} strings={strings} />
        <ArticleList
          id="bio-articles-heading"
          heading={t(strings, 'bio.articles', { name: pageData.name })}
          articles={pageData.articles}
          strings={strings}
          locale={pageContext.locale}
        />
        <p className="back-link">
          <a href={parentPath(currentPath(props))}>{t(strings, 'bio.backToTeam')}</a>
        </p>
      </div>
    </Layout>
  );
}
