// The validate and graph stages' result, kept for the next build with the same graph key
// (graph-key.ts: everything those stages read but the bodies' text). Validating 8000 entries
// and building every route, listing, alternate and redirect took ~0.25 s of every build at 4000
// articles per language, for a result that changes only when front matter, images, site files
// or the configuration do; reading it back takes ~0.06 s.
//
// Stored with v8.serialize (the structured clone: objects shared between routes stay shared)
// after a line of JSON that says what it is for, so a build whose key differs never
// deserializes it. The bodies' text is left out: each route's markdown reads through to its
// entry, as the graph stage makes it (build/graph/routes.ts `markdownOf`), so a body changed since
// is what the page shows, and an unchanged body is still read only if the page is rendered.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import type { RawEntry } from '../build/content/raw.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import type { MarkdownSource, Route, SiteGraph } from '../build/graph/model.js';
import { writeAtomically } from './atomic-write.js';

const FORMAT = 1;

interface Header {
  format: number;
  fingerprint: string;
  key: string;
}

/** What a build takes from the snapshot instead of running validate and graph. */
export interface GraphResult {
  graph: SiteGraph;
  /** The validate stage's findings (warnings: a build with errors keeps no snapshot). */
  validation: Diagnostic[];
}

export const graphSnapshotFile = (cacheDir: string) => path.join(cacheDir, 'build', 'graph.bin');

/** A route's markdown without what this build's entries say of the body (text, digest, offset). */
function withoutText(markdown: MarkdownSource): Omit<MarkdownSource, 'text' | 'digest' | 'offset'> {
  const kept: Record<string, unknown> = {};
  for (const field of Object.keys(markdown) as (keyof MarkdownSource)[]) if (field !== 'text' && field !== 'digest' && field !== 'offset') kept[field] = markdown[field];
  return kept as Omit<MarkdownSource, 'text' | 'digest' | 'offset'>;
}

/** The snapshot's bytes, in two parts: the header line, then the result without the bodies' text. */
export function serializeGraph(fingerprint: string, key: string, result: GraphResult): [header: Buffer, payload: Buffer] {
  const routes = result.graph.routes.map((route) => (route.markdown ? { ...route, markdown: withoutText(route.markdown) } : route));
  const header = Buffer.from(`${JSON.stringify({ format: FORMAT, fingerprint, key } satisfies Header)}\n`);
  return [header, v8.serialize({ graph: { ...result.graph, routes }, validation: result.validation })];
}

/** Serializes the result at once (synchronously), and writes it. */
export function writeGraphSnapshot(cacheDir: string, fingerprint: string, key: string, result: GraphResult): Promise<void> {
  return writeAtomically(graphSnapshotFile(cacheDir), serializeGraph(fingerprint, key, result));
}

/** The stored key, without deserializing: null when there is no snapshot of this ir-site. */
export function snapshotKey(bytes: Buffer | null, fingerprint: string): string | null {
  if (!bytes) return null;
  const end = bytes.indexOf(0x0a);
  if (end < 0) return null;
  try {
    const header = JSON.parse(bytes.subarray(0, end).toString('utf8')) as Header;
    return header.format === FORMAT && header.fingerprint === fingerprint ? header.key : null;
  } catch {
    return null;
  }
}

/**
 * The stored result with each route's text and digest from `entries` (the entries of this
 * build, whose key was the snapshot's), or null when an entry a route needs is missing.
 */
export function restoreGraph(bytes: Buffer, entries: readonly RawEntry[]): GraphResult | null {
  const stored = v8.deserialize(bytes.subarray(bytes.indexOf(0x0a) + 1)) as GraphResult;
  const byFile = new Map(entries.map((e) => [e.file, e]));
  for (const route of stored.graph.routes as Route[]) {
    if (!route.markdown) continue;
    const entry = byFile.get(route.markdown.file);
    if (!entry) return null;
    // The same shape markdownOf gives it: `text` first, then `digest` and `offset` when the cache knows them.
    route.markdown = { text: entry.body, ...withoutText(route.markdown), ...(entry.bodyDigest ? { digest: entry.bodyDigest } : {}), ...(entry.body === null ? { offset: entry.bodyOffset } : {}) };
  }
  return stored;
}

/** The snapshot file's bytes, or null (none yet, unreadable). */
export const readGraphSnapshot = (cacheDir: string): Promise<Buffer | null> => readFile(graphSnapshotFile(cacheDir)).catch(() => null);
