// What every check reads: the output's pages as facts, its files and redirect rules, and,
// when the content compiles, the route of each page (its source entry).
import type { Diagnostic } from '../../errors/diagnostic.js';
import type { RedirectOrigin, Route, StaticQuery } from '../../build/graph/model.js';
import type { RouteWithText } from '../../build/bodies.js';
import type { LocaleConfig } from '../../shared/types.js';
import type { PageFacts } from './html.js';
import type { Sources } from './sources.js';

/** A check finding: a Diagnostic plus the page that shows it. */
export interface Finding extends Diagnostic {
  /** Site path of the page the problem was seen on (`/fr/article/x/`), when it is on a page. */
  page?: string;
  /** How many more pages show the very same problem (a template link broken everywhere). */
  morePages?: number;
}

export interface CheckSite {
  root: string;
  /** `https://www.example.com`, no trailing slash: absolute links to it are internal. */
  siteUrl: string | null;
  defaultLocale: string;
  locales: LocaleConfig[];
  /** Every output file, site-relative without the leading slash: `article/x/index.html`, `favicon.svg`. */
  files: ReadonlySet<string>;
  /** Every HTML page of the output, by site path. */
  pages: ReadonlyMap<string, PageFacts>;
  /** The output's redirect rules (redirects.json), with their source where the content names one. */
  redirects: RedirectOrigin[];
  /** The route (source entry) of each page path; empty when the content could not be compiled. */
  routes: ReadonlyMap<string, Route>;
  /** A route with its body's text, read if need be: only where a finding is located in a body. */
  withText: (route: Route) => RouteWithText;
  /** The navigation static queries (menu links come from config/navigation.yaml). */
  navigation: StaticQuery<'navigation'>[];
  /** Site-relative output folder (`public`), for references the document shell writes (stylesheet, scripts). */
  outDir: string;
  /** Site-relative folder of the templates (`templates`), for findings that come from a template. */
  templatesDir: string;
  /** Site-relative folder of the UI strings (`locales`). */
  localesDir: string;
  /** Site-relative file of the navigation (`config/navigation.yaml`). */
  navigationFile: string;
  sources: Sources;
}
