// The shapes that cross the build/browser boundary: page-data records, static
// queries and the props every template receives. Isomorphic: no Node or DOM APIs.
import type { TEMPLATE_IDS } from './template-ids.js';

/** An element's props in a compiled body: React prop names; `style` as an object; a processed image's data on `<img>`. */
export type MarkdownProps = Record<string, string | number | boolean | Record<string, string> | ImageData>;

/** Text, or an element as `[tag, props, ...children]` with React prop names. */
export type MarkdownNode = string | [tag: string, props: MarkdownProps | null, ...children: MarkdownNode[]];

/** A markdown body: sanitised by the build and compiled to React-ready JSON (src/features/markdown/to-react-tree.ts). */
export interface MarkdownTree {
  type: 'root';
  children: MarkdownNode[];
}

/** A language of the site (`site.config.ts` `locales`). */
export interface LocaleConfig {
  /** Path prefix and content file name: `en`, `fr`. */
  code: string;
  /** Value for `<html lang>` and `hreflang`: `en-CA`, `fr-CA`. */
  hrefLang: string;
}

/** The templates a page can use (template-ids.ts): a file of that name in the templates folder renders it. */
export type TemplateId = (typeof TEMPLATE_IDS)[number];

/** Every article `type` front matter accepts (docs/content.md, "Article types"). */
export const ARTICLE_TYPES = [
  'commentary',
  'press-release',
  'video',
  'annual-report',
  'circular',
  'issuer-bid',
  'redemption-notice',
  'investment-notice',
  'news',
  'insight',
] as const;
/** One of `ARTICLE_TYPES`. */
export type ArticleType = (typeof ARTICLE_TYPES)[number];

/** The identity's sign-in (`identities.<key>.signIn`, docs/configuration.md): passed to pages as it is written. */
export interface SignInConfig {
  provider: string;
  region: string;
  userPoolId: string;
  clientId: string;
  mandatory: boolean;
}

/** Keys of third-party integrations; an empty key means the integration is off. */
export interface IntegrationsConfig {
  tagManager: { containerId: string; dataLayerName: string; routeChangeEvent: string };
  fontKit: { kitId: string; scriptTimeout: number; fontTimeout: number };
  botCheck: { siteKey: string; formAction: string };
}

/** The `site` prop: who this build is. The same object for every page (static query `site-metadata`). */
export interface SiteMetadata {
  /** Key of the identity this build uses (`site.config.ts` identities). */
  identity: string;
  /** `{site}` token in paths (`/what-is-{site}/`). */
  site: string;
  /** `{name}` token in paths (`/{name}s-corner/`). */
  name: string;
  /** Corporation name per locale code. */
  displayName: Record<string, string>;
  siteUrl: string;
  defaultLocale: string;
  locales: LocaleConfig[];
  signIn: SignInConfig | null;
  integrations: IntegrationsConfig;
  /** The e-mail address the contact page shows when there is no form target (`contact.email`), or null. */
  contactEmail: string | null;
  /** From `content/site.yaml`: given to every page as props too. */
  performanceApprovalDate: string;
  asAtDate: string;
}

/** A translation of a page. */
export interface Alternate {
  locale: string;
  hrefLang: string;
  /** Site-relative path of the translation, e.g. `/fr/article/commentaire-Q2-2025/`. */
  path: string;
}

/** Where a page sits among the languages: its locale, its path without the prefix, its translations. */
export interface PageContext {
  locale: string;
  hrefLang: string;
  /** The path without its locale prefix. */
  originalPath: string;
  /** Every existing translation of this page, this page included. */
  alternates: Alternate[];
  /** Set when another path is canonical for this page (press releases published at the root). */
  canonicalPath?: string;
}

/** An article as lists show it (home, sections, a bio): enough for a card and its link. */
export interface ArticleSummary {
  key: string;
  title: string;
  description: string | null;
  date: string;
  type: ArticleType;
  path: string;
  quarter: string | null;
}

