// Build side of site search: one index per language, written as static JSON files, the base
// at `/search-index/<locale>.json` and the rest under `/search-index/<locale>/`, fetched by
// the search page only (see docs/search.md).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OutputSink } from '../../build/emit/sink.js';
import type { Route, SiteGraph } from '../../build/graph/model.js';
import type { MarkdownTree } from '../../shared/types.js';
import { toCompact, type IndexFiles, type PackedDocument } from './codec.js';
import { searchDocument, type SearchDocument } from './documents.js';
import { analyse, invertedIndex, type DocumentTerms } from './inverted-index.js';
import { searchIndexPartPath, searchIndexPath } from './paths.js';
import { indexTermProcessor, searchLanguage, stem, tokenize } from './text.js';

export { searchIndexPartPath, searchIndexPath };

/** Indexed fields, in the order the compact form lists them. */
export const SEARCH_FIELDS = ['title', 'summary', 'body'] as const;

/** Summaries longer than this are cut in the index, at an ordinary space (never between `5,3` and its no-break `%`): the result list shows no more. */
const SUMMARY_MAX = 240;

function minisearchVersion(): string {
  try {
    const pkg = fileURLToPath(new URL('../../../package.json', import.meta.resolve('minisearch')));
    return `minisearch@${(JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version}`;
  } catch {
    return 'minisearch';
  }
}

const ENGINE = minisearchVersion();

/** A file name's content hash: 10 hex digits of its SHA-256. */
const contentHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 10);

/**
 * A searchable document ready to index: what the result list shows, and its terms. The build
 * cache keeps these by route (incremental/search-cache.ts), so only the pages that changed are analysed again.
 */
export interface IndexedDocument {
  stored: Omit<SearchDocument, 'body'>;
  terms: DocumentTerms;
}

/** Analyses a document in its language's rules. */
export function indexDocument({ body, ...stored }: SearchDocument): IndexedDocument {
  const options = { tokenize, processTerm: termProcessor(searchLanguage(stored.locale)) };
  return { stored, terms: analyse([stored.title, stored.summary, body], options) };
}

/** A route's search document, analysed; null for a page that is not searchable. `tree`: its rendered body. */
export function indexedDocumentOf(route: Route, tree: MarkdownTree | null | undefined): IndexedDocument | null {
  const document = searchDocument(route, tree);
  return document && indexDocument(document);
}

/** One memoized term processor per language, for the life of the process (see indexTermProcessor). */
const termProcessors = new Map<'en' | 'fr', ReturnType<typeof indexTermProcessor>>();
function termProcessor(language: 'en' | 'fr') {
  let processor = termProcessors.get(language);
  if (!processor) termProcessors.set(language, (processor = indexTermProcessor(language)));
  return processor;
}

/** One locale's index: its base and its other files (name -> JSON). */
export function buildSearchIndex(locale: string, documents: readonly (SearchDocument | IndexedDocument)[]): IndexFiles {
  const language = searchLanguage(locale);
  const indexed = documents.map((d) => ('terms' in d ? d : indexDocument(d)));
  const index = invertedIndex(
    indexed.map((d) => d.terms),
    SEARCH_FIELDS.length,
  );
  const docs: PackedDocument[] = indexed.map(({ stored: d }) => [
    d.title,
    d.path,
    d.type,
    d.sections.join(' '),
    d.date,
    d.summary.length > SUMMARY_MAX ? `${d.summary.slice(0, SUMMARY_MAX - 1).replace(/[ \t\n]+[^ \t\n]*$/, '')}…` : d.summary,
  ]);
  return toCompact(index, { locale, engine: ENGINE, fields: [...SEARCH_FIELDS], docs, stem: (term) => stem(term, language), hash: contentHash });
}

/** Builds and writes the index of each of `locales`. Locales with no searchable page get an empty one. */
export async function writeSearchIndexes(
  sink: OutputSink,
  graph: SiteGraph,
  locales: readonly string[],
  documentOf: (route: Route) => SearchDocument | IndexedDocument | null,
): Promise<void> {
  const byLocale = new Map<string, (SearchDocument | IndexedDocument)[]>();
  for (const route of graph.routes) {
    const doc = documentOf(route);
    if (!doc) continue;
    const locale = 'terms' in doc ? doc.stored.locale : doc.locale;
    const list = byLocale.get(locale);
    if (list) list.push(doc);
    else byLocale.set(locale, [doc]);
  }
  for (const locale of locales) {
    const { base, files } = buildSearchIndex(locale, byLocale.get(locale) ?? []);
    const writes = [sink.write(searchIndexPath(locale).slice(1), JSON.stringify(base))];
    for (const [name, text] of files) writes.push(sink.write(searchIndexPartPath(locale, name).slice(1), text));
    await Promise.all(writes);
  }
}
