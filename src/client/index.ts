// The browser runtime's entry: hydrates the server-rendered page, then hands over to the
// router. Everything a first visit needs is inlined in the HTML (record, static queries),
// so hydration costs one chunk and no data request.
import { hydrateRoot } from 'react-dom/client';
import { appElement } from '../shared/app.js';
import { CHUNKS_SCRIPT_ID, PAGE_DATA_SCRIPT_ID, ROOT_ID, STATIC_QUERIES_SCRIPT_ID } from '../shared/dom-ids.js';
import { composeProps, type StaticQueryResult } from '../shared/props.js';
import type { PageRecord, SiteMetadata } from '../shared/types.js';
import { createAnalytics } from './analytics.js';
import { createIntegrations } from './integrations.js';
import { ownElement } from './own-elements.js';
import { Loader, type ChunkLoaders, type PageResources } from './loader.js';
import { createPrefetcher } from './prefetch.js';
import { RedirectTable } from './redirects.js';
import { Router } from './router.js';
import { rememberSeenPage } from './seen-pages.js';
import { checkForUpdate, markResourcesFailed, registerServiceWorker } from './service-worker.js';

const RELOAD_GUARD = 'ir-site:reloaded-for-build';

function inlineJson<T>(id: string): T | null {
  const text = ownElement(id)?.textContent;
  try {
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

/** A full reload, at most once per session: a stale page must never loop. */
function reloadOnce(reason: string): boolean {
  try {
    if (sessionStorage.getItem(RELOAD_GUARD)) return false;
    sessionStorage.setItem(RELOAD_GUARD, reason);
  } catch {
    return false;
  }
  location.reload();
  return true;
}

function notFoundPathFor(site: SiteMetadata) {
  return (path: string) => {
    const locale = site.locales.find((l) => l.code !== site.defaultLocale && path.startsWith(`/${l.code}/`));
    return locale ? `/${locale.code}/404.html` : '/404.html';
  };
}

async function boot(): Promise<void> {
  // First, even on a page that cannot render: a new deploy's worker may rescue it (reload).
  registerServiceWorker();
  const container = ownElement(ROOT_ID);
  const record = inlineJson<PageRecord>(PAGE_DATA_SCRIPT_ID);
  const queries = inlineJson<StaticQueryResult[]>(STATIC_QUERIES_SCRIPT_ID);
  const chunkUrls = inlineJson<Record<string, string>>(CHUNKS_SCRIPT_ID) ?? {};
  if (!container || !record || !queries) {
    console.error(`page resources for ${location.pathname} not found. Not rendering React`);
    markResourcesFailed();
    return;
  }
  const location_ = { pathname: location.pathname, search: location.search, hash: location.hash };
  const props = composeProps(record, queries, location_);
  // First, so the font kit starts loading before the template chunk does.
  const integrations = createIntegrations(props.site);
  const buildHash = container.dataset.build ?? '';
  // componentChunkName -> module URL, from the page: each template loads when first needed.
  const chunks: ChunkLoaders = Object.fromEntries(
    Object.entries(chunkUrls).map(([name, url]) => [name, () => import(/* @vite-ignore */ url) as ReturnType<ChunkLoaders[string]>]),
  );
  const loader = new Loader({ buildHash, chunks, notFoundPathFor: notFoundPathFor(props.site) });
  loader.seed(record, queries);

  // A page from an older deploy (a cached HTML file) reloads once to get the new one.
  void loader.currentBuildHash().then((current) => {
    if (current && current !== buildHash) reloadOnce(current);
  });

  const load = chunks[record.componentChunkName];
  if (!load) {
    console.error(`We couldn't find the correct component chunk with the name "${record.componentChunkName}"`);
    markResourcesFailed();
    reloadOnce('unknown chunk');
    return;
  }
  let component: PageResources['component'];
  try {
    component = (await load()).default;
  } catch (error) {
    console.error(error);
    markResourcesFailed();
    reloadOnce('chunk failed');
    return;
  }

  const root = hydrateRoot(container, appElement(component, props));
  const analytics = createAnalytics(props.site.integrations.tagManager, { production: true });
  let router: Router | null = null;
  const prefetcher = createPrefetcher({
    prefetch: (path) => loader.prefetch(path),
    isInternal: (anchor) => router?.isInternal(anchor) ?? false,
  });
  const rendered = (resources?: PageResources, first = true) => {
    if (!first) checkForUpdate();
    rememberSeenPage((resources?.record ?? record).path);
    analytics.routeUpdated();
    prefetcher.observe(container);
    integrations.pageRendered(container);
  };
  router = new Router({ root, loader, redirects: new RedirectTable(), rendered }, { record, component, queries });
  router.start();
  rendered();
}

void boot();