/** How a processed image is sized (RUNTIME.md "Images"): a fixed size, at most its own width, or the container's full width. */
export type ImageLayout = 'fixed' | 'constrained' | 'fullWidth';

/** RUNTIME.md "Images": what the Image component needs to show a processed image. */
export interface ImageData {
  layout: ImageLayout;
  width: number;
  height: number;
  placeholder: { fallback: string };
  images: {
    fallback: { src: string; srcSet: string; sizes: string };
    sources: { srcSet: string; type: string; sizes: string }[];
  };
}

/** A team member's photo: the published original and, for a raster image, its processed variants. */
export interface PortraitData {
  /** The published original (also the fallback when the image could not be processed, e.g. SVG). */
  src: string;
  width: number;
  height: number;
  alt: string;
  /** Responsive sources and placeholder, for raster portraits. */
  image: ImageData | null;
}

/** A team member as an article's byline and the team page show them. */
export interface BioSummary {
  handle: string;
  name: string;
  role: string;
  path: string;
  photo: PortraitData | null;
}

/** A document an article links to (front matter `documents`): a file published with it, or a URL. */
export interface DocumentLink {
  label: string;
  href: string;
  /** True for files published with the entry (PDFs), false for absolute URLs. */
  local: boolean;
}

interface PageDataBase {
  title: string;
  description: string | null;
  body: MarkdownTree | null;
}

/** The home page's data: its entry, and the latest articles. */
export interface HomeData extends PageDataBase {
  template: 'home';
  latest: ArticleSummary[];
}

/** One way to narrow a listing, as a plain link: a year, or an article type. */
export interface ListingFilterLink {
  value: string;
  /** The filtered listing's first page. */
  path: string;
}

/** A section's or a column's listing page: one page of its articles, with its filters. */
export interface SectionData extends PageDataBase {
  template: 'section' | 'column';
  section: string;
  /** This page's slice of the listing (`listings.pageSize` articles at most), newest first. */
  articles: ArticleSummary[];
  /** The listing this page is part of: which page, of how many, how many articles in all. */
  pagination: {
    page: number;
    pages: number;
    total: number;
    /** Page 1's path; page n (n > 1) is at `{basePath}{n}/`. */
    basePath: string;
  };
  /** The filter this listing shows (`/insights/year/2025/`, `/insights/type/commentary/`), or null for all articles. */
  filter: { kind: 'year' | 'type'; value: string } | null;
  /** Every filter of the section, with the unfiltered listing's path. */
  filters: { all: string; years: ListingFilterLink[]; types: ListingFilterLink[] };
}

/** A page written as a `pages/` entry (and the portfolio page): its body, and its form when it has one. */
export interface ContentPageData extends PageDataBase {
  template: 'page' | 'portfolio';
  /** `contact` for a page with the contact form (front matter `form`); `contact-sent` on its thank-you page. */
  form: string | null;
  /** On a form page and its thank-you page: the thank-you page's path (where a form posted without JavaScript lands). */
  sentPath?: string;
  /** On a thank-you page: the form page it thanks for. */
  formPath?: string;
  /** On the portfolio page: every series with its holdings (the `portfolio` prop). */
  series?: PortfolioSeries[];
}

/** The team page: every member, in the team's order. */
export interface TeamData extends PageDataBase {
  template: 'team';
  members: BioSummary[];
}

/** The search page, of the whole site or of one subsite; its results come from the search index in the browser. */
export interface SearchData extends PageDataBase {
  template: 'search' | 'search-subsite';
  /** The subsite scope (`insights`), or null on `/search/`. */
  subsite: string | null;
  subsites: { key: string; title: string; path: string }[];
}

/** An article's cover (front matter `cover`): its processed image, in the layout the article chose. */
export interface CoverImage {
  image: ImageData;
  alt: string;
  /**
   * Its widest variant in a format link previews show (its own, else WebP): the page's share
   * image (og:image); null for a cover too small for a large preview (the identity's card then).
   */
  share: { src: string; width: number; height: number } | null;
}

