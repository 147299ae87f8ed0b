// Everything a build writes that is not a page: static queries, published files, app data,
// redirects, sitemap, offline page list, and each language's search index.
import { writePublishedFiles, writeSiteFiles, writeStaticQueries, type SiteFilesInput } from './emit/index.js';
import type { BuildSink, OutputSink } from './emit/sink.js';
import type { Route } from './graph/model.js';
import type { SearchCacheInput } from '../incremental/search-cache.js';
import type { IndexedDocument } from '../features/search/index.js';
import type { SearchDocument } from '../features/search/documents.js';
import type { Compiled } from './compile.js';
import type { RenderSetup } from './render-setup.js';

/** What the build cache offers the shared files: the search indexes by route, derived files by their inputs. */
export interface SharedCaches {
  search?: SearchCacheInput;
  derived?: SiteFilesInput['derived'];
  /** Without `search`: each route's search document, from a cache of the caller's (dev keeps one in memory). */
  documentOf?: (route: Route) => SearchDocument | IndexedDocument | null;
}

/** Everything that is not a page: static queries, published files, app data, redirects, sitemap, search indexes. */
export async function writeShared(sink: BuildSink, compiled: Compiled, setup: RenderSetup, caches: SharedCaches = {}): Promise<void> {
  await Promise.all([writeSiteShared(sink, compiled, setup, caches.derived), writeSearch(sink, compiled, setup, caches)]);
}

/** The shared files that depend on no rendered page: a build writes them while the workers render. */
export async function writeSiteShared(sink: BuildSink, compiled: Compiled, setup: RenderSetup, derived?: SiteFilesInput['derived']): Promise<void> {
  const { graph } = compiled;
  await Promise.all([
    ...[...compiled.imageFiles].map(([sitePath, file]) => sink.copy(file, sitePath.slice(1))),
    ...[...setup.client.files].map(([file, contents]) => sink.write(file.slice(1), contents)),
    writeStaticQueries(sink, graph),
    writePublishedFiles(sink, graph.files, derived?.(sink)),
    writeSiteFiles(sink, {
      legacyPrefixes: setup.legacyPrefixes,
      graph,
      site: setup.ctx.site,
      buildHash: setup.buildHash,
      stylesheet: setup.stylesheet,
      faviconSvg: setup.faviconSvg,
      derived,
      graphKey: compiled.graphKey,
    }),
  ]);
}

/** Every route's document, resolved first: the index is built from a plain lookup. */
export async function documentsOf(routes: readonly Route[], analyse: (route: Route) => IndexedDocument | null | Promise<IndexedDocument | null>) {
  const documents = new Map(await Promise.all(routes.map(async (route) => [route.path, await analyse(route)] as const)));
  return (route: Route) => documents.get(route.path) ?? null;
}

/** Each language's search index, from the documents the render workers analysed or the cache. */
export async function writeSearch(sink: OutputSink, compiled: Compiled, setup: RenderSetup, caches: SharedCaches): Promise<void> {
  const locales = setup.ctx.site.locales.map((l) => l.code);
  const { graph } = compiled;
  // The search modules (stemmers, index format) load when an index is written: a build that writes nothing needs none.
  if (caches.search) await (await import('../incremental/search-cache.js')).writeSearchIndexesCached(sink, graph, locales, caches.search);
  else if (caches.documentOf) await (await import('../features/search/index.js')).writeSearchIndexes(sink, graph, locales, caches.documentOf);
  else throw new Error('writeShared needs the pages\' search documents: `search` (the build cache) or `documentOf`');
}
