// Data shared by many pages, computed once and named by hash (Gatsby's static queries).
import { createHash } from 'node:crypto';
import type { ResolvedConfig } from '../config/resolve.js';
import type { PageEntry, ValidSite } from '../content/entries.js';
import { diagnostic, type Diagnostic, type Severity } from '../../errors/diagnostic.js';
import { localizePath } from '../../shared/paths.js';
import type { NavItem, SiteMetadata, StaticQueries } from '../../shared/types.js';
import type { StaticQuery } from './model.js';
import { pageOriginalPath } from './routes.js';
import { fieldLine } from '../content/field-line.js';

/**
 * A stable, Gatsby-looking numeric id per query and locale. It names the query, not
 * its data, so a page's record does not change when the navigation does.
 */
export function queryHash(name: string, locale: string | null): string {
  const hex = createHash('sha256').update(`${name}\0${locale ?? ''}`).digest('hex').slice(0, 8);
  return String(parseInt(hex, 16));
}

function query<K extends keyof StaticQueries>(name: K, locale: string | null, data: StaticQueries[K]): StaticQuery {
  return { name, locale, hash: queryHash(name, locale), data } as StaticQuery;
}

/** Why a navigation key has no page in the default language, and how much that matters. */
function missingNavPage(key: string, allPages: readonly PageEntry[], defaultLocale: string): [Severity, string] {
  const own = allPages.find((p) => p.key === key && p.locale === defaultLocale);
  if (own?.fm.draft) return ['warning', `a draft: it is left out of the menus until it is published (${own.file})`];
  const other = allPages.find((p) => p.key === key);
  if (other) return ['error', `which has no ${defaultLocale} version: the menus of the default language would lack it (${other.file} is another language's)`];
  return ['error', 'which does not exist'];
}

export function buildStaticQueries(
  site: ValidSite,
  config: ResolvedConfig,
  /** Every page, drafts included: a draft named in the navigation is left out, with a warning. */
  allPages: readonly PageEntry[],
): { queries: StaticQuery[]; hashes: Record<string, string[]>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const metadata: SiteMetadata = {
    identity: config.identityKey,
    site: config.identity.site,
    name: config.identity.name,
    displayName: site.website.displayName,
    siteUrl: config.identity.siteUrl,
    defaultLocale: config.defaultLocale,
    locales: config.locales,
    signIn: config.identity.signIn,
    integrations: config.integrations,
    contactEmail: config.contactEmail || null,
    performanceApprovalDate: site.website.performanceApprovalDate,
    asAtDate: site.website.asAtDate,
  };
  const queries: StaticQuery[] = [query('site-metadata', null, metadata)];
  const hashes: Record<string, string[]> = {};

  const navItems = (list: 'main' | 'footer', locale: string): NavItem[] =>
    site.navigation[list].flatMap((key, i) => {
      const page = site.pages.find((p) => p.key === key && p.locale === locale);
      if (!page) {
        // Reported once, for the default locale; a page missing in another language is just left out there.
        if (locale === config.defaultLocale) {
          const [severity, message] = missingNavPage(key, allPages, config.defaultLocale);
          diagnostics.push(
            diagnostic('graph/unknown-page', {
              severity,
              file: site.navigation.file,
              line: fieldLine(site.navigation.fieldLines, list),
              field: `${list}[${i}]`,
              message: `navigation names the page "${key}", ${message}`,
            }),
          );
        }
        return [];
      }
      return [{ key, label: page.fm.navTitle ?? page.fm.title, path: localizePath(pageOriginalPath(page, config), locale, config.defaultLocale) }];
    });

  for (const { code } of config.locales) {
    const own = [
      query('navigation', code, { main: navItems('main', code), footer: navItems('footer', code) }),
      query('ui-strings', code, site.strings[code] ?? {}),
      query(
        'portfolio-series',
        code,
        site.portfolio.map((p) => ({ key: p.key, title: p.title[code] ?? p.title[config.defaultLocale] ?? p.key, order: p.order })),
      ),
    ];
    queries.push(...own);
    hashes[code] = [queries[0]!.hash, ...own.map((q) => q.hash)];
  }
  return { queries, hashes, diagnostics };
}
