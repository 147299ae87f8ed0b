// The browser runtime's entry: hydrates the server-rendered page, then hands over to the
// router. Everything a first visit needs is inlined in the HTML (record, static queries),
// so hydration costs one chunk and no data request.
// Built for a slow phone (docs/runtime.md "First load"): hydration runs as a transition, so
// React renders in short slices and yields to the browser between them instead of one long
// task; what only navigation needs (navigation.ts) is imported once hydration is done.
import { startTransition } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { appElement } from '../shared/app.js';
import { CHUNKS_SCRIPT_ID, PAGE_DATA_SCRIPT_ID, ROOT_ID, STATIC_QUERIES_SCRIPT_ID } from '../shared/dom-ids.js';
import { composeProps, type StaticQueryResult } from '../shared/props.js';
import type { PageRecord, SiteMetadata } from '../shared/types.js';
import { createIntegrations } from './integrations.js';
import type { ChunkLoaders, PageResources } from './loader.js';
import { ownElement } from './own-elements.js';
import { markResourcesFailed, registerServiceWorker } from './service-worker.js';

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

/**
 * Runs `start` when the browser is next idle: a time-sliced hydration keeps the main thread
 * busy with short tasks, so this comes after it, or after `timeout` ms at the latest.
 * Safari has no requestIdleCallback: a timer there.
 */
function whenIdle(start: () => void, timeout = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(start, { timeout });
  else setTimeout(start, 1);
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

  let root!: Root;
  // A transition: React hydrates in slices of a few milliseconds and yields in between
  // (a default-priority hydration is one task as long as the whole page's render).
  startTransition(() => {
    root = hydrateRoot(container, appElement(component, props));
  });
  whenIdle(() => {
    import('./navigation.js').then(
      ({ startNavigation }) =>
        startNavigation({ root, container, site: props.site, record, queries, component, chunks, buildHash, integrations, reloadOnce, notFoundPathFor: notFoundPathFor(props.site) }),
      (error: unknown) => {
        // A stale deploy's chunk: the page stays usable, its links load pages in full.
        console.error(error);
        markResourcesFailed();
      },
    );
  });
}

void boot();
