// The search index files of a language, by the routes they were built from. Building an
// index (extracting the words of every page, analysing them into terms, merging, encoding)
// takes about half a second per language at 4000 articles; when none of a language's pages
// changed, its files are the same bytes, so a warm build writes them from here. A language
// whose pages changed is indexed again whole (an index patched in place would not match a
// cold build byte for byte), but the terms of its unchanged pages come from
// `<locale>.documents.bin`: only the pages that changed are read and analysed again.
import type { OutputSink } from '../build/emit/sink.js';
import type { Route, SiteGraph } from '../build/graph/model.js';
import { writeSearchIndexes, type IndexedDocument } from '../features/search/index.js';
import type { DocumentTerms } from '../features/search/inverted-index.js';
import { routeKeyOf, searchIndexKey } from './keys.js';
import { isNumberArray, isPlainObject, isString, isStringArray, recordOf, type AllFields, type Unchecked } from '../files/payload-shape.js';
import { memoKind, Records, type Memo } from './memo.js';

// A document per page (null: not searchable), each field of which goes into the index files:
// typeof tests (payload-shape.ts), written out for their cost, as in front-matter-cache.ts.
function isDocument(value: unknown): value is IndexedDocument | null {
  if (value === null) return true;
  if (!isPlainObject(value)) return false;
  const { stored, terms } = value as Unchecked<IndexedDocument>;
  if (!isPlainObject(stored) || !isPlainObject(terms)) return false;
  const { locale, title, summary, path: sitePath, type, sections, date } = stored as Unchecked<IndexedDocument['stored']>;
  const { lengths, terms: joined, counts } = terms as Unchecked<DocumentTerms>;
  return (
    isString(locale) &&
    isString(title) &&
    isString(summary) &&
    isString(sitePath) &&
    isString(type) &&
    isStringArray(sections) &&
    isString(date) &&
    isNumberArray(lengths) &&
    isStringArray(joined) &&
    Array.isArray(counts) &&
    counts.every(isNumberArray)
  );
}
true satisfies AllFields<IndexedDocument, 'stored' | 'terms'>;
true satisfies AllFields<IndexedDocument['stored'], 'locale' | 'title' | 'summary' | 'path' | 'type' | 'sections' | 'date'>;
true satisfies AllFields<DocumentTerms, 'lengths' | 'terms' | 'counts'>;
const isFileList = (value: unknown): value is [rel: string, text: string][] =>
  Array.isArray(value) && value.every((f) => Array.isArray(f) && typeof f[0] === 'string' && typeof f[1] === 'string');

/** A language's index files, as written; and each page's analysed document, by route key. */
const searchIndex = (locale: string) => memoKind('search-index', isFileList, { file: `search/${locale}.index.bin` });
const searchDocuments = (locale: string) => memoKind('search-documents', recordOf(isDocument), { file: `search/${locale}.documents.bin` });

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
  memo: Memo;
  /** Route key per page path (build/render-pages.ts); routes missing from it are keyed here. */
  routeKeys: ReadonlyMap<string, string>;
  /** configKey(config): the markdown plugins and typography make a page's words as much as its route does. */
  configKey: string;
  /** A page's analysed search document, for the pages the cache does not know (the build's: the render workers analysed most). */
  analyse: (route: Route) => IndexedDocument | null | Promise<IndexedDocument | null>;
}

export async function writeSearchIndexesCached(sink: OutputSink, graph: SiteGraph, locales: readonly string[], cache: SearchCacheInput): Promise<void> {
  const { memo } = cache;
  const keyOfRoute = (route: Route) => cache.routeKeys.get(route.path) ?? routeKeyOf(route);
  for (const locale of locales) {
    const routes = graph.routes.filter((r) => r.locale === locale);
    const key = searchIndexKey(memo.fingerprint, cache.configKey, locale, routes.map(keyOfRoute));
    const stored = await memo.read(searchIndex(locale), key);
    if (stored !== null) {
      await Promise.all(stored.map(([rel, text]) => sink.write(rel, text)));
      continue;
    }
    // The analysed terms of each page, by route key: only the pages that changed are analysed again.
    const documents = await Records.open(memo, searchDocuments(locale), cache.configKey);
    const fresh = routes.filter((route) => documents.peek(keyOfRoute(route)) === undefined);
    const analysed = new Map(await Promise.all(fresh.map(async (route) => [route.path, await cache.analyse(route)] as const)));
    const documentOf = (route: Route) => {
      const routeKey = keyOfRoute(route);
      if (analysed.has(route.path)) documents.set(routeKey, analysed.get(route.path)!);
      return documents.recall(routeKey)!;
    };
    const recorder = new RecordingSink(sink);
    await writeSearchIndexes(recorder, { ...graph, routes }, [locale], documentOf);
    // A few documents analysed anew (an edit or two) are analysed again by the next build that
    // needs them, rather than rewriting the whole file each time (rewrite-policy.ts).
    await documents.save('when-worth-it');
    await memo.write(searchIndex(locale), recorder.written, key);
  }
  // Files of an older layout, or of a language the site no longer has.
  await memo.prune('search', new Set(locales.flatMap((l) => [`${l}.index.bin`, `${l}.documents.bin`])));
}
