// The search page, whole-site or scoped to a subsite. Results are filled in by the
// browser into #search-results; the server renders the form and the scope only.
import type { SearchData, TemplateProps } from '../../src/shared/types.js';
import { localizePath } from '../../src/shared/paths.js';
import { t } from '../lib/i18n.js';
import { Layout, currentPath } from './Layout.js';
import { Markdown } from './Markdown.js';
import { Text } from './Text.js';

export function SearchPage(props: TemplateProps<SearchData>) {
  const { pageData, pageContext, site, strings } = props;
  const here = currentPath(props);
  const scope = pageData.subsite
    ? (pageData.subsites.find((s) => s.key === pageData.subsite)?.title ?? pageData.subsite)
    : null;
  return (
    <Layout props={props}>
      <h1>{pageData.title}</h1>
      <Markdown tree={pageData.body} strings={strings} />
      {scope !== null && (
        <p className="search-scope">
          <Text strings={strings} k="search.scope" vars={{ subsite: <strong>{scope}</strong> }} />{' '}
          <a href={localizePath('/search/', pageContext.locale, site.defaultLocale)}>
            {t(strings, 'search.removeScope')}
          </a>
        </p>
      )}
      <form className="search-form" role="search" method="get" action={here} aria-label={t(strings, 'search.label')}>
        <label className="search-form__label" htmlFor="search-input">
          {t(strings, 'search.label')}
        </label>
        <div className="search-form__row">
          <input
            id="search-input"
            type="search"
            name="q"
            placeholder={t(strings, 'search.placeholder')}
            autoComplete="off"
          />
          <button type="submit" className="button">
            {t(strings, 'search.submit')}
          </button>
        </div>
      </form>
      <div id="search-results" className="search-results" aria-live="polite"></div>
      {pageData.subsites.length > 0 && (
        <section className="search-subsites" aria-labelledby="search-subsites-heading">
          <h2 id="search-subsites-heading">{t(strings, 'search.subsites')}</h2>
          <ul className="link-list">
            {pageData.subsites.map((subsite) => (
              <li key={subsite.key}>
                <a href={subsite.path} aria-current={subsite.key === pageData.subsite ? 'page' : undefined}>
                  {subsite.title}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Layout>
  );
}
