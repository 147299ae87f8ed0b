// Loads what a page needs to render: its record, its static queries and its template
// chunk. Every outcome of RUNTIME.md "Loading a page on navigation" is one variant of
// LoadResult; the router decides what the person sees.
import type { ComponentType } from 'react';
import { pageDataUrl, staticQueryUrl } from '../shared/paths.js';
import type { StaticQueryResult } from '../shared/props.js';
import type { PageRecord, TemplateProps } from '../shared/types.js';

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
}

export class Loader {
  private records = new Map<string, Promise<RecordFetch>>();
  /** Paths whose record arrived: real pages, which no redirect rule may hide. */
  private known = new Set<string>();
  private queries = new Map<string, Promise<StaticQueryResult>>();
  private components = new Map<string, Promise<ComponentType<TemplateProps<any>>>>();
  private appData: Promise<string | null> | null = null;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: LoaderOptions) {
    this.fetch = options.fetch ?? window.fetch.bind(window);
  }

  /** Seeds the caches with what the first page inlined, so it costs no request. */
  seed(record: PageRecord, queries: StaticQueryResult[]): void {
    this.records.set(record.path, Promise.resolve({ kind: 'record', record }));
    this.known.add(record.path);
    record.staticQueryHashes.forEach((hash, i) => {
      if (queries[i]) this.queries.set(hash, Promise.resolve(queries[i]!));
    });
  }

  /** The build hash the server has now; fetched once per navigation, never cached by the browser. */
  currentBuildHash(): Promise<string | null> {
    this.appData ??= this.fetch('/page-data/app-data.json', { cache: 'no-cache' })
      .then((r) => (r.ok ? r.json() : null))
      .then((d: { webpackCompilationHash?: string } | null) => d?.webpackCompilationHash ?? null)
      .catch(() => null);
    const pending = this.appData;
    void pending.finally(() => {
      if (this.appData === pending) this.appData = null;
    });
    return pending;
  }

  private fetchRecord(path: string): Promise<RecordFetch> {
    const cached = this.records.get(path);
    if (cached) return cached;
    const attempt = async (): Promise<RecordFetch> => {
      let lastProblem = 'no answer';
      for (let tries = 0; tries <= RETRIES; tries++) {
        let response: Response;
        try {
          response = await this.fetch(pageDataUrl(path));
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
    const pending = attempt();
    this.records.set(path, pending);
    // Only records are kept: a failure may be transient, a later navigation tries again.
    void pending.then((r) => (r.kind === 'record' ? this.known.add(path) : this.records.delete(path)));
    return pending;
  }

  private staticQuery(hash: string): Promise<StaticQueryResult> {
    let pending = this.queries.get(hash);
    if (!pending) {
      const url = staticQueryUrl(hash);
      pending = this.fetch(url)
        .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
        .then((body: { data?: StaticQueryResult }) => body.data ?? Promise.reject(new Error('no data')))
        .catch(() => {
          this.queries.delete(hash);
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
    const [fetched, serverHash] = await Promise.all([this.fetchRecord(path), this.currentBuildHash()]);
    if (serverHash && serverHash !== this.options.buildHash) return { status: 'stale' };
    try {
      if (fetched.kind === 'record') return { status: 'success', resources: await this.resources(fetched.record) };
      if (fetched.kind === 'error') return { status: 'error', message: fetched.message };
      const notFound = await this.fetchRecord(this.options.notFoundPathFor(path));
      if (notFound.kind !== 'record') return { status: 'error', message: `page resources for ${path} not found, nor the not-found page` };
      const [resources, htmlExists] = await Promise.all([this.resources(notFound.record), this.htmlExists(path)]);
      return { status: 'not-found', resources, htmlExists };
    } catch (error) {
      return { status: 'error', message: (error as Error).message };
    }
  }

  /** Whether `path` is known to be a page (its record arrived: seeded, prefetched or visited). */
  isKnownPage(path: string): boolean {
    return this.known.has(path);
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
