// Querying a loaded index: what the search page runs in the browser (and the tests and the
// benchmark run in Node). Isomorphic: no Node, no DOM.
//
// A query is split into words. Each word matches, in any field:
//   - itself, as a prefix (`soci` finds `société`: results while typing),
//   - itself with typos, from 5 letters on (one edit up to 7 letters, two from 8), unless
//     the index has the word as typed,
//   - every indexed word with the same stem (`sociétés` finds `société`, `companies`
//     finds `company`).
// Every word must match (AND). Title matches weigh most, then the summary, then the body.
// MiniSearch does the matching and the scoring (BM25); this file says what to ask it, and
// filters and pages its answer.
//
// The index arrives in files (an `IndexStore`, index-store.ts): `prepare` fetches the ones a
// query needs and answers it; `search` answers from what is already loaded, synchronously.
import type { Query, SearchOptions } from 'minisearch';
import { IndexPartError, type FetchPart } from './codec.js';
import type { IndexStore, StoredDocument, WordQuery } from './index-store.js';
import { ShardedIndex } from './sharded-index.js';
import { elisionOf, normalizeWord, queryWords, searchLanguage, stem, wordsIn } from './text.js';

/** Longer queries are cut here: nobody types more, and it bounds the work per keystroke. */
export const MAX_QUERY_LENGTH = 200;
/** Words beyond this many are ignored (each one is a separate lookup). */
export const MAX_QUERY_WORDS = 12;
/** Words shorter than this get no typo tolerance (too many false friends). */
export const FUZZY_MIN_LENGTH = 5;
/** From this length on, a word may have two typos; shorter ones, one. */
const TWO_TYPOS_LENGTH = 8;
/** Other forms of a word (same stem) asked for at most. */
const MAX_STEM_FORMS = 24;

/** What narrows a search: article types, a section, how many hits. */
export interface SearchFilters {
  /** Keep only these types (article types, `page`, `bio`); empty or absent: all. */
  types?: readonly string[];
  /** Keep only documents of this section (the subsite scope). */
  section?: string | null;
  /** Return at most this many hits (the best); `total` still counts them all. */
  limit?: number;
}

/** A document that matched: what the result list shows, its score, and the terms that matched. */
export interface SearchHit extends StoredDocument {
  id: number;
  score: number;
  /** Index terms that matched (for highlighting). */
  matched: string[];
}

/** A search's answer: the words searched for, how many matched, counts by type, and the best hits. */
export interface SearchOutcome {
  /** The words searched for, after normalisation (empty: nothing searchable was typed). */
  words: string[];
  /** Every match after all filters. */
  total: number;
  /** Matches in scope before the type filter, by type (for the filter's counts). */
  typeCounts: Record<string, number>;
  /** The best `limit` matches, best first. */
  hits: SearchHit[];
}

export const SEARCH_OPTIONS: SearchOptions = {
  boost: { title: 3, summary: 1.5 },
  weights: { fuzzy: 0.45, prefix: 0.6 },
  // Query terms arrive already normalised (see `queryWords`).
  tokenize: (s: string) => [s],
  processTerm: (t: string) => t,
};

/**
 * The MiniSearch query for these words: each word as a prefix (and with typos), or one of
 * its stem forms; every word must match. Typo tolerance is a number of edits (MiniSearch
 * takes a number of 1 or more as a distance), the same number `IndexStore.load` plans with.
 */
export function miniSearchQuery(words: readonly WordQuery[]): Query {
  return {
    combineWith: 'AND',
    queries: words.map((w) => ({
      combineWith: 'OR',
      queries: [
        { queries: [w.word], prefix: true, fuzzy: w.fuzzy > 0 ? w.fuzzy : false },
        ...(w.forms.length > 0 ? [{ queries: w.forms, combineWith: 'OR' as const, prefix: false, fuzzy: false }] : []),
      ],
    })),
  };
}

