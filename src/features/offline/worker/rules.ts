// The offline worker's rules as plain functions: which route answers a request (the
// worker registers RULES in this order, first match wins, as Workbox does) and which offline
// page stands in for a page the worker has no HTML of.
// No DOM, worker or Node globals beyond URL, so the worker bundles it and the tests run it in Node.
import { APP_DATA_PATH, WORKER_PATH } from '../../../shared/offline.js';

/** Runtime caches. Workbox names the precache itself (`workbox-precache-v2-<scope>`). */
export const CACHES = {
  /** Hashed JS/CSS and everything under /static/: immutable, kept across deploys. */
  static: 'ir-site-static',
  /**
   * Page records and static queries, network first: read only when the network fails.
   * Emptied by every new worker (one per deploy) and when a page sees a new build hash.
   */
  pageData: 'ir-site-page-data',
  /** Images, fonts, other JSON and CSS: emptied by every new worker. */
  assets: 'ir-site-assets',
  /** HTML of the pages visited, for offline use only (network first). */
  pages: 'ir-site-pages',
} as const;

/** The caches that hold files whose URL does not change between deploys. */
export const PER_DEPLOY_CACHES: readonly string[] = [CACHES.pageData, CACHES.assets];

export type RuleName = 'network-only' | 'static' | 'page-data' | 'asset' | 'page';

export interface RequestFacts {
  url: URL;
  /** Same origin as the worker. */
  sameOrigin: boolean;
  /** `request.mode`: `navigate` for a document load. */
  mode: string;
  /** `request.destination`: `image`, `font`, `style`, `document`, ... or ''. */
  destination: string;
}

/** esbuild names files `name.XXXXXXXX.js`; the stylesheet is `styles.<hex>.css`. */
const HASHED = /\.[A-Za-z0-9]{8,}\.(?:m?js|css)$/;
const ASSET_FILE = /\.(?:png|jpe?g|gif|webp|avif|svg|ico|bmp|woff2?|ttf|otf|eot|json|css|webmanifest)$/i;
const ASSET_DESTINATIONS = new Set(['image', 'font', 'style', 'manifest']);

/** A page's URL: a folder (`/x/`), an `.html` file, or a path without an extension (answered by a redirect to `/x/`). */
export function isPagePath(pathname: string): boolean {
  return pathname.endsWith('/') || pathname.endsWith('.html') || !/\.[^/]*$/.test(pathname);
}

export interface Rule {
  name: RuleName;
  match(facts: RequestFacts): boolean;
}

/** RUNTIME.md "Offline worker", in order; the first that matches answers. */
export const RULES: readonly Rule[] = [
  // The worker script and the build hash must reach the server: caching either would hide a deploy.
  { name: 'network-only', match: ({ url, sameOrigin }) => sameOrigin && (url.pathname === WORKER_PATH || url.pathname === APP_DATA_PATH) },
  { name: 'static', match: ({ url, sameOrigin }) => sameOrigin && (url.pathname.startsWith('/static/') || HASHED.test(url.pathname)) },
  { name: 'page-data', match: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/page-data/') && url.pathname.endsWith('.json') },
  { name: 'asset', match: ({ url, sameOrigin, destination }) => sameOrigin && (ASSET_DESTINATIONS.has(destination) || ASSET_FILE.test(url.pathname)) },
  // Navigations; and page URLs the window asks the worker to store (CACHE_PAGE_URLS), which cannot be `navigate` requests.
  { name: 'page', match: ({ url, sameOrigin, mode }) => sameOrigin && (mode === 'navigate' || isPagePath(url.pathname)) },
];

/** The rule that answers a request, or null when the browser goes to the network unaided. */
export function ruleFor(facts: RequestFacts): RuleName | null {
  return RULES.find((rule) => rule.match(facts))?.name ?? null;
}

/** An offline page and the paths it stands for: `{ prefix: '/fr/', page: '/fr/offline.html' }`. */
export interface OfflinePage {
  prefix: string;
  page: string;
}

/** The language's offline page for a path (longest prefix, case-insensitive, as `ir-site serve` finds a 404 page). */
export function offlinePageFor(pathname: string, pages: readonly OfflinePage[]): string | null {
  const lower = pathname.toLowerCase();
  let best: OfflinePage | null = null;
  for (const candidate of pages) {
    if (lower.startsWith(candidate.prefix.toLowerCase()) && (!best || candidate.prefix.length > best.prefix.length)) best = candidate;
  }
  return best?.page ?? null;
}

