// Registers the offline worker (/sw.js) and follows its life (RUNTIME.md "Offline worker"):
// only over HTTPS or on a local host, Gatsby's console messages, and the update rule: when
// a new worker installs while an older one controls the page, the next navigation is a
// full page load (the router asks `updateWaiting()`), at once if page resources failed.
// It also asks the worker to drop its runtime caches when the loader sees a new build.
// The logic takes its browser objects as arguments, so the tests can run it in Node.
import { APP_DATA_PATH, CACHE_PAGE_URLS, CLEAR_RUNTIME_CACHES, WORKER_PATH } from '../shared/offline.js';

/** Window events (CustomEvent), for the site and the tests. */
export const EVENTS = {
  /** A worker reached `activated`; detail `{ update: boolean }`. */
  activated: 'ir-site:sw-activated',
  /** A new worker replaced the one that controlled this page: the next navigation loads in full. */
  updated: 'ir-site:sw-updated',
  /** The worker took control for the first time and cached what this page had loaded before it (detail `{ urls }`). */
  cached: 'ir-site:sw-cached',
} as const;

export const MESSAGES = {
  insecure: 'Service workers can only be used over HTTPS, or on localhost for development',
  registrationFailed: 'Error during service worker registration:',
  firstInstall: 'Content is now available offline!',
  redundant: 'The installing service worker became redundant.',
  activated: 'The offline worker is active.',
  updated: 'A new version of this site is ready: the next navigation loads it.',
} as const;

/**
 * Local hosts where a worker may run over plain HTTP. Gatsby accepts `localhost` only;
 * browsers treat 127.0.0.1 and [::1] as secure contexts too, and `ir-site serve` listens
 * on 127.0.0.1, so they count as local here (docs/offline.md).
 */
export const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

export function workerAllowed({ protocol, hostname }: { protocol: string; hostname: string }): boolean {
  return protocol === 'https:' || LOCAL_HOSTS.has(hostname);
}

/** Pages served by `ir-site dev` carry its live-reload client: no worker there, no web vitals. */
const DEV_CLIENT_SELECTOR = 'script[src^="/__ir-site/"]';

/** Whether this page is served by `ir-site dev`. */
export const onDevServer = (): boolean => document.querySelector(DEV_CLIENT_SELECTOR) !== null;

/** The parts of the browser the registration uses. */
export interface WorkerEnv {
  location: { protocol: string; hostname: string; href: string; origin: string; reload(): void };
  /** `navigator.serviceWorker`; undefined where the browser has none (or the context is insecure). */
  container: ServiceWorkerContainer | undefined;
  console: Pick<Console, 'log' | 'error'>;
  emit(name: string, detail: unknown): void;
  /** Runs `start` once the page has loaded, so installing never competes with the page. */
  whenLoaded(start: () => void): void;
  /** A page of `ir-site dev`. */
  devServer: boolean;
  /** Same-origin URLs this page fetched so far (performance entries). */
  loadedUrls(): string[];
  /**
   * Same-origin URLs whose fetch is under way now, each as it ends (one under way when the worker
   * took over went to the network, not through the worker, and `loadedUrls` could not list it).
   */
  lateUrls?(hand: (urls: string[]) => void): void;
}

export interface WorkerClient {
  register(): void;
  /** True once a newer worker installed over the one that controlled this page. */
  updateWaiting(): boolean;
  /** A resource of this page failed (chunk, page data, stylesheet): an update should reload at once. */
  markResourcesFailed(): void;
  /** Asks the browser to check /sw.js for a new deploy (after a client-side navigation). */
  checkForUpdate(): void;
  /**
   * A new build is live: the worker controlling the page (an old one, if the new one has not
   * installed yet) drops what it cached for the old build. Resolves when it has, or after
   * `CLEAR_TIMEOUT_MS` (a worker that does not answer must not hold the page); at once without one.
   */
  clearRuntimeCaches(): Promise<void>;
}

export const CLEAR_TIMEOUT_MS = 1500;

/** First control: the page loaded before the worker existed; have it cache what the page used. */
function cacheThisPage(env: WorkerEnv, container: ServiceWorkerContainer, landing: string): void {
  const controller = container.controller;
  if (!controller) return;
  // The page the visitor landed on (its HTML is a navigation, not among the resources loaded),
  // and the one shown now if a link was followed before the worker took over.
  const urls = [...new Set([landing, env.location.href]), ...env.loadedUrls()];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => env.emit(EVENTS.cached, { urls });
  controller.postMessage({ type: CACHE_PAGE_URLS, urls }, [channel.port2]);
  // A fetch under way now (a viewport prefetch) is in no list yet, and never passes the worker:
  // hand it over when it ends, or the worker never holds it (the prefetcher asks once a session).
  env.lateUrls?.((late) => controller.postMessage({ type: CACHE_PAGE_URLS, urls: late }));
}

/** `WorkerClient.clearRuntimeCaches`: asks the controlling worker, waits for its answer or the timeout. */
function askToClearCaches(env: WorkerEnv): Promise<void> {
  const controller = env.container?.controller;
  if (!controller) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    const done = () => {
      clearTimeout(timer);
      channel.port1.close();
      resolve();
    };
    const timer = setTimeout(done, CLEAR_TIMEOUT_MS);
    channel.port1.onmessage = done;
    controller.postMessage({ type: CLEAR_RUNTIME_CACHES }, [channel.port2]);
  });
}