/** The query up to MAX_QUERY_LENGTH, without a word cut in two at the end (its start would search as a prefix). */
function capped(query: string): string {
  if (query.length <= MAX_QUERY_LENGTH) return query;
  const cut = query.slice(0, MAX_QUERY_LENGTH);
  return /[\p{L}\p{M}\p{N}]/u.test(query.charAt(MAX_QUERY_LENGTH)) ? cut.replace(/[\p{L}\p{M}\p{N}'’ʼ]+$/u, '') : cut;
}

/** A query's words, as MiniSearch is asked for them (`miniSearchQuery`) in this index. */
export function wordQueries(index: Pick<IndexStore, 'hasTerm' | 'wordsWithStem'>, query: string, language: 'en' | 'fr'): WordQuery[] {
  return queryWords(capped(query), language)
    .slice(0, MAX_QUERY_WORDS)
    .map((w) => ({
      word: w.word,
      // A word the index knows is taken as spelled: typo tolerance is for the others.
      fuzzy: w.word.length < FUZZY_MIN_LENGTH || index.hasTerm(w.word) ? 0 : w.word.length < TWO_TYPOS_LENGTH ? 1 : 2,
      forms: index.wordsWithStem(w.stem ?? w.word).filter((f) => f !== w.word).slice(0, MAX_STEM_FORMS),
    }));
}

/** How to reach the index's other files (and a fresh base, should they be gone). */
export interface IndexSource {
  /** Fetches one of the base's files by name: its text. */
  fetchPart: FetchPart;
  /**
   * Fetches the base again, bypassing caches. Called when a file the base names cannot be
   * had (a new build replaced the index while the page was open): the index reloads and the
   * query is tried once more.
   */
  reloadBase?: () => Promise<unknown>;
}

interface Match {
  words: string[];
  total: number;
  typeCounts: Record<string, number>;
  hits: { id: number; score: number; matched: string[] }[];
}

/** A language's search index in the browser: loads the base file, then the parts a query needs, and answers queries. */
export class SearchIndex {
  readonly locale: string;
  readonly language: 'en' | 'fr';
  private index: IndexStore;
  /** Whether every stored-documents file is wanted (again, after a reload). */
  private prefetching = false;

  private constructor(
    index: IndexStore,
    private readonly source: IndexSource,
  ) {
    this.locale = index.locale;
    this.language = searchLanguage(index.locale);
    this.index = index;
  }

  get documentCount(): number {
    return this.index.documentCount;
  }

  /**
   * Loads the JSON of `/search-index/<locale>.json`; throws when it is not one. Queries
   * fetch the other files they need through `source` (`prepare`).
   */
  static load(base: unknown, source: IndexSource | FetchPart): SearchIndex {
    const files = typeof source === 'function' ? { fetchPart: source } : source;
    return new SearchIndex(ShardedIndex.open(base, files.fetchPart), files);
  }

  /** An index with every file at hand (the build's output, in Node): `search` works at once. */
  static fromFiles(files: { base: unknown; files: ReadonlyMap<string, string> }): SearchIndex {
    return new SearchIndex(ShardedIndex.withFiles(files.base, files.files), { fetchPart: (file) => Promise.reject(new Error(`no file ${file}`)) });
  }

  /**
   * Starts fetching the stored fields of every document (what results show), so that a
   * query waits for its postings only. Failures surface in the `prepare` that needs them.
   */
  prefetchDocuments(): void {
    this.prefetching = true;
    this.index.loadDocuments().catch(() => undefined);
  }

  /**
   * Fetches what `search(query, filters)` needs (the postings shards of the terms it reaches,
   * the stored fields of the hits it returns) and answers it. Afterwards `search` with the
   * same arguments answers at once, the same.
   */
  async prepare(query: string, filters: SearchFilters = {}): Promise<SearchOutcome> {
    const index = this.index;
    try {
      return await this.prepareOn(index, query, filters);
    } catch (error) {
      if (!(error instanceof IndexPartError) || !this.source.reloadBase) throw error;
      // A file is gone: the index was rebuilt since the base was loaded. Once more, anew.
      if (this.index === index) {
        const fresh = ShardedIndex.open(await this.source.reloadBase(), this.source.fetchPart);
        if (fresh.build === index.build) throw error;
        if (this.index === index) {
          this.index = fresh;
          if (this.prefetching) this.prefetchDocuments();
        }
      }
      return this.prepareOn(this.index, query, filters);
    }
  }

  private async prepareOn(index: IndexStore, query: string, filters: SearchFilters): Promise<SearchOutcome> {
    const words = wordQueries(index, query, this.language);
    await index.load(words);
    const found = this.match(index, words, filters);
    await index.loadDocuments(found.hits.map((h) => h.id));
    return this.outcome(index, found);
  }

  /**
   * Answers a query from what is loaded: an index from `fromFiles`, or after
   * `prepare(query, filters)`. Throws when a file it needs has not been fetched.
   */
  search(query: string, filters: SearchFilters = {}): SearchOutcome {
    return this.outcome(this.index, this.match(this.index, wordQueries(this.index, query, this.language), filters));
  }

  private match(index: IndexStore, words: WordQuery[], filters: SearchFilters): Match {
    if (words.length === 0) return { words: [], total: 0, typeCounts: {}, hits: [] };
    const section = filters.section ?? null;
    const types = filters.types && filters.types.length > 0 ? new Set(filters.types) : null;
    const limit = filters.limit ?? Infinity;
    const results = index.miniSearch(words).search(miniSearchQuery(words), SEARCH_OPTIONS);
    const typeCounts: Record<string, number> = {};
    const hits: Match['hits'] = [];
    let total = 0;
    for (const r of results) {
      const id = r.id as number;
      if (section !== null && !index.inSection(id, section)) continue;
      const type = index.typeOf(id);
      typeCounts[type] = (typeCounts[type] ?? 0) + 1;
      if (types && !types.has(type)) continue;
      total++;
      if (hits.length < limit) hits.push({ id, score: r.score, matched: r.terms });
    }
    return { words: words.map((w) => w.word), total, typeCounts, hits };
  }

  private outcome(index: IndexStore, found: Match): SearchOutcome {
    return { ...found, hits: found.hits.map((h) => ({ ...index.document(h.id), id: h.id, score: h.score, matched: h.matched })) };
  }
}

/** A run of text, marked when it is a word that matched (`highlight`). */
export interface TextPart {
  text: string;
  mark: boolean;
}

/**
 * `text` cut into parts, the words that matched marked: a word is marked when its
 * normalised form, or its stem, is one of the matched index terms.
 */
export function highlight(text: string, matched: readonly string[], language: 'en' | 'fr'): TextPart[] {
  if (matched.length === 0 || text === '') return [{ text, mark: false }];
  const terms = new Set(matched);
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of wordsIn(text)) {
    const word = normalizeWord(m[0], language);
    if (word === null || !(terms.has(word) || terms.has(stem(word, language)))) continue;
    // Keep an elided article outside the mark: `l'<mark>entreprise</mark>`.
    const start = m.index + (elisionOf(m[0])?.length ?? 0);
    if (start > last) parts.push({ text: text.slice(last, start), mark: false });
    parts.push({ text: text.slice(start, m.index + m[0].length), mark: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), mark: false });
  return parts;
}

