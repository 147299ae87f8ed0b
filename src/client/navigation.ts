// Everything the runtime needs only once the first page is on screen and hydrated: the
// loader, the router (links, history, scroll, focus, announcer), prefetching, the build-hash
// check and the analytics data layer (web-vitals included). index.ts imports this module
// lazily, after hydration, so none of it is downloaded, parsed or run before the first paint
// and the hydration of the page a person opened. Until it starts, links are plain links
// (a full page load, always correct).
import type { Root } from 'react-dom/client';
import type { StaticQueryResult } from '../shared/props.js';
import type { PageRecord, SiteMetadata } from '../shared/types.js';
import { createAnalytics, type Analytics } from './analytics.js';
import type { Integrations } from './integrations.js';
import { Loader, type ChunkLoaders, type PageResources } from './loader.js';
import { createPrefetcher, type Prefetcher } from './prefetch.js';
import { RedirectTable } from './redirects.js';
import { Router } from './router.js';
import { rememberSeenPage } from './seen-pages.js';
import { checkForUpdate, onDevServer } from './service-worker.js';

export interface NavigationStart {
  root: Root;
  container: HTMLElement;
  site: SiteMetadata;
  record: PageRecord;
  queries: StaticQueryResult[];
  component: PageResources['component'];
  chunks: ChunkLoaders;
  buildHash: string;
  integrations: Integrations;
  /** A full reload at most once per session (index.ts): a page from an older deploy. */
  reloadOnce(reason: string): boolean;
  notFoundPathFor(path: string): string;
}

/**
 * Ends the current task, so the browser can paint and answer input before the next step: on
 * a slow phone, starting everything at once is one long task (over 200 ms at 4x slowdown).
 */
const nextTask = (): Promise<void> =>
  (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler?.yield?.() ?? new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Links work client-side from the first step; the rest (the build-hash check, analytics,
 * prefetching) follows in tasks of its own. A route change that comes before analytics is
 * set up is counted and reported once it is.
 */
export async function startNavigation({ root, container, site, record, queries, component, chunks, buildHash, integrations, reloadOnce, notFoundPathFor }: NavigationStart): Promise<void> {
  const loader = new Loader({ buildHash, chunks, notFoundPathFor });
  loader.seed(record, queries);
  let analytics: Analytics | null = null;
  let unreportedRoutes = 0;
  let prefetcher: Prefetcher | null = null;
  const rendered = (resources?: PageResources, first = true) => {
    if (!first) checkForUpdate();
    rememberSeenPage((resources?.record ?? record).path);
    prefetcher?.observe(container);
    integrations.pageRendered(container);
    // Last: its 50 ms count starts as close to the route update as this code can.
    if (analytics) analytics.routeUpdated();
    else unreportedRoutes++;
  };
  const router = new Router({ root, loader, redirects: new RedirectTable(), rendered }, { record, component, queries });
  router.start();
  // An address answered with the offline page reports once, when its own page is in it.
  if (!router.shellPending) rendered();

  await nextTask();
  // A page from an older deploy (a cached HTML file) reloads once to get the new one.
  void loader.currentBuildHash().then((current) => {
    if (current && current !== buildHash) reloadOnce(current);
  });

  await nextTask();
  analytics = createAnalytics(site.integrations.tagManager, { production: !onDevServer() });
  for (; unreportedRoutes > 0; unreportedRoutes--) analytics.routeUpdated();

  await nextTask();
  prefetcher = createPrefetcher({
    prefetch: (path) => loader.prefetch(path),
    isInternal: (anchor) => router.isInternal(anchor),
  });
  prefetcher.observe(container);
}
