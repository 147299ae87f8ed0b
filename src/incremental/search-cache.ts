// The search index files of a language, by the routes they were built from. Building an
// index (extracting the words of every page, analysing them into terms, merging, encoding)
// takes about half a second per language at 4000 articles; when none of a language's pages
// changed, its files are the same bytes, so a warm build writes them from here. A language
// whose pages changed is indexed again whole (an index patched in place would not match a
// cold build byte for byte), but the terms of its unchanged pages come from
// `<locale>.documents.json`: only the pages that changed are read and analysed again.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { OutputSink } from '../build/emit/sink.js';
import type { Route, SiteGraph } from '../build/graph/model.js';
import { indexedDocumentOf, writeSearchIndexes, type IndexedDocument } from '../features/search/index.js';
import { writeAtomically } from './atomic-write.js';
import { keyOf, routeKeyOf } from './digest.js';
import { worthRewriting } from './rewrite-policy.js';

/** `<locale>.documents.json`: 3 holds analysed terms as parallel lists (2 as pairs, 1 held the words). */
const DOCUMENTS_FORMAT = 3;

/** Passes writes through and notes them, so they can be stored. */
class RecordingSink implements OutputSink {
  readonly written: [rel: string, text: string][] = [];
  constructor(private readonly inner: OutputSink) {}
  async write(rel: string, data: string | Uint8Array, digest?: string): Promise<void> {
    this.written.push([rel, typeof data === 'string' ? data : Buffer.from(data).toString('utf8')]);
    await this.inner.write(rel, data, digest);
  }
  async copy(fromAbs: string, rel: string): Promise<void> {
    throw new Error(`the search index copies no files (${fromAbs} -> ${rel})`);
  }
}

export interface SearchCacheInput {
  cacheDir: string;
  fingerprint: string;
  /** Route key per page path (build/render-pages.ts); routes missing from it are keyed here. */
  routeKeys: ReadonlyMap<string, string>;
  /** A page's analysed search document, for the pages the cache does not know (the build's: the render workers analysed most). */
  analyse: (route: Route) => IndexedDocument | null;
}

export async function writeSearchIndexesCached(sink: OutputSink, graph: SiteGraph, locales: readonly string[], cache: SearchCacheInput): Promise<void> {
  const dir = path.join(cache.cacheDir, 'build', 'search');
  await mkdir(dir, { recursive: true });
  const present = await readdir(dir);
  for (const locale of locales) {
    const routes = graph.routes.filter((r) => r.locale === locale);
    const key = keyOf(cache.fingerprint, locale, routes.map((r) => cache.routeKeys.get(r.path) ?? routeKeyOf(r)));
    const name = `${locale}.${key}.json`;
    const stored = present.includes(name) ? await readFile(path.join(dir, name), 'utf8').catch(() => null) : null;
    if (stored !== null) {
      const files = JSON.parse(stored) as [string, string][];
      await Promise.all(files.map(([rel, text]) => sink.write(rel, text)));
      continue;
    }
    // The analysed terms of each page, by route key: only the pages that changed are analysed again.
    const docsFile = path.join(dir, `${locale}.documents.json`);
    const known = await readDocuments(docsFile, cache.fingerprint);
    const documents: Record<string, IndexedDocument | null> = {};
    let analysed = 0;
    const documentOf = (route: Route) => {
      const routeKey = cache.routeKeys.get(route.path) ?? routeKeyOf(route);
      if (routeKey in known) return (documents[routeKey] = known[routeKey]!);
      analysed++;
      return (documents[routeKey] = cache.analyse(route));
    };
    const recorder = new RecordingSink(sink);
    await writeSearchIndexes(recorder, { ...graph, routes }, [locale], documentOf);
    // A few documents analysed anew (an edit or two) are analysed again by the next build that
    // needs them, rather than rewriting the whole file each time (rewrite-policy.ts).
    const storedCount = Object.keys(known).length;
    const unused = storedCount - (Object.keys(documents).length - analysed);
    if (worthRewriting({ stored: storedCount, fresh: analysed, unused })) {
      await writeAtomically(docsFile, JSON.stringify({ format: DOCUMENTS_FORMAT, fingerprint: cache.fingerprint, documents }));
    }
    await writeAtomically(path.join(dir, name), JSON.stringify(recorder.written));
    const stale = present.filter((f) => f.startsWith(`${locale}.`) && f !== name && f !== `${locale}.documents.json`);
    await Promise.all(stale.map((f) => rm(path.join(dir, f), { force: true })));
  }
}

/** The documents a previous build extracted, when made by this ir-site; empty otherwise. */
async function readDocuments(file: string, fingerprint: string): Promise<Record<string, IndexedDocument | null>> {
  try {
    const stored = JSON.parse(await readFile(file, 'utf8')) as { format: number; fingerprint: string; documents: Record<string, IndexedDocument | null> };
    return stored.format === DOCUMENTS_FORMAT && stored.fingerprint === fingerprint ? stored.documents : {};
  } catch {
    return {};
  }
}
