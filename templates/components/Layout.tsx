// The frame of every page: skip link, header (site name, main navigation, search form,
// language switcher), the main landmark that holds the page, and the footer.
import type { ReactNode } from 'react';
import { localizePath, type NavItem, type TemplateProps } from 'ir-site/templates';
import { displayName, homePath, languageName, localHref, t } from '../lib/i18n.js';

export interface LayoutProps {
  props: TemplateProps<any>;
  children: ReactNode;
}

/** This page's own path, with its locale prefix. */
export function currentPath(props: TemplateProps<any>): string {
  const { pageContext, site } = props;
  return localizePath(pageContext.originalPath, pageContext.locale, site.defaultLocale);
}

function NavList({ items, props, className }: { items: NavItem[]; props: TemplateProps<any>; className: string }) {
  const { locale } = props.pageContext;
  const here = currentPath(props);
  return (
    <ul className={className}>
      {items.map((item) => {
        const href = localHref(item.path, locale, props.site.defaultLocale);
        return (
          <li key={item.key}>
            <a href={href} aria-current={href === here ? 'page' : undefined}>
              {item.label}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

function LanguageSwitcher({ props }: { props: TemplateProps<any> }) {
  const { site, pageContext, strings } = props;
  const others = site.locales.filter((l) => l.code !== pageContext.locale);
  if (others.length === 0) return null;
  return (
    <nav className="language-switcher" aria-label={t(strings, 'languageSwitcher.label')}>
      <ul>
        {others.map((other) => {
          const alternate = pageContext.alternates.find((a) => a.locale === other.code);
          const href = alternate ? alternate.path : localizePath('/', other.code, site.defaultLocale);
          return (
            <li key={other.code}>
              <a href={href} lang={other.hrefLang} hrefLang={other.hrefLang}>
                {languageName(strings, other.code)}
                {/* Without a translation the link leads to that language's home page: a reader is told, in this page's language. */}
                {!alternate && (
                  <span className="visually-hidden" lang={pageContext.hrefLang}>
                    {` ${t(strings, 'languageSwitcher.home')}`}
                  </span>
                )}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * The search form of every page: a plain GET to this language's search page, so it works
 * without JavaScript (the browser loads `/search/?q=...`, which reads the query on arrival).
 */
function HeaderSearch({ props }: { props: TemplateProps<any> }) {
  const { site, pageContext, strings } = props;
  return (
    <form className="site-search" role="search" method="get" action={localizePath('/search/', pageContext.locale, site.defaultLocale)} aria-label={t(strings, 'siteSearch.label')}>
      {/* Not the search page's own label: on that page both boxes are on screen, each must be told apart. */}
      <label className="visually-hidden" htmlFor="site-search-q">
        {t(strings, 'siteSearch.label')}
      </label>
      <input id="site-search-q" className="site-search__input" type="search" name="q" maxLength={200} autoComplete="off" />
      <button type="submit" className="site-search__button">
        {t(strings, 'search.submit')}
      </button>
    </form>
  );
}

export function Layout({ props, children }: LayoutProps) {
  const { site, pageContext, navigation, strings } = props;
  const name = displayName(site, pageContext.locale);
  return (
    <>
      <a className="skip-link" href="#main-content">
        {t(strings, 'skipLink')}
      </a>
      <header className="site-header">
        <div className="container site-header__inner">
          <a className="site-name" href={homePath(site, pageContext.locale)}>
            {name}
          </a>
          {navigation.main.length > 0 && (
            <nav className="main-nav" aria-label={t(strings, 'nav.main')}>
              <NavList items={navigation.main} props={props} className="main-nav__list" />
            </nav>
          )}
          <HeaderSearch props={props} />
          <LanguageSwitcher props={props} />
        </div>
      </header>
      <main id="main-content" className="container site-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <div className="container site-footer__inner">
          {navigation.footer.length > 0 && (
            <nav className="footer-nav" aria-label={t(strings, 'footer.legal')}>
              <NavList items={navigation.footer} props={props} className="footer-nav__list" />
            </nav>
          )}
          <p className="copyright">{t(strings, 'footer.copyright', { name })}</p>
        </div>
      </footer>
    </>
  );
}
