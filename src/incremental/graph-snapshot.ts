// The validate and graph stages' result, kept for the next build with the same graph key
// (keys.ts, graphKey: everything those stages read but the bodies' text). Validating 8000 entries
// and building every route, listing, alternate and redirect took ~0.25 s of every build at 4000
// articles per language, for a result that changes only when front matter, images, site files
// or the configuration do; reading it back takes ~0.06 s.
//
// Stored with v8.serialize (the structured clone: objects shared between routes stay shared)
// in a cache file (cache-file.ts) whose header holds the graph key, so a build whose key
// differs never deserializes it. The bodies' text is left out: each route's markdown reads through to its
// entry, as the graph stage makes it (build/graph/routes.ts `markdownOf`), so a body changed since
// is what the page shows, and an unchanged body is still read only if the page is rendered.
import path from 'node:path';
import type { RawEntry } from '../build/content/raw.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import type { Route, SiteGraph } from '../build/graph/model.js';
import { markdownPlace, withBody } from '../build/graph/markdown-source.js';
import { encodeCacheFile, hasFields, openCacheFile, writeCacheFile, type CacheFile } from '../files/cache-file.js';

const KIND = 'graph';

/** What a build takes from the snapshot instead of running validate and graph. */
export interface GraphResult {
  graph: SiteGraph;
  /** The validate stage's findings (warnings: a build with errors keeps no snapshot). */
  validation: Diagnostic[];
}

export const graphSnapshotFile = (cacheDir: string) => path.join(cacheDir, 'build', 'graph.bin');

/** The snapshot file's bytes (encoded at once, synchronously), the result without the bodies' text. */
export function serializeGraph(fingerprint: string, key: string, result: GraphResult): Buffer[] {
  const routes = result.graph.routes.map((route) => (route.markdown ? { ...route, markdown: markdownPlace(route.markdown) } : route));
  return encodeCacheFile(KIND, fingerprint, { graph: { ...result.graph, routes }, validation: result.validation }, { key, codec: 'v8' });
}

/** Serializes the result at once (synchronously), and writes it. */
export function writeGraphSnapshot(cacheDir: string, fingerprint: string, key: string, result: GraphResult): Promise<void> {
  return writeCacheFile(graphSnapshotFile(cacheDir), serializeGraph(fingerprint, key, result));
}

/** The snapshot made by this ir-site, undamaged, not yet decoded (its `key` says whether it is wanted); or null. */
export const readGraphSnapshot = (cacheDir: string, fingerprint: string): Promise<CacheFile | null> => openCacheFile(graphSnapshotFile(cacheDir), KIND, fingerprint);

/**
 * The stored result with each route's text and digest from `entries` (the entries of this
 * build, whose key was the snapshot's), or null when an entry a route needs is missing.
 */
export function restoreGraph(snapshot: CacheFile, entries: readonly RawEntry[]): GraphResult | null {
  const stored = snapshot.decode<GraphResult>(hasFields('graph', 'validation'));
  if (!stored || !Array.isArray(stored.graph?.routes)) return null;
  const byFile = new Map(entries.map((e) => [e.file, e]));
  for (const route of stored.graph.routes as Route[]) {
    if (!route?.markdown) continue;
    const entry = byFile.get(route.markdown.file);
    if (!entry) return null;
    route.markdown = withBody(route.markdown, entry);
  }
  return stored;
}
