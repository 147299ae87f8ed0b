// Loads what a page needs to render: its record, its static queries and its template
// chunk. Every outcome of RUNTIME.md "Loading a page on navigation" is one variant of
// LoadResult; the router decides what the person sees.
import type { ComponentType } from 'react';
import { MATCH_PATHS_FILE, matchPage, parseMatchPaths, type MatchPath } from '../shared/match-paths.js';
import { APP_DATA_PATH } from '../shared/offline.js';
import { pageDataUrl, staticQueryUrl } from '../shared/paths.js';
import type { StaticQueryResult } from '../shared/props.js';
import type { PageRecord, TemplateProps } from '../shared/types.js';
import { clearRuntimeCaches } from './service-worker.js';

export type ChunkLoaders = Record<string, () => Promise<{ default: ComponentType<TemplateProps<any>> }>>;

export interface PageResources {
  record: PageRecord;
  component: ComponentType<TemplateProps<any>>;
  queries: StaticQueryResult[];
}

export type LoadResult =
  | { status: 'success'; resources: PageResources }
  /** No record (404 or a 200 that is not a record): the not-found page, unless the HTML exists. */
  | { status: 'not-found'; resources: PageResources; htmlExists: boolean }
  /** A new deploy is live: load the page in full. */
  | { status: 'stale' }
  /** 500, retries spent, a missing chunk or query: load the page in full. */
  | { status: 'error'; message: string };

export const RETRIES = 3;

type RecordFetch = { kind: 'record'; record: PageRecord } | { kind: 'not-found' } | { kind: 'error'; message: string };

export interface LoaderOptions {
  buildHash: string;
  chunks: ChunkLoaders;
  /** The not-found page for a path: `/fr/404.html` under `/fr/`, `/404.html` otherwise. */
  notFoundPathFor(path: string): string;
  fetch?: typeof fetch;
  /**
   * `app-data.json` names another build hash: awaited (once) before the loader says so, so
   * that what follows (a full load) cannot meet the old build's cached data. Default: the
   * offline worker drops its runtime caches.
   */
  onNewBuild?: () => Promise<void>;
}

/** What `app-data.json` said; `ok` false when it could not be read (offline, a failing host). */
interface ServerState {
  ok: boolean;
  hash: string | null;
  /** The deploy id the build writes there (src/offline); null for a build that writes none (`dev`). */
  deploy: string | null;
}

const UNREADABLE: ServerState = { ok: false, hash: null, deploy: null };

function serverStateOf(body: unknown): ServerState {
  const data = (body && typeof body === 'object' ? body : {}) as { webpackCompilationHash?: unknown; deploy?: unknown };
  const hash = typeof data.webpackCompilationHash === 'string' ? data.webpackCompilationHash : null;
  return { ok: hash !== null, hash, deploy: typeof data.deploy === 'string' ? data.deploy : null };
}

/**
 * Records and static queries are fetched with `cache: 'no-cache'` (a conditional request:
 * 304 when unchanged) and kept in memory for the current deploy only. Their URLs are the
 * same in every deploy, so a host's cache or this tab's memory would otherwise show an
 * older deploy's text; `app-data.json`, fetched on every navigation anyway, says when the
 * deploy changed (RUNTIME.md: a new build is never hidden for more than one navigation).
 */
const REVALIDATE: RequestInit = { cache: 'no-cache' };

