// How text becomes search terms, the same at build time and in the browser: lower case,
// accents folded (société -> societe), French elisions dropped (l'entreprise -> entreprise),
// stop words dropped; words are indexed as written (prefixes while typing, typos) and
// grouped by Snowball stem (plurals and other forms). Isomorphic: no Node, no DOM.
import { stemmer as englishStemmer } from '@orama/stemmers/english';
import { stemmer as frenchStemmer } from '@orama/stemmers/french';
import { languageOf } from '../../shared/language.js';

/** Lower case, ligatures spelled out, diacritics removed: `Société Œuvre` -> `societe oeuvre`. */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
}

/**
 * Words: runs of letters and digits, apostrophes kept inside a word (`l'entreprise`, `company's`),
 * with the combining marks of text in decomposed form (`e` + U+0301, as some PDFs and macOS paste
 * `é`), which fold() then drops: without them a word would break at each accent.
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’ʼ][\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*/gu;

/** Each word of `text` with where it starts (highlighting marks it in place). */
export const wordsIn = (text: string) => text.matchAll(WORD);

export function tokenize(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** French elided articles and pronouns in front of an apostrophe: l', d', qu', jusqu'... */
const ELISION = /^(?:qu|jusqu|lorsqu|puisqu|quoiqu|presqu|[cdjlmnst])'/;

/** The elided part of a word as written (`L’` of `L’entreprise`), or null. */
export function elisionOf(word: string): string | null {
  return /^(?:qu|jusqu|lorsqu|puisqu|quoiqu|presqu|[cdjlmnst])['’ʼ]/i.exec(word)?.[0] ?? null;
}

const STOP_WORDS: Record<string, ReadonlySet<string>> = {
  en: new Set('an and are as at be by for from has have in is it its of on or that the this to was were will with'.split(' ')),
  fr: new Set('au aux ce ces dans de des du elle en est et il ils la le les leur leurs mais ne ou par pas pour qui que sa se ses son sont sur un une'.split(' ')),
};

const STEMMERS: Record<string, (word: string) => string> = { en: englishStemmer, fr: frenchStemmer };

/** The language whose rules apply: `fr-CA` -> `fr`; anything unknown gets the English rules. */
export function searchLanguage(locale: string): 'en' | 'fr' {
  return languageOf(locale) === 'fr' ? 'fr' : 'en';
}

/**
 * One word as the index keeps it: folded, without elision or possessive `'s`, without
 * apostrophes (`aujourd'hui` -> `aujourdhui`); null for stop words and single characters.
 */
export function normalizeWord(word: string, language: 'en' | 'fr'): string | null {
  let term = fold(word).replace(/[’ʼ]/g, "'").replace(ELISION, '');
  term = term.replace(/'s$/, '').replace(/'/g, '');
  if (term.length < 2 || STOP_WORDS[language]!.has(term)) return null;
  return term;
}

/** The Snowball stem of a normalized word; numbers and short words are kept as they are. */
export function stem(term: string, language: 'en' | 'fr'): string {
  if (term.length <= 3 || /\d/.test(term)) return term;
  return STEMMERS[language]!(term);
}

export interface WordTerms {
  /** The word as typed, normalized: matched as a prefix, and with typos when long enough. */
  word: string;
  /** Its stem, when different: every indexed word with this stem matches too. */
  stem: string | null;
}

/** The terms a word stands for, or null when it is not searchable (stop word, one letter). */
export function wordTerms(token: string, language: 'en' | 'fr'): WordTerms | null {
  const word = normalizeWord(token, language);
  if (word === null) return null;
  const stemmed = stem(word, language);
  return { word, stem: stemmed === word ? null : stemmed };
}

/**
 * MiniSearch's `processTerm` for indexing: each word as written (normalized). Stems are not
 * indexed: the index file lists which indexed words share a stem, and a query asks for all
 * of them (see engine.ts), which finds the same documents with half the postings. Memoized,
 * since the same few thousand words come back millions of times in a large site.
 */
export function indexTermProcessor(language: 'en' | 'fr'): (token: string) => string | null {
  const memo = new Map<string, string | null>();
  return (token) => {
    let term = memo.get(token);
    if (term === undefined) {
      term = normalizeWord(token, language);
      if (memo.size < 200_000) memo.set(token, term);
    }
    return term;
  };
}

/** A query's words, in order, each with its terms; unsearchable words are left out. */
export function queryWords(query: string, language: 'en' | 'fr'): WordTerms[] {
  const words: WordTerms[] = [];
  const seen = new Set<string>();
  for (const token of tokenize(query)) {
    const terms = wordTerms(token, language);
    if (terms && !seen.has(terms.word)) {
      seen.add(terms.word);
      words.push(terms);
    }
  }
  return words;
}
