// An article's headline (its title and description) is held by its own pages and by the
// article summaries of the lists that show it, and by nothing else in the graph. So when the
// articles' headlines are all that changed in the graph's inputs (incremental/keys.ts,
// graphFrameKey), the new graph is the old one with those routes replaced: the build takes its
// snapshot so, and dev its graph. A test holds this against the graph stage run on the edit.
import type { Diagnostic } from '../../errors/diagnostic.js';
import type { ArticleSummary } from '../../shared/types.js';
import type { RawEntry } from '../content/raw.js';
import { articleHeadline } from '../content/schemas.js';
import type { Route, SiteGraph } from './model.js';
import { typesetHeadline } from './french-text.js';

export interface Headline {
  title: string;
  description: string | null;
}

/** What a headline edit made of a graph: the new graph, the articles' own routes and the other routes it replaced. */
export interface HeadlineEdit {
  graph: SiteGraph;
  own: Route[];
  lists: Route[];
}

/** The lists of article summaries a route's data may hold. */
type SummaryLists = { articles?: ArticleSummary[]; latest?: ArticleSummary[] };

/**
 * `graph` with the headlines of `edited`, articles whose front matter changed in their headlines
 * alone, set as the graph stage sets them (`frenchTypography`: the configuration's, french-text.ts); or null when one of them needs the validate and graph stages: its front matter does not
 * validate, one of `findings` (the graph's and its validation's) names its file, or the graph
 * has no page of it.
 */
export function withEditedHeadlines(graph: SiteGraph, findings: readonly Diagnostic[], edited: Iterable<RawEntry>, { frenchTypography }: { frenchTypography: boolean }): HeadlineEdit | null {
  const headlines = new Map<string, Headline>();
  for (const entry of edited) {
    const headline = articleHeadline(entry.data);
    if (!headline) return null;
    headlines.set(entry.file, typesetHeadline(headline, entry.locale, frenchTypography));
  }
  if (findings.some((d) => headlines.has(d.file))) return null;
  return withHeadlines(graph, headlines);
}

/**
 * `graph` with each article file's new headline (by site-relative file), or null when a file has
 * no article page in it (a draft, an article of another identity): that edit needs the graph stage.
 */
export function withHeadlines(graph: SiteGraph, headlines: ReadonlyMap<string, Headline>): HeadlineEdit | null {
  // A summary links to the article's canonical page.
  const bySummaryPath = new Map<string, Headline>();
  for (const route of graph.routes) {
    const headline = route.file === null ? undefined : headlines.get(route.file);
    if (!headline) continue;
    if (route.data.template !== 'article') return null;
    if ((route.canonicalPath ?? route.path) === route.path) bySummaryPath.set(route.path, headline);
  }
  if (bySummaryPath.size !== headlines.size) return null;
  const routes = graph.routes.slice();
  const own: Route[] = [];
  const lists: Route[] = [];
  // A plain loop: this looks at every route of the site on each edit.
  for (let i = 0; i < routes.length; i++) {
    const route = routes[i]!;
    const headline = route.file === null ? undefined : headlines.get(route.file);
    if (headline) own.push((routes[i] = withSummaries({ ...route, data: { ...route.data, ...headline } }, bySummaryPath)));
    else if (showsSummary(route, bySummaryPath)) lists.push((routes[i] = withSummaries(route, bySummaryPath)));
  }
  return { graph: { ...graph, routes }, own, lists };
}

function holds(list: readonly ArticleSummary[] | undefined, paths: ReadonlyMap<string, Headline>): boolean {
  if (!list) return false;
  // The lists hold a summary per article per listing page: for one edit, a string compare, not a map lookup.
  if (paths.size === 1) {
    const [only] = paths.keys();
    for (const summary of list) if (summary.path === only) return true;
  } else for (const summary of list) if (paths.has(summary.path)) return true;
  return false;
}

function showsSummary(route: Route, paths: ReadonlyMap<string, Headline>): boolean {
  const { articles, latest } = route.data as SummaryLists;
  return holds(articles, paths) || holds(latest, paths);
}

/** `route` with the summaries of the articles in `paths` given their new headlines. */
function withSummaries(route: Route, paths: ReadonlyMap<string, Headline>): Route {
  const { articles, latest } = route.data as SummaryLists;
  if (!holds(articles, paths) && !holds(latest, paths)) return route;
  const updated = (list: ArticleSummary[]) => list.map((s) => (paths.has(s.path) ? { ...s, ...paths.get(s.path)! } : s));
  return { ...route, data: { ...route.data, ...(articles && { articles: updated(articles) }), ...(latest && { latest: updated(latest) }) } as Route['data'] };
}
