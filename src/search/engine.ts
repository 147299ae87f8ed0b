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
import { CompactMiniSearch, isCompactIndex, type CompactIndex, type StoredDocument } from './codec.js';
import { elisionOf, normalizeWord, queryWords, searchLanguage, stem } from './text.js';

/** Longer queries are cut here: nobody types more, and it bounds the work per keystroke. */
export const MAX_QUERY_LENGTH = 200;
/** Words beyond this many are ignored (each one is a separate lookup). */
export const MAX_QUERY_WORDS = 12;
/** Words shorter than this get no typo tolerance (too many false friends). */
export const FUZZY_MIN_LENGTH = 5;
/** Other forms of a word (same stem) asked for at most. */
const MAX_STEM_FORMS = 24;

export interface SearchFilters {
  /** Keep only these types (article types, `page`, `bio`); empty or absent: all. */
  types?: readonly string[];
  /** Keep only documents of this section (the subsite scope). */
  section?: string | null;
  /** Return at most this many hits (the best); `total` still counts them all. */
  limit?: number;
}

export interface SearchHit extends StoredDocument {
  id: number;
  score: number;
  /** Index terms that matched (for highlighting). */
  matched: string[];
}

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

const SEARCH_OPTIONS = {
  boost: { title: 3, summary: 1.5 },
  maxFuzzy: 2,
  weights: { fuzzy: 0.45, prefix: 0.6 },
  // Query terms arrive already normalised (see `queryWords`).
  tokenize: (s: string) => [s],
  processTerm: (t: string) => t,
};

export class SearchIndex {
  readonly locale: string;
  readonly language: 'en' | 'fr';
  readonly documentCount: number;
  private readonly index: CompactMiniSearch;

  private constructor(data: CompactIndex) {
    this.locale = data.locale;
    this.language = searchLanguage(data.locale);
    this.documentCount = data.documentCount;
    this.index = CompactMiniSearch.fromCompact(data, {});
  }

  /** Loads the JSON of `/search-index/<locale>.json`; throws when it is not one. */
  static load(data: unknown): SearchIndex {
    if (!isCompactIndex(data)) throw new Error('not an ir-site search index (or one of another format version)');
    return new SearchIndex(data);
  }

  search(query: string, filters: SearchFilters = {}): SearchOutcome {
    const words = queryWords(query.slice(0, MAX_QUERY_LENGTH), this.language).slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return { words: [], total: 0, typeCounts: {}, hits: [] };
    const section = filters.section ?? null;
    const types = filters.types && filters.types.length > 0 ? new Set(filters.types) : null;
    const limit = filters.limit ?? Infinity;
    const queries = words.map((w) => {
      const forms = this.index.wordsWithStem(w.stem ?? w.word).filter((f) => f !== w.word).slice(0, MAX_STEM_FORMS);
      return {
        combineWith: 'OR' as const,
        queries: [
          // A word the index knows is taken as spelled: typo tolerance is for the others.
          { queries: [w.word], prefix: true, fuzzy: w.word.length >= FUZZY_MIN_LENGTH && !this.index.hasTerm(w.word) ? 0.2 : false },
          ...(forms.length > 0 ? [{ queries: forms, combineWith: 'OR' as const, prefix: false, fuzzy: false }] : []),
        ],
      };
    });
    const results = this.index.search({ combineWith: 'AND', queries }, SEARCH_OPTIONS);
    const typeCounts: Record<string, number> = {};
    const hits: SearchHit[] = [];
    let total = 0;
    for (const r of results) {
      const id = r.id as number;
      if (section !== null && !this.index.inSection(id, section)) continue;
      const type = this.index.typeOf(id);
      typeCounts[type] = (typeCounts[type] ?? 0) + 1;
      if (types && !types.has(type)) continue;
      total++;
      if (hits.length < limit) hits.push({ ...this.index.document(id)!, id, score: r.score, matched: r.terms });
    }
    return { words: words.map((w) => w.word), total, typeCounts, hits };
  }
}

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
  const re = /[\p{L}\p{N}]+(?:['’ʼ][\p{L}\p{N}]+)*/gu;
  for (const m of text.matchAll(re)) {
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

