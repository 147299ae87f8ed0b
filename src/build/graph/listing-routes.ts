// The routes a content page brings besides itself: a section's listing a page at a time, whole
// and per year and type (listings.ts), and the thank-you page of a contact form that can post.
import type { PageEntry } from '../content/entries.js';
import type { SectionData } from '../../shared/types.js';
import type { Route } from './model.js';
import { listingPagePath, listingViews, type ListingView } from './listings.js';
import { pageOriginalPath, type RouteContext } from './route-context.js';

type Listing = ReturnType<typeof listingViews>;
type PageCommon = { locale: string; file: string; markdown: Route['markdown']; pathField: string; pathLine: number | undefined };

const listings = new WeakMap<RouteContext, Map<PageEntry, Listing>>();

/** A section page's listing: its articles as views (the whole list, then per year and type), each paged. */
export function listingOf(ctx: RouteContext, p: PageEntry): Listing {
  const known = listings.get(ctx) ?? listings.set(ctx, new Map()).get(ctx)!;
  let listing = known.get(p);
  if (!listing) {
    const original = pageOriginalPath(p, ctx.config);
    const articles = ctx.bySection.get(`${p.locale}\0${ctx.sectionOf(p)}`) ?? [];
    known.set(p, (listing = listingViews(articles, ctx.config.pageSize, ctx.localize(original, p.locale), original)));
  }
  return listing;
}

/** Page `n` of a listing view, as the section template shows it. */
export function listingData(ctx: RouteContext, p: PageEntry, view: ListingView, n: number): SectionData {
  const strings = ctx.site.strings[p.locale] ?? {};
  const say = (key: string, vars: Record<string, string | number>, fallback: string) =>
    (strings[key] ?? fallback).replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
  let title = p.fm.title;
  if (view.filter) {
    const value = view.filter.kind === 'type' ? (strings[`articleType.${view.filter.value}`] ?? view.filter.value) : view.filter.value;
    title = say('section.filterTitle', { title, filter: value }, '{title}: {filter}');
  }
  if (n > 1) title = say('section.pageTitle', { title, page: n, pages: view.pages }, '{title}, page {page} of {pages}');
  const size = ctx.config.pageSize;
  return {
    title,
    description: p.fm.description ?? null,
    body: null,
    template: p.fm.template as 'section' | 'column',
    section: ctx.sectionOf(p),
    articles: view.articles.slice((n - 1) * size, n * size),
    pagination: { page: n, pages: view.pages, total: view.articles.length, basePath: view.basePath },
    filter: view.filter,
    filters: listingOf(ctx, p).filters,
  };
}

/** The listing's other pages and its filtered views: generated, linked from page 1. */
export function listingPageRoutes(ctx: RouteContext, page: PageEntry, group: Map<string, PageEntry>, common: PageCommon): void {
  for (const view of listingOf(ctx, page).views) {
    for (let n = view.filter ? 1 : 2; n <= view.pages; n++) {
      ctx.route({
        ...common,
        markdown: null,
        path: listingPagePath(view.basePath, n),
        originalPath: listingPagePath(view.originalBase, n),
        template: page.fm.template,
        alternates: ctx.config.locales.flatMap((l) => {
          const other = group.get(l.code);
          const same = other && listingOf(ctx, other).views.find((v) => v.key === view.key);
          return same && same.pages >= n ? [{ locale: l.code, hrefLang: l.hrefLang, path: listingPagePath(same.basePath, n) }] : [];
        }),
        data: listingData(ctx, page, view, n),
        // The pages of the whole listing are in the sitemap; the filtered views repeat them.
        inSitemap: !view.filter,
        searchable: false,
      });
    }
  }
}

/** The thank-you page of a page with the contact form, when the form has somewhere to post. */
export function sentPathOf(ctx: RouteContext, p: PageEntry): string | null {
  return p.fm.form === 'contact' && ctx.config.integrations.botCheck.formAction && p.fm.template === 'page'
    ? ctx.localize(`${pageOriginalPath(p, ctx.config)}sent/`, p.locale)
    : null;
}

/**
 * Where the form, posted without JavaScript, lands: the endpoint sends the visitor to the
 * `_next` address the form carries (templates/components/ContactForm.tsx).
 */
export function sentPageRoutes(ctx: RouteContext, page: PageEntry, group: Map<string, PageEntry>, common: PageCommon, formPath: string): void {
  const sentPath = sentPathOf(ctx, page);
  if (!sentPath) return;
  const strings = ctx.site.strings[page.locale];
  ctx.route({
    ...common,
    markdown: null,
    path: sentPath,
    originalPath: `${pageOriginalPath(page, ctx.config)}sent/`,
    template: 'page',
    alternates: ctx.alternatesOf(new Map([...group].filter(([, p]) => sentPathOf(ctx, p))), (p) => sentPathOf(ctx, p)!),
    inSitemap: false,
    searchable: false,
    data: {
      template: 'page',
      title: strings?.['contact.sent.title'] ?? 'Thank you',
      description: strings?.['contact.sent.text'] ?? null,
      body: null,
      form: 'contact-sent',
      sentPath,
      formPath,
    },
  });
}
