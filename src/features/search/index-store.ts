// The seam between the engine (engine.ts: words, filters, results) and how an index is
// stored and fetched (sharded-index.ts: a base file, postings shards and stored-documents
// files). The engine asks a store for a MiniSearch that answers a query's words; how the
// store makes one (here: MiniSearch.loadJS of the postings the words can reach) is its own
// business, so the files could change, or become MiniSearch's own JSON, without the engine
// noticing. Isomorphic: no Node, no DOM.
import type MiniSearch from 'minisearch';

/** One word of a query, as MiniSearch is asked for it (engine.ts `miniSearchQuery`). */
export interface WordQuery {
  /** The word as typed, normalised: matched as itself and as a prefix. */
  word: string;
  /** Typo tolerance: the most edits (Levenshtein) a matching term may be from `word`; 0 for none. */
  fuzzy: number;
  /** Other indexed words with the same stem, matched as they are. */
  forms: string[];
}

/** What results show of a document. */
export interface StoredDocument {
  title: string;
  path: string;
  /** An article type (`commentary`...), `page` or `bio`. */
  type: string;
  /** Section keys the document belongs to (subsite scope). */
  sections: string[];
  /** `YYYY-MM-DD`, or '' when the document has no date. */
  date: string;
  summary: string;
}

export interface IndexStore {
  /** The locale whose pages it holds (its language's rules apply to queries). */
  readonly locale: string;
  readonly documentCount: number;
  /** Identifies the files this index reads: a store loaded from another build has another. */
  readonly build: string;
  /** Whether `term` is an indexed word (typo tolerance is only for the words that are not). */
  hasTerm(term: string): boolean;
  /** The indexed words whose stem is `stem`, when more than one word has it; else []. */
  wordsWithStem(stem: string): string[];
  /** Fetches what `miniSearch(words)` needs. */
  load(words: readonly WordQuery[]): Promise<void>;
  /**
   * A MiniSearch (no stored fields; document ids 0..n-1) that answers a search for these
   * words exactly as one holding the whole index would. Throws when `load` has not fetched it.
   */
  miniSearch(words: readonly WordQuery[]): MiniSearch;
  /** Every match is filtered by type and section, so these answer without fetching. */
  typeOf(id: number): string;
  inSection(id: number, section: string): boolean;
  /** Fetches the stored fields of these documents (of every document when `ids` is omitted). */
  loadDocuments(ids?: Iterable<number>): Promise<void>;
  /** The stored fields of a document `loadDocuments` fetched; throws when it has not. */
  document(id: number): StoredDocument;
}
