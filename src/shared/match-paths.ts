// Pages that answer every path under a prefix, as Gatsby's `matchPath` does: the search page
// has `/search/*`, so `/search/anything/` shows the search page, which reads its scope from
// the address. The build writes them to `/page-data/match-paths.json`; the runtime, `serve`,
// `dev` and the host files (`_redirects` 200 rewrites, the nginx include) read that list.
// A real page always wins: lookups here come after the exact page was not found.
import { byText } from './order.js';

export interface MatchPath {
  /** `/search/*`: a prefix and a star, the only shape ir-site writes. */
  matchPath: string;
  /** The page that answers: `/search/`. */
  path: string;
}

export const MATCH_PATHS_FILE = 'page-data/match-paths.json';

/** Most specific first (the longest prefix), as Gatsby ranks them. */
export function sortMatchPaths(list: readonly MatchPath[]): MatchPath[] {
  return [...list].sort((a, b) => b.matchPath.length - a.matchPath.length || byText(a.matchPath, b.matchPath));
}

/** The page whose match path covers `path`, or null. `/search/*` covers `/search/`, `/search/x/`, `/search/x/y`. */
export function matchPage(list: readonly MatchPath[], path: string): string | null {
  for (const { matchPath, path: page } of list) {
    if (!matchPath.endsWith('*')) continue;
    const prefix = matchPath.slice(0, -1);
    if (path.startsWith(prefix) && path !== page) return page;
  }
  return null;
}

/** A match-paths file as read from a folder or the network: anything malformed is left out. */
export function parseMatchPaths(data: unknown): MatchPath[] {
  if (!Array.isArray(data)) return [];
  return sortMatchPaths(
    data.filter(
      (m): m is MatchPath =>
        !!m && typeof m === 'object' && typeof (m as MatchPath).matchPath === 'string' && typeof (m as MatchPath).path === 'string' && (m as MatchPath).path.startsWith('/'),
    ),
  );
}

/** The match paths of a set of routes (those that have one), most specific first. */
export function matchPathsOf(routes: readonly { path: string; matchPath?: string }[]): MatchPath[] {
  return sortMatchPaths(routes.flatMap((r) => (r.matchPath ? [{ matchPath: r.matchPath, path: r.path }] : [])));
}