export class Loader {
  /** Records of the current deploy (seeded, prefetched or visited): real pages, which no redirect rule may hide. */
  private records = new Map<string, PageRecord>();
  /** Record requests under way, shared by prefetch and navigation. */
  private pending = new Map<string, Promise<RecordFetch>>();
  private queries = new Map<string, Promise<StaticQueryResult>>();
  private components = new Map<string, Promise<ComponentType<TemplateProps<any>>>>();
  private appData: Promise<ServerState> | null = null;
  /** The wildcard pages (`/search/*`), fetched the first time a path has no record of its own. */
  private matchPathList: Promise<MatchPath[]> | null = null;
  /**
   * The deploy the records and queries in memory belong to: undefined before the first
   * check, null after a check that failed (what arrived meanwhile may be an offline copy).
   */
  private deploy: string | null | undefined = undefined;
  /** The path of the record the page was loaded with (seed). */
  private seeded: string | null = null;
  /** Bumped when memory is dropped: an answer to a request sent before it is not kept. */
  private epoch = 0;
  private newBuild: Promise<void> | null = null;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: LoaderOptions) {
    this.fetch = options.fetch ?? window.fetch.bind(window);
  }

  /** Seeds the caches with what the first page inlined, so it costs no request. */
  seed(record: PageRecord, queries: StaticQueryResult[]): void {
    this.seeded = record.path;
    this.records.set(record.path, record);
    record.staticQueryHashes.forEach((hash, i) => {
      if (queries[i]) this.queries.set(hash, Promise.resolve(queries[i]!));
    });
  }

  /** The build hash the server has now; fetched once per navigation, never cached by the browser. */
  async currentBuildHash(): Promise<string | null> {
    return (await this.serverState()).hash;
  }

  private serverState(): Promise<ServerState> {
    this.appData ??= this.fetch(APP_DATA_PATH, { cache: 'no-cache' })
      .then((r) => (r.ok ? r.json() : null))
      .then((body: unknown) => this.note(serverStateOf(body)))
      .catch(() => this.note(UNREADABLE));
    const pending = this.appData;
    void pending.finally(() => {
      if (this.appData === pending) this.appData = null;
    });
    return pending;
  }

  /** Acts on what app-data.json said: a new build is announced (once), a new deploy drops memory. */
  private async note(state: ServerState): Promise<ServerState> {
    if (state.hash !== null && state.hash !== this.options.buildHash) {
      this.newBuild ??= (this.options.onNewBuild ?? clearRuntimeCaches)().catch(() => undefined);
      await this.newBuild;
      return state;
    }
    if (!state.ok) this.deploy = null;
    else if (state.deploy !== null) {
      if (this.deploy !== undefined && this.deploy !== state.deploy) this.forget();
      // The page's own record came with its HTML, whose deploy nothing names: one may have gone
      // live while the page loaded. Fetched again if the visitor comes back to it (beside the
      // app-data.json request that navigation makes anyway); what was fetched is the server's.
      else if (this.deploy === undefined && this.seeded !== null) this.records.delete(this.seeded);
      this.deploy = state.deploy;
    }
    return state;
  }

  /** Drops the records and static queries held in memory (template chunks are named by content: they stay). */
  private forget(): void {
    this.epoch++;
    this.records.clear();
    this.pending.clear();
    this.queries.clear();
  }

  private fetchRecord(path: string): Promise<RecordFetch> {
    const record = this.records.get(path);
    if (record) return Promise.resolve({ kind: 'record', record });
    const running = this.pending.get(path);
    if (running) return running;
    const attempt = async (): Promise<RecordFetch> => {
      let lastProblem = 'no answer';
      for (let tries = 0; tries <= RETRIES; tries++) {
        let response: Response;
        try {
          response = await this.fetch(pageDataUrl(path), REVALIDATE);
        } catch (error) {
          lastProblem = `network error: ${(error as Error).message}`;
          continue;
        }
        if (response.status === 404) return { kind: 'not-found' };
        if (response.status === 500) return { kind: 'error', message: `page data for ${path} answered 500` };
        if (response.status === 200) {
          // A host that answers every URL with index.html sends 200 HTML: that is a 404 too.
          const record = (await response.json().catch(() => null)) as PageRecord | null;
          return record && typeof record === 'object' && typeof record.path === 'string' ? { kind: 'record', record } : { kind: 'not-found' };
        }
        lastProblem = `page data for ${path} answered ${response.status}`;
      }
      return { kind: 'error', message: `${lastProblem} (after ${RETRIES} retries)` };
    };
    const epoch = this.epoch;
    const pending = attempt();
    this.pending.set(path, pending);
    void pending.then((r) => {
      if (this.pending.get(path) === pending) this.pending.delete(path);
      // Only records are kept, and only if no new deploy was seen meanwhile; a failure may be
      // transient: a later navigation tries again.
      if (r.kind === 'record' && epoch === this.epoch) this.records.set(path, r.record);
    });
    return pending;
  }

  private staticQuery(hash: string): Promise<StaticQueryResult> {
    let pending = this.queries.get(hash);
    if (!pending) {
      const url = staticQueryUrl(hash);
      pending = this.fetch(url, REVALIDATE)
        .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
        .then((body: { data?: StaticQueryResult }) => body.data ?? Promise.reject(new Error('no data')))
        .catch(() => {
          if (this.queries.get(hash) === pending) this.queries.delete(hash);
          throw new Error(`We couldn't load "${url}"`);
        });
      this.queries.set(hash, pending);
    }
    return pending;
  }

  private component(chunkName: string): Promise<ComponentType<TemplateProps<any>>> {
    let pending = this.components.get(chunkName);
    if (!pending) {
      const load = this.options.chunks[chunkName];
      if (!load) return Promise.reject(new Error(`We couldn't find the correct component chunk with the name "${chunkName}"`));
      pending = load()
        .then((m) => m.default)
        .catch((error: unknown) => {
          this.components.delete(chunkName);
          throw new ChunkLoadError(`Loading chunk ${chunkName} failed: ${(error as Error).message}`);
        });
      this.components.set(chunkName, pending);
    }
    return pending;
  }

  private async resources(record: PageRecord): Promise<PageResources> {
    const [component, queries] = await Promise.all([this.component(record.componentChunkName), Promise.all(record.staticQueryHashes.map((h) => this.staticQuery(h)))]);
    return { record, component, queries };
  }

  /** Everything a navigation to `path` needs, or what to do instead. */
  async loadPage(path: string): Promise<LoadResult> {
    const epoch = this.epoch;
    const [first, server] = await Promise.all([this.fetchRecord(path), this.serverState()]);
    if (server.hash && server.hash !== this.options.buildHash) return { status: 'stale' };
    // A new deploy of the same build (content only): the record may be older than it.
    const fetched = epoch === this.epoch ? first : await this.fetchRecord(path);
    try {
      if (fetched.kind === 'record') return { status: 'success', resources: await this.resources(fetched.record) };
      if (fetched.kind === 'error') return { status: 'error', message: fetched.message };
      // No page of its own: a page whose match path covers it (`/search/*`) renders it, as in Gatsby.
      const wildcard = matchPage(await this.matchPaths(), path);
      const matched = wildcard ? await this.fetchRecord(wildcard) : null;
      if (matched?.kind === 'record') return { status: 'success', resources: await this.resources(matched.record) };
      const notFound = await this.fetchRecord(this.options.notFoundPathFor(path));
      if (notFound.kind !== 'record') return { status: 'error', message: `page resources for ${path} not found, nor the not-found page` };
      const [resources, htmlExists] = await Promise.all([this.resources(notFound.record), this.htmlExists(path)]);
      return { status: 'not-found', resources, htmlExists };
    } catch (error) {
      return { status: 'error', message: (error as Error).message };
    }
  }

  private matchPaths(): Promise<MatchPath[]> {
    this.matchPathList ??= this.fetch(`/${MATCH_PATHS_FILE}`, REVALIDATE)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then(parseMatchPaths)
      .catch(() => {
        this.matchPathList = null; // unreadable now (offline, a failing host): asked again next time
        return [];
      });
    return this.matchPathList;
  }

  /** Whether `path` is known to be a page (its record arrived: seeded, prefetched or visited). */
  isKnownPage(path: string): boolean {
    return this.records.has(path);
  }

  /** A page the runtime has no record for may still exist as HTML (built by something else). */
  private async htmlExists(path: string): Promise<boolean> {
    try {
      return (await this.fetch(path, { method: 'HEAD' })).status === 200;
    } catch {
      return false;
    }
  }

  /** Warms the caches for a path (prefetch); never throws. */
  async prefetch(path: string): Promise<void> {
    const fetched = await this.fetchRecord(path).catch(() => null);
    if (fetched?.kind === 'record') await this.resources(fetched.record).catch(() => undefined);
  }
}

export class ChunkLoadError extends Error {}
