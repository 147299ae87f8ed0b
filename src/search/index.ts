// Build side of site search: one index per language, written as static JSON at
// `/search-index/<locale>.json` and fetched by the search page only (see docs/search.md).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import type { OutputSink } from '../emit/sink.js';
import type { SiteGraph } from '../graph/model.js';
import { toCompact, type CompactIndex, type PackedDocument } from './codec.js';
import { searchDocuments, type SearchDocument } from './documents.js';
import { searchIndexPath } from './paths.js';
import { indexTermProcessor, searchLanguage, stem, tokenize } from './text.js';

export { searchIndexPath };

/** Indexed fields, in the order the compact form lists them. */
export const SEARCH_FIELDS = ['title', 'summary', 'body'] as const;

/** Summaries longer than this are cut in the index: the result list shows no more. */
const SUMMARY_MAX = 240;

function minisearchVersion(): string {
  try {
    const pkg = fileURLToPath(new URL('../../package.json', import.meta.resolve('minisearch')));
    return `minisearch@${(JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version}`;
  } catch {
    return 'minisearch';
  }
}

const ENGINE = minisearchVersion();

export function buildSearchIndex(locale: string, documents: readonly SearchDocument[]): CompactIndex {
  const language = searchLanguage(locale);
  const index = new MiniSearch<{ id: number; title: string; summary: string; body: string }>({
    fields: [...SEARCH_FIELDS],
    storeFields: [],
    tokenize,
    processTerm: indexTermProcessor(language),
  });
  index.addAll(documents.map((d, id) => ({ id, title: d.title, summary: d.summary, body: d.body })));
  const docs: PackedDocument[] = documents.map((d) => [
    d.title,
    d.path,
    d.type,
    d.sections.join(' '),
    d.date,
    d.summary.length > SUMMARY_MAX ? `${d.summary.slice(0, SUMMARY_MAX - 1).replace(/\s+\S*$/, '')}…` : d.summary,
  ]);
  return toCompact(index, { locale, engine: ENGINE, fields: [...SEARCH_FIELDS], docs, stem: (term) => stem(term, language) });
}

export interface SearchIndexStats {
  locale: string;
  path: string;
  documents: number;
  terms: number;
  bytes: number;
}

/** Builds and writes every locale's index. Locales with no searchable page get an empty one. */
export async function writeSearchIndexes(sink: OutputSink, graph: SiteGraph, locales: readonly string[]): Promise<SearchIndexStats[]> {
  const byLocale = searchDocuments(graph.routes);
  const stats: SearchIndexStats[] = [];
  for (const locale of locales) {
    const index = buildSearchIndex(locale, byLocale.get(locale) ?? []);
    const json = JSON.stringify(index);
    const file = searchIndexPath(locale);
    await sink.write(file.slice(1), json);
    stats.push({ locale, path: file, documents: index.documentCount, terms: index.terms.length, bytes: Buffer.byteLength(json) });
  }
  return stats;
}
