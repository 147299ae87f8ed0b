// What stage 3 (graph) hands to stage 4 (render): every page decided, nothing rendered.
import type { Diagnostic } from '../../errors/diagnostic.js';
import type { Alternate, PageData, RedirectRule, StaticQueries, TemplateId } from '../../shared/types.js';
import type { BodyFolder } from '../../shared/image-data.js';

export interface MarkdownSource {
  /**
   * The markdown; null when the build cache knew the file and did not read it: `digest` and
   * `offset` (where the body starts in the file's normalised text) are then known, and
   * src/build/bodies.ts reads it for the pages that need it.
   */
  text: string | null;
  offset?: number;
  file: string;
  /** File line of the first body line, so markdown problems can point into the file. */
  line: number;
  locale: string;
  /** The files next to the body: its relative image addresses are resolved there when it is compiled. */
  folder: BodyFolder;
  /** Digest of `text` (page keys use it instead of hashing the text). */
  digest: string;
}

export interface Route {
  path: string;
  locale: string;
  hrefLang: string;
  originalPath: string;
  template: TemplateId;
  matchPath?: string;
  /** The entry file this page comes from; null for generated pages. */
  file: string | null;
  /** The front-matter field that decided the path (`slug`, `path`, `atRoot`) and its line, for messages. */
  pathField?: string;
  pathLine?: number;
  alternates: Alternate[];
  /** The page's data, body still as markdown (rendered in stage 4). */
  data: PageData;
  markdown: MarkdownSource | null;
  /** Listed in sitemap.xml (not the not-found pages, nor duplicates published at the root). */
  inSitemap: boolean;
  /** Canonical path, when another path publishes the same entry (press releases at the root). */
  canonicalPath: string;
  /** False for pages that only repeat others' content (listing pages after the first, filtered listings, thank-you pages): not in the search index. */
  searchable?: false;
  /** The entry's last change (an article's `updated`, else its `date`): the sitemap's lastmod. */
  lastmod?: string;
}

export interface StaticQuery<K extends keyof StaticQueries = keyof StaticQueries> {
  name: K;
  locale: string | null;
  hash: string;
  data: StaticQueries[K];
}

/** A redirect rule and where it came from, for messages. */
export interface RedirectOrigin {
  rule: RedirectRule;
  /** `written` (config/redirects.yaml), `redirectFrom`, `legacy-prefix` (a wildcard), `quarter-case`, `foreign-slug`, `untranslated`, `first-page` (`/insights/1/`). */
  kind: 'written' | 'redirectFrom' | 'legacy-prefix' | 'quarter-case' | 'foreign-slug' | 'untranslated' | 'first-page';
  file: string | null;
  line?: number;
}

export interface PublishedFile {
  /** Absolute path of the source file. */
  from: string;
  /** The source file relative to the site's root ('/'-separated), for messages. */
  file: string;
  /** Site path it is published at: `/article/annual-report-2024/annual-report-2024.pdf`. */
  to: string;
}

export interface SiteGraph {
  routes: Route[];
  redirects: RedirectOrigin[];
  staticQueries: StaticQuery[];
  /** Static query hashes per locale, in the order every page of that locale lists them. */
  queryHashes: Record<string, string[]>;
  files: PublishedFile[];
  diagnostics: Diagnostic[];
}
