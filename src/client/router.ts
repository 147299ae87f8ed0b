// Client-side navigation: intercepts internal links, loads the next page through the
// loader, renders it into the same React root, keeps history, scroll, focus and the
// announcer right, and falls back to a full page load whenever that is the safe thing.
import { flushSync } from 'react-dom';
import type { Root } from 'react-dom/client';
import { appElement } from '../shared/app.js';
import { isOfflinePagePath } from '../shared/offline.js';
import { composeProps } from '../shared/props.js';
import type { SiteMetadata, TemplateLocation } from '../shared/types.js';
import { announce } from './announcer.js';
import { applyHead } from './head.js';
import type { Loader, PageResources } from './loader.js';
import type { RedirectTable } from './redirects.js';
import { readPosition, savePosition, scrollAfterNavigation, trackScroll } from './scroll.js';
import { updateWaiting } from './service-worker.js';

export const ROUTE_UPDATE_DELAYED = 'ir-site:route-update-delayed';
export const ROUTE_UPDATE = 'ir-site:route-update';
const DELAY_MS = 1000;

export interface RouterOptions {
  root: Root;
  loader: Loader;
  redirects: RedirectTable;
  /** Called after every render, the first included (analytics, prefetch, integrations). */
  rendered(resources: PageResources, first: boolean): void;
}

const newKey = () => Math.random().toString(36).slice(2, 10);
const historyKey = () => (history.state as { key?: string } | null)?.key ?? 'initial';
const locationOf = (url: URL): TemplateLocation => ({ pathname: url.pathname, search: url.search, hash: url.hash });

/** Files the build publishes next to pages (PDFs, images) are the browser's, not the router's. */
const isPagePath = (pathname: string) => !/\.[a-z0-9]+$/i.test(pathname) || pathname.endsWith('.html');

export class Router {
  private navigation = 0;
  private site: SiteMetadata;
  /** The URL the page on screen was rendered for (a hash change keeps the page). */
  private rendered = { pathname: location.pathname, search: location.search };

  constructor(
    private readonly options: RouterOptions,
    private current: PageResources,
  ) {
    this.site = composeProps(current.record, current.queries, locationOf(new URL(location.href))).site;
  }

  start(): void {
    history.scrollRestoration = 'manual';
    if (!(history.state as { key?: string } | null)?.key) history.replaceState({ ...(history.state as object), key: newKey() }, '');
    trackScroll(() =>
      location.pathname === this.rendered.pathname && location.search === this.rendered.search ? { pathname: location.pathname, key: historyKey() } : null,
    );
    const saved = readPosition(location.pathname, historyKey());
    if (saved !== null) scrollTo(0, saved);
    document.addEventListener('click', (event) => this.onClick(event));
    addEventListener('popstate', () => {
      const url = new URL(location.href);
      // Following an in-page anchor also fires popstate: the same page, so the browser's.
      if (url.pathname === this.rendered.pathname && url.search === this.rendered.search) return;
      void this.go(url, { push: false });
    });
    void this.redirectFirstLoad();
  }

  /**
   * A page served for another URL (a host's 404 page for `/cn/...`, a case variant) moves
   * to the rule's target. When the URL is the page's own, no rule can apply: the build
   * never lets a rule hide a page, so the rules are not even fetched. The offline page
   * served for another URL is a shell for that URL's page.
   */
  private async redirectFirstLoad(): Promise<void> {
    if (this.current.record.path === location.pathname) return;
    const target = await this.options.redirects.resolve(location.pathname, location.search, location.hash);
    if (target) location.replace(target);
    else if (isOfflinePagePath(this.current.record.path)) await this.renderInShell(new URL(location.href));
  }

  /**
   * The offline worker answered a page it has no HTML of with the offline page: render the
   * address's page from its cached record, as Gatsby's app shell does (docs/offline.md).
   * Anything but the page leaves the offline page on screen: a full load would bring it back.
   */
  private async renderInShell(url: URL): Promise<void> {
    const id = ++this.navigation;
    const result = await this.options.loader.loadPage(url.pathname);
    if (id !== this.navigation || result.status !== 'success') return;
    this.render(result.resources, url);
    // The address's first render, as after a full load: no announcement, the saved position if any.
    scrollAfterNavigation(url.hash, readPosition(url.pathname, historyKey()));
    this.options.rendered(result.resources, false);
  }

  isInternal(anchor: HTMLAnchorElement): boolean {
    if (anchor.target && anchor.target !== '_self') return false;
    if (anchor.hasAttribute('download') || /\bexternal\b/.test(anchor.rel)) return false;
    const url = new URL(anchor.href, location.href);
    return url.origin === location.origin && /^https?:$/.test(url.protocol) && isPagePath(url.pathname);
  }

  private onClick(event: MouseEvent): void {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
    if (!anchor || !this.isInternal(anchor)) return;
    const url = new URL(anchor.href, location.href);
    // Same page, other anchor: the browser scrolls, and keeps the history entry itself.
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
    event.preventDefault();
    void this.go(url, { push: true });
  }

  /** Navigates to a URL of this site (also the public `navigate`). */
  async go(url: URL, { push }: { push: boolean }): Promise<void> {
    const id = ++this.navigation;
    if (push) savePosition(location.pathname, historyKey(), scrollY);
    // A new offline worker took over: this navigation loads the new deploy in full.
    if (updateWaiting()) {
      location.assign(url.href);
      return;
    }
    // Rules are consulted unless the target is a known page (prefetched, visited): no rule hides a page.
    const redirect = this.options.loader.isKnownPage(url.pathname) ? null : await this.options.redirects.resolve(url.pathname, url.search, url.hash);
    if (redirect) url = new URL(redirect, location.href);

    const delayed = setTimeout(() => dispatchEvent(new CustomEvent(ROUTE_UPDATE_DELAYED, { detail: { path: url.pathname } })), DELAY_MS);
    const result = await this.options.loader.loadPage(url.pathname);
    clearTimeout(delayed);
    if (id !== this.navigation) return; // a later navigation won

    if (result.status === 'stale' || result.status === 'error' || (result.status === 'not-found' && result.htmlExists)) {
      if (result.status === 'error') console.error(result.message);
      // A full load is always correct: a new deploy, a page the runtime does not know, a failure.
      location.assign(url.href);
      return;
    }
    if (push) history.pushState({ key: newKey() }, '', url.href);
    else if (redirect) history.replaceState({ key: historyKey() }, '', url.href);
    const restored = push ? null : readPosition(url.pathname, historyKey());
    this.render(result.resources, url);
    scrollAfterNavigation(url.hash, restored);
    const props = composeProps(result.resources.record, result.resources.queries, locationOf(url));
    announce(props.pageContext.locale, props.strings, url.pathname);
    this.options.rendered(result.resources, false);
    dispatchEvent(new CustomEvent(ROUTE_UPDATE, { detail: { path: url.pathname } }));
  }

  private render(resources: PageResources, url: URL): void {
    this.current = resources;
    this.rendered = { pathname: url.pathname, search: url.search };
    const props = composeProps(resources.record, resources.queries, locationOf(url));
    this.site = props.site;
    flushSync(() => this.options.root.render(appElement(resources.component, props)));
    applyHead(resources.record, this.site);
  }
}
