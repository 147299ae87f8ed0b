// The validate and graph stages' result, kept for the next build with the same graph key
// (keys.ts, graphKey: everything those stages read but the bodies' text): validating every
// entry and building every route, listing, alternate and redirect costs several times reading
// the result back, and it changes only when front matter, images, site files or the
// configuration do. A build with the same frame key
// (graphFrameKey: all that but the articles' headlines) takes it too, with the new headlines put
// in (build/graph/headlines.ts): a title fixed costs what a body edit does, not the site checks.
//
// Stored with v8.serialize (the structured clone: objects shared between routes stay shared)
// in a cache file (cache-file.ts) whose header holds both keys, so a build whose keys both
// differ never deserializes it. The bodies' text is left out: each route's markdown reads through to its
// entry, as the graph stage makes it (build/graph/routes.ts `markdownOf`), so a body changed since
// is what the page shows, and an unchanged body is still read only if the page is rendered.
import type { RawEntry } from '../build/content/raw.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import type { Route, SiteGraph } from '../build/graph/model.js';
import { markdownPlace, withBody, type MarkdownPlace } from '../build/graph/markdown-source.js';
import { withEditedHeadlines } from '../build/graph/headlines.js';
import { hasFields, type CacheFile } from '../files/cache-file.js';
import { memoKind, type Memo } from './memo.js';

/** What a build takes from the snapshot instead of running validate and graph. */
export interface GraphResult {
  graph: SiteGraph;
  /** The validate stage's findings (warnings: a build with errors keeps no snapshot). */
  validation: Diagnostic[];
}


/** The keys a snapshot was made under (keys.ts): its graph key, and its frame key (the graph key but for articles' headlines). */
export interface SnapshotKeys {
  graph: string;
  frame: string;
}

/** A route as stored: its markdown without the body. */
type StoredRoute = Omit<Route, 'markdown'> & { markdown: MarkdownPlace | null };

/** What the file stores: the result without the bodies, and each entry's digest of its text before the body, to tell which changed since. */
interface Stored {
  graph: Omit<SiteGraph, 'routes'> & { routes: StoredRoute[] };
  validation: Diagnostic[];
  matter: Record<string, string>;
}

// Routes are checked as they are restored (restoreStored).
const GRAPH = memoKind('graph', (value): value is Stored => hasFields('graph', 'validation', 'matter')(value), { codec: 'v8' });

/** Writes the result without the bodies' text (encoded at once, synchronously: the caller goes on with the graph). */
export function writeGraphSnapshot(memo: Memo, keys: SnapshotKeys, result: GraphResult, entries: readonly RawEntry[]): Promise<void> {
  const routes = result.graph.routes.map((route) => (route.markdown ? { ...route, markdown: markdownPlace(route.markdown) } : route));
  const matter: Record<string, string> = {};
  for (const entry of entries) matter[entry.file] = entry.matterDigest;
  // Both keys in the header, so a build whose keys both differ never decodes the payload.
  return memo.write(GRAPH, { graph: { ...result.graph, routes }, validation: result.validation, matter }, `${keys.graph} ${keys.frame}`);
}

/** The snapshot made by this ir-site, undamaged, not yet decoded (snapshotKeys says whether it is wanted); or null. */
export const readGraphSnapshot = (memo: Memo): Promise<CacheFile | null> => memo.open(GRAPH);

/** The keys in the snapshot's header. */
export function snapshotKeys(snapshot: CacheFile): SnapshotKeys {
  const [graph = '', frame = ''] = snapshot.key.split(' ');
  return { graph, frame };
}

/**
 * The stored result with each route's text and digest from `entries` (the entries of this
 * build, whose graph key was the snapshot's), or null when an entry a route needs is missing.
 */
export function restoreGraph(snapshot: CacheFile, entries: readonly RawEntry[]): GraphResult | null {
  const stored = restoreStored(snapshot, entries);
  return stored && { graph: stored.graph, validation: stored.validation };
}

/** A graph restored with new headlines: the result, and the routes that were replaced. */
export interface HeadlinesRestored extends GraphResult {
  replaced: Route[];
}

/**
 * The stored result with the new headlines of the articles whose front matter changed since,
 * for entries whose frame key (keys.ts, graphFrameKey) was the snapshot's: their headlines are
 * all that can differ. Null when an edit needs the validate and graph stages (withEditedHeadlines).
 */
export function restoreWithHeadlines(snapshot: CacheFile, entries: readonly RawEntry[], frenchTypography: boolean): HeadlinesRestored | null {
  const stored = restoreStored(snapshot, entries);
  if (!stored) return null;
  const edited = entries.filter((entry) => stored.matter[entry.file] !== entry.matterDigest);
  const edit = withEditedHeadlines(stored.graph, [...stored.validation, ...stored.graph.diagnostics], edited, { frenchTypography });
  return edit && { graph: edit.graph, validation: stored.validation, replaced: [...edit.own, ...edit.lists] };
}

/**
 * The routes last restored from a stored value, the entries they took their bodies from, and
 * which routes each entry gives its body to: a memory memo (`dev`'s) hands out the same value
 * after each edit, and a route whose entry is the same object as last time is the same route.
 */
interface Restored {
  routes: Route[];
  entries: readonly RawEntry[];
  /** By the index of an entry in `entries`, the indexes of the routes that show its body. */
  routesOf: readonly (readonly number[])[];
}
const lastRestored = new WeakMap<object, Restored>();

/**
 * The stored result, each route given its body again. The routes are copies: a memory memo hands
 * out the value it keeps, which the next edit restores again.
 */
function restoreStored(snapshot: CacheFile, entries: readonly RawEntry[]): (GraphResult & Pick<Stored, 'matter'>) | null {
  const stored = snapshot.decode<Stored>(GRAPH.accept);
  if (!stored || !Array.isArray(stored.graph?.routes)) return null;
  const last = lastRestored.get(stored);
  // The same files in the same order (an edit of some): only the routes of the entries that changed are made again.
  const same = last !== undefined && last.entries.length === entries.length && entries.every((e, i) => e.file === last.entries[i]!.file);
  const restored = same ? restoreEdited(stored.graph.routes, entries, last) : restoreAll(stored.graph.routes, entries);
  if (!restored) return null;
  lastRestored.set(stored, restored);
  return { ...stored, graph: { ...stored.graph, routes: restored.routes } };
}

const restoredRoute = (route: StoredRoute, entry: RawEntry): Route => ({ ...route, markdown: withBody(route.markdown!, entry) });

function restoreAll(stored: readonly StoredRoute[], entries: readonly RawEntry[]): Restored | null {
  const at = new Map(entries.map((e, i) => [e.file, i]));
  const routesOf: number[][] = entries.map(() => []);
  const routes: Route[] = [];
  for (let i = 0; i < stored.length; i++) {
    const route = stored[i]!;
    if (!route?.markdown) {
      routes.push(route as Route);
      continue;
    }
    const index = at.get(route.markdown.file);
    if (index === undefined) return null;
    routesOf[index]!.push(i);
    routes.push(restoredRoute(route, entries[index]!));
  }
  return { routes, entries, routesOf };
}

function restoreEdited(stored: readonly StoredRoute[], entries: readonly RawEntry[], last: Restored): Restored {
  const routes = last.routes.slice();
  entries.forEach((entry, index) => {
    if (entry !== last.entries[index]) for (const i of last.routesOf[index]!) routes[i] = restoredRoute(stored[i]!, entry);
  });
  return { routes, entries, routesOf: last.routesOf };
}
