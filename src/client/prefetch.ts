// Link prefetching (RUNTIME.md "Prefetch"): a link's page data and template chunk are
// loaded before the click. Links in the viewport go in idle-time batches (4 every 3 s, as
// Gatsby) so prefetching never competes with the page; hover, focus and touch show intent,
// so they load at once. Each path loads once per session, remembered across full loads.

export interface PrefetchOptions {
  /** Loads a path's page data and template chunk into the loader's cache; resolves when done, never rejects. */
  prefetch(path: string): Promise<void>;
  /** True for same-origin links the router would handle (the lead passes it). */
  isInternal(anchor: HTMLAnchorElement): boolean;
}

export interface Prefetcher {
  /** Observe every internal link under root (call after each render). */
  observe(root: ParentNode): void;
  /** For tests/debug: paths prefetched this session. */
  readonly done: ReadonlySet<string>;
}

export const STORAGE_KEY = 'ir-site:prefetched';
const BATCH_SIZE = 4;
const BATCH_INTERVAL = 3000;

/** The parts of `navigator` the viewport decision reads (`connection` is not in every browser, nor in the DOM types). */
export interface NavigatorLike {
  userAgent?: string;
  connection?: { saveData?: boolean; effectiveType?: string };
}

/** False on data saver, 2g/slow-2g and for crawlers: they would pay for pages nobody opens. */
export function shouldPrefetchInViewport(nav: NavigatorLike): boolean {
  const c = nav.connection;
  return !(c?.saveData || c?.effectiveType?.includes('2g') || /bot|crawler|spider|crawling/i.test(nav.userAgent ?? ''));
}

/** The link fields read here; an HTMLAnchorElement fits, and so does a plain object in tests. */
export type LinkLike = Pick<HTMLAnchorElement, 'href' | 'target' | 'rel' | 'hasAttribute'>;

/**
 * The pathname a link would prefetch, or null when it must not: downloads, other windows,
 * `rel=external`, other schemes or origins, and the page we are on (a `#hash` link included).
 * Only the pathname: page data ignores query and hash.
 */
export function prefetchTarget(link: LinkLike, here: { origin: string; pathname: string }): string | null {
  if (link.hasAttribute('download') || (link.target && link.target !== '_self') || /(^|\s)external(\s|$)/i.test(link.rel)) {
    return null;
  }
  let url: URL;
  try {
    url = new URL(link.href, here.origin);
  } catch {
    return null;
  }
  return /^https?:$/.test(url.protocol) && url.origin === here.origin && url.pathname !== here.pathname ? url.pathname : null;
}

/** Paths already prefetched in this tab; storage may be missing or throw (privacy modes), then memory only. */
export function loadPrefetched(storage: () => Pick<Storage, 'getItem'>): Set<string> {
  try {
    const list: unknown = JSON.parse(storage().getItem(STORAGE_KEY) ?? '[]');
    return new Set(Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : []);
  } catch {
    return new Set();
  }
}

export function savePrefetched(storage: () => Pick<Storage, 'setItem'>, done: ReadonlySet<string>): void {
  try {
    storage().setItem(STORAGE_KEY, JSON.stringify([...done]));
  } catch {
    // Full or forbidden storage: the in-memory set still prevents repeats in this page.
  }
}

/**
 * A queue that starts up to `size` items per batch, one per idle callback (each start is a
 * fetch and a module import: several in one callback make a long task on a slow phone),
 * then rests for `interval` ms. `run` says whether it really started something (items that
 * were prefetched by hover meanwhile do not use a slot). The first batch waits only for idle.
 */
export function createBatchQueue<T>(
  run: (item: T) => boolean,
  idle: (callback: () => void) => void,
  size = BATCH_SIZE,
  interval = BATCH_INTERVAL,
): (item: T) => void {
  const queue = new Set<T>();
  let waiting = false;
  let resting = false;
  let started = 0;
  const tick = (): void => {
    if (waiting || resting || queue.size === 0) return;
    waiting = true;
    idle(() => {
      waiting = false;
      for (const item of queue) {
        queue.delete(item);
        if (run(item)) {
          started++;
          break;
        }
      }
      // A batch ends when it is full or nothing is left to start.
      if (started >= size || (started > 0 && queue.size === 0)) {
        started = 0;
        resting = true;
        setTimeout(() => {
          resting = false;
          tick();
        }, interval);
      }
      tick();
    });
  };
  return (item) => {
    queue.add(item);
    tick();
  };
}

const onIdle = (callback: () => void): void => {
  // Safari has no requestIdleCallback.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => callback());
  else setTimeout(callback, 1);
};

export function createPrefetcher({ prefetch, isInternal }: PrefetchOptions): Prefetcher {
  const storage = () => sessionStorage;
  const done = loadPrefetched(storage);
  const wanted = (a: HTMLAnchorElement): string | null => {
    const path = prefetchTarget(a, location);
    return path && !done.has(path) && isInternal(a) ? path : null;
  };
  const start = (a: HTMLAnchorElement): boolean => {
    const path = wanted(a);
    if (!path) return false;
    done.add(path);
    savePrefetched(storage, done);
    void prefetch(path);
    return true;
  };

  // Intent: mouseover (bubbles, unlike pointerenter), keyboard focus, and touchstart, the
  // only early signal on touch screens. Captured on the document so one listener serves
  // every render and no component can swallow it. Not subject to the connection rules.
  const onIntent = (event: Event): void => {
    const a = (event.target as Element | null)?.closest?.('a[href]');
    if (a instanceof HTMLAnchorElement) start(a);
  };
  for (const type of ['mouseover', 'focusin', 'touchstart']) {
    document.addEventListener(type, onIntent, { capture: true, passive: true });
  }

  const viewport = shouldPrefetchInViewport(navigator as NavigatorLike) && typeof IntersectionObserver === 'function';
  const enqueue = createBatchQueue(start, onIdle);
  const observed = new Set<Element>();
  const io = viewport
    ? new IntersectionObserver((entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          io?.unobserve(entry.target);
          observed.delete(entry.target);
          enqueue(entry.target as HTMLAnchorElement);
        }
      })
    : null;

  const watchLink = (a: Element) => {
    if (a instanceof HTMLAnchorElement && a.hasAttribute('href') && !observed.has(a) && wanted(a)) {
      io!.observe(a);
      observed.add(a);
    }
  };
  const unwatchLink = (a: Element) => {
    if (!observed.delete(a)) return;
    io!.unobserve(a);
  };
  const linksIn = (node: Element) => [node, ...node.querySelectorAll('a[href]')];
  // Links a page adds after it rendered (search results, a list shown on demand) are watched
  // too, and those it removes are let go, so a list replaced at each keystroke is not kept.
  const watchedRoots = new WeakSet<Node>();
  const changes = io
    ? new MutationObserver((records) => {
        for (const record of records) {
          record.removedNodes.forEach((node) => node instanceof Element && linksIn(node).forEach(unwatchLink));
          record.addedNodes.forEach((node) => node instanceof Element && linksIn(node).forEach(watchLink));
        }
      })
    : null;

  return {
    done,
    observe(root) {
      if (!io) return;
      // Every render: links that stayed (a header's) may point elsewhere than the page shown now.
      root.querySelectorAll('a[href]').forEach(watchLink);
      if (root instanceof Node && !watchedRoots.has(root)) {
        watchedRoots.add(root);
        changes!.observe(root, { childList: true, subtree: true });
      }
    },
  };
}