export function createWorkerClient(env: WorkerEnv): WorkerClient {
  let update = false;
  let failed = false;
  let registration: ServiceWorkerRegistration | null = null;
  let checking = false;
  const followed = new WeakSet<ServiceWorker>();

  const markUpdate = () => {
    if (update) return;
    update = true;
    env.console.log(MESSAGES.updated);
    env.emit(EVENTS.updated, {});
    if (failed) env.location.reload();
  };

  function follow(container: ServiceWorkerContainer, worker: ServiceWorker, controllerAtStart: ServiceWorker | null): void {
    if (followed.has(worker)) return;
    followed.add(worker);
    let installed = false;
    let isUpdate = false;
    const onState = () => {
      const state = worker.state;
      // Joined late (the worker installed while the page was loading): `installed` still counts.
      if (!installed && (state === 'installed' || state === 'activating' || state === 'activated')) {
        installed = true;
        const controller = container.controller;
        isUpdate = (controller !== null && controller !== worker) || (controllerAtStart !== null && controllerAtStart !== worker);
        if (isUpdate) markUpdate();
        else env.console.log(MESSAGES.firstInstall);
      }
      if (state === 'activated') {
        env.console.log(MESSAGES.activated);
        env.emit(EVENTS.activated, { update: isUpdate });
      } else if (state === 'redundant' && !installed) {
        // A real failure: the install did not complete. A worker that installed and is
        // redundant now was replaced by a newer deploy's, the normal end of every worker.
        env.console.error(MESSAGES.redundant);
      }
    };
    worker.addEventListener('statechange', onState);
    onState();
  }

  return {
    register() {
      if (!workerAllowed(env.location)) {
        env.console.error(MESSAGES.insecure);
        return;
      }
      const container = env.container;
      if (!container) return;
      if (env.devServer) {
        // A worker left by `ir-site serve` on the same port would answer for the dev server.
        void container.getRegistrations().then((all) => Promise.all(all.map((r) => r.unregister())), () => undefined);
        return;
      }
      const controllerAtStart = container.controller;
      const landing = env.location.href;
      let controlled = controllerAtStart !== null;
      container.addEventListener('controllerchange', () => {
        if (controlled) markUpdate();
        else {
          controlled = true;
          cacheThisPage(env, container, landing);
        }
      });
      env.whenLoaded(() => {
        container.register(WORKER_PATH).then(
          (reg) => {
            // Playwright's `serviceWorkers: 'block'` (and some privacy tools) resolve with nothing.
            if (!reg) return;
            registration = reg;
            if (reg.installing) follow(container, reg.installing, controllerAtStart);
            reg.addEventListener('updatefound', () => {
              if (reg.installing) follow(container, reg.installing, controllerAtStart);
            });
          },
          (error: unknown) => env.console.error(MESSAGES.registrationFailed, error),
        );
      });
    },
    updateWaiting: () => update,
    markResourcesFailed() {
      failed = true;
      if (update) env.location.reload();
    },
    clearRuntimeCaches: () => askToClearCaches(env),
    checkForUpdate() {
      if (!registration || checking) return;
      checking = true;
      registration
        .update()
        .catch(() => undefined)
        .finally(() => {
          checking = false;
        });
    },
  };
}

/** A same-origin resource the worker may cache (never itself nor the build hash), as an absolute URL; else null. */
function cacheable(name: string): string | null {
  const url = new URL(name, location.href);
  if (url.origin !== location.origin || !/^https?:$/.test(url.protocol)) return null;
  if (url.pathname === WORKER_PATH || url.pathname === APP_DATA_PATH) return null;
  return url.href;
}

/** Same-origin resources the page fetched, minus the two the worker must never cache. */
function loadedUrls(): string[] {
  const urls = new Set<string>();
  for (const entry of performance.getEntriesByType('resource')) {
    const url = cacheable(entry.name);
    if (url) urls.add(url);
  }
  return [...urls];
}

/** How long fetches under way at the take-over are waited for. */
const LATE_MS = 30_000;

function lateUrls(hand: (urls: string[]) => void): void {
  if (typeof PerformanceObserver !== 'function') return;
  const since = performance.now();
  const observer = new PerformanceObserver((list) => {
    const urls = list
      .getEntries()
      .filter((entry) => entry.startTime < since)
      .map((entry) => cacheable(entry.name))
      .filter((url): url is string => url !== null);
    if (urls.length > 0) hand([...new Set(urls)]);
  });
  observer.observe({ type: 'resource' });
  setTimeout(() => observer.disconnect(), LATE_MS);
}

function browserEnv(): WorkerEnv {
  return {
    location,
    container: 'serviceWorker' in navigator ? navigator.serviceWorker : undefined,
    console,
    emit: (name, detail) => dispatchEvent(new CustomEvent(name, { detail })),
    whenLoaded(start) {
      if (document.readyState === 'complete') start();
      else addEventListener('load', start, { once: true });
    },
    devServer: onDevServer(),
    loadedUrls,
    lateUrls,
  };
}

let client: WorkerClient | null = null;

/** Registers /sw.js for this page (once). */
export function registerServiceWorker(): void {
  if (client) return;
  client = createWorkerClient(browserEnv());
  client.register();
  // A stylesheet or script of this page that fails (a stale page after a deploy) counts as failed resources.
  addEventListener(
    'error',
    (event) => {
      const target = event.target;
      const url =
        target instanceof HTMLScriptElement ? target.src : target instanceof HTMLLinkElement && /stylesheet|modulepreload/.test(target.rel) ? target.href : '';
      // Only this site's files: a blocked third-party script (tag manager, font kit) is not a stale page.
      if (url && new URL(url, location.href).origin === location.origin) client?.markResourcesFailed();
    },
    true,
  );
}

/** The router's question before each navigation: load the next page in full? */
export const updateWaiting = (): boolean => client?.updateWaiting() ?? false;
export const markResourcesFailed = (): void => client?.markResourcesFailed();
export const checkForUpdate = (): void => client?.checkForUpdate();
export const clearRuntimeCaches = (): Promise<void> => client?.clearRuntimeCaches() ?? Promise.resolve();