/** An article's page: its front matter as the page shows it, its author and its documents. */
export interface ArticleData extends PageDataBase {
  template: 'article';
  key: string;
  slug: string;
  date: string;
  /** The last update (front matter `updated`), when the article has one. */
  updated: string | null;
  cover: CoverImage | null;
  type: ArticleType;
  sections: string[];
  /** The section pages this article appears in, in this language. */
  sectionLinks: { key: string; title: string; path: string }[];
  quarter: string | null;
  author: BioSummary | null;
  video: { provider: 'youtube' | 'vimeo'; id: string } | null;
  documents: DocumentLink[];
}

/** A team member's page: who they are, and the articles they wrote. */
export interface BioData extends PageDataBase {
  template: 'bio';
  handle: string;
  name: string;
  role: string;
  email: string | null;
  linkedin: string | null;
  photo: PortraitData | null;
  articles: ArticleSummary[];
}

/** The 404 page of a language. */
export interface NotFoundData extends PageDataBase {
  template: 'not-found';
}

/** A page's data (`pageData`), told apart by `template`. */
export type PageData =
  | HomeData
  | SectionData
  | ContentPageData
  | TeamData
  | SearchData
  | ArticleData
  | BioData
  | NotFoundData;

/** `/page-data/{p}/page-data.json`, shaped as Gatsby's. */
export interface PageRecord<D extends PageData = PageData> {
  componentChunkName: string;
  path: string;
  matchPath?: string;
  result: { pageContext: PageContext; data: D };
  staticQueryHashes: string[];
}

/** A link of the site's navigation (`content/navigation.yaml`), in a language. */
export interface NavItem {
  key: string;
  label: string;
  path: string;
}

/** The header's and the footer's links, in a language. */
export interface NavigationData {
  main: NavItem[];
  footer: NavItem[];
}

/** One row of a portfolio series' holdings table: a value per column (portfolio YAML). */
export interface PortfolioHolding {
  [column: string]: string | number | boolean | null;
}

/** A portfolio series without its holdings: what every page may list. */
export interface PortfolioSeriesTopic {
  key: string;
  title: string;
  order: number;
}

/** How a holdings column's numbers read (portfolio YAML `columns:`). */
export type NumberKind = 'number' | 'percent' | 'millions' | 'year';

/** A portfolio series with its holdings, on the portfolio page. */
export interface PortfolioSeries extends PortfolioSeriesTopic {
  holdings: PortfolioHolding[];
  /** Columns whose numbers are not plain numbers; the others read as `number`. */
  columns: Record<string, NumberKind>;
}

/** The static queries every page uses, by name. Each is written once as `/page-data/sq/d/{hash}.json`. */
export interface StaticQueries {
  'site-metadata': SiteMetadata;
  navigation: NavigationData;
  'ui-strings': Record<string, string>;
  'portfolio-series': PortfolioSeriesTopic[];
}

/** The page's URL as `window.location` gives it, in parts; the build gives the page's path with an empty search and hash. */
export interface TemplateLocation {
  pathname: string;
  search: string;
  hash: string;
}

/** What every template receives (SPEC.md section 3), plus the shared navigation and UI strings. */
export interface TemplateProps<D extends PageData = PageData> {
  site: SiteMetadata;
  pageContext: PageContext;
  pageData: D;
  location: TemplateLocation;
  /** The portfolio series with their holdings on the portfolio page; null elsewhere. */
  portfolio: PortfolioSeries[] | null;
  performanceApprovalDate: string;
  asAtDate: string;
  /** Every portfolio series topic, without holdings. */
  allPortfolioSeries: PortfolioSeriesTopic[];
  navigation: NavigationData;
  strings: Record<string, string>;
}

/** A redirect rule as written to `redirects.json` (SPEC.md section 3). */
export interface RedirectRule {
  fromPath: string;
  toPath: string;
  isPermanent: false;
  ignoreCase: true;
  redirectInBrowser: true;
}
