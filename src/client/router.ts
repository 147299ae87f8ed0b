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
import { followContentHash, followedLink, hashTarget, readPosition, saveFocusedLink, savePosition, scrollAfterNavigation, trackScroll } from './scroll.js';
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
const ownKey = () => (history.state as { key?: string } | null)?.key;
const historyKey = () => ownKey() ?? 'initial';
const locationOf = (url: URL): TemplateLocation => ({ pathname: url.pathname, search: url.search, hash: url.hash });

/** Files the build publishes next to pages (PDFs, images) are the browser's, not the router's. */
const isPagePath = (pathname: string) => !/\.[a-z0-9]+$/i.test(pathname) || pathname.endsWith('.html');

export class Router {
  private navigation = 0;
  private site: SiteMetadata;
  /** The URL the page on screen was rendered for (a hash change keeps the page). */
  private rendered = { pathname: location.pathname, search: location.search };
  /** Back or forward to another page, not rendered yet: the address is already the next entry's. */
  private traversing = false;
  /** The "route update delayed" timer of the navigation under way. */
  private delayed: ReturnType<typeof setTimeout> | undefined;
  /**
   * The offline worker answered this address with the offline page: the address's own page
   * renders into it once the router starts (renderInShell), and that is the first render.
   */
  readonly shellPending: boolean;

  constructor(
    private readonly options: RouterOptions,
    private current: PageResources,
  ) {
    this.site = composeProps(current.record, current.queries, locationOf(new URL(location.href))).site;
    this.shellPending = current.record.path !== location.pathname && isOfflinePagePath(current.record.path);
  }

  start(): void {
    history.scrollRestoration = 'manual';
    if (!ownKey()) history.replaceState({ ...(history.state as object), key: newKey() }, '');
    trackScroll(() => (this.traversing ? null : { pathname: location.pathname, key: historyKey() }));
    const saved = readPosition(location.pathname, historyKey());
    if (saved !== null) scrollTo(0, saved);
    else followContentHash(location.hash);
    document.addEventListener('click', (event) => this.onClick(event));
    addEventListener('popstate', () => this.onPopState());
    void this.redirectFirstLoad();
  }

  /**
   * Back, forward, or an in-page anchor followed. Another page renders; on the same page, the
   * router restores the entry's position (scroll restoration is manual) and shows a query the
   * page did not set itself (the search page keeps its own).
   */
  private onPopState(): void {
    const url = new URL(location.href);
    if (url.pathname !== this.rendered.pathname) {
      this.traversing = true;
      void this.go(url, { push: false });
      return;
    }
    // Back to the page on screen before another one rendered: that navigation is dropped.
    ++this.navigation;
    clearTimeout(this.delayed);
    this.traversing = false;
    if (url.search !== this.rendered.search) this.render(this.current, url);
    const key = ownKey();
    // An anchor followed: a new entry of the browser's, which gets its own key.
    if (!key) {
      history.replaceState({ ...(history.state as object), key: newKey() }, '');
      followContentHash(url.hash);
      return;
    }
    const saved = readPosition(url.pathname, key);
    if (saved !== null) scrollTo(0, saved);
    else hashTarget(url.hash)?.scrollIntoView();
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
    clearTimeout(this.delayed);
    const result = await this.options.loader.loadPage(url.pathname);
    if (id !== this.navigation) return;
    if (result.status !== 'success') {
      this.options.rendered(this.current, true); // the offline page stays: it is what was shown
      return;
    }
    this.render(result.resources, url);
    // The address's first render, as after a full load: no announcement, the saved position if any.
    scrollAfterNavigation(url.hash, readPosition(url.pathname, historyKey()));
    this.options.rendered(result.resources, true);
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
    // Same page, an anchor (`#top`, or a bare `#`): the browser scrolls and adds the entry (the
    // same anchor again adds none, and fires no popstate: hence the look for a content id here).
    if (url.pathname === location.pathname && url.search === location.search && anchor.href.includes('#')) {
      setTimeout(() => followContentHash(url.hash), 0);
      return;
    }
    event.preventDefault();
    void this.go(url, { push: true });
  }

  /** Navigates to a URL of this site (also the public `navigate`). */
  async go(url: URL, { push }: { push: boolean }): Promise<void> {
    const id = ++this.navigation;
    clearTimeout(this.delayed); // an earlier navigation, overtaken, is no longer waited for
    if (push) {
      savePosition(location.pathname, historyKey(), scrollY);
      saveFocusedLink(location.pathname, historyKey());
    }
    // A new offline worker took over: this navigation loads the new deploy in full.
    if (updateWaiting()) {
      this.traversing = false; // the page may come back from the back-forward cache
      location.assign(url.href);
      return;
    }
    // Counted from the start: fetching the redirect rules is part of the wait.
    this.delayed = setTimeout(() => dispatchEvent(new CustomEvent(ROUTE_UPDATE_DELAYED, { detail: { path: url.pathname } })), DELAY_MS);
    // Rules are consulted unless the target is a known page (prefetched, visited): no rule hides a page.
    const redirect = this.options.loader.isKnownPage(url.pathname) ? null : await this.options.redirects.resolve(url.pathname, url.search, url.hash);
    if (redirect) url = new URL(redirect, location.href);
    if (url.origin !== location.origin) {
      // A rule to another site: the browser goes there (history holds this origin's addresses only).
      if (id !== this.navigation) return;
      clearTimeout(this.delayed);
      location.assign(url.href);
      return;
    }
    const result = id === this.navigation ? await this.options.loader.loadPage(url.pathname) : null;
    if (id !== this.navigation || !result) return; // a later navigation won, and owns the timer
    clearTimeout(this.delayed);
    this.traversing = false;

    if (result.status === 'stale' || result.status === 'error' || (result.status === 'not-found' && result.htmlExists)) {
      if (result.status === 'error') console.error(result.message);
      // A full load is always correct: a new deploy, a page the runtime does not know, a failure.
      location.assign(url.href);
      return;
    }
    // `/fr` is the page `/fr/`: the address shows the page's own path, as the server's 301 would.
    if (result.resources.record.path === `${url.pathname}/`) url.pathname = result.resources.record.path;
    if (push) history.pushState({ key: newKey() }, '', url.href);
    else if (redirect || url.href !== location.href) history.replaceState({ key: historyKey() }, '', url.href);
    const restored = push ? null : readPosition(url.pathname, historyKey());
    this.render(result.resources, url);
    scrollAfterNavigation(url.hash, restored);
    const props = composeProps(result.resources.record, result.resources.queries, locationOf(url));
    // Focus: a new page's #id target; back or forward, the link followed away from that page (the next Tab goes on from there); else the page.
    announce(props.pageContext.locale, props.strings, url.pathname, restored === null ? hashTarget(url.hash) : followedLink(url.pathname, historyKey()));
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
