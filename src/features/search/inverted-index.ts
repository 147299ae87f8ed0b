// The postings the compact files are cut from (codec.ts `toCompact`): for each term, the
// documents that hold it and how often, per field, and each document's distinct-word count per
// field with their mean (what BM25 scores with). This is the data of the index files' own format
// ('ir-site-search/2'), not a copy of MiniSearch's: the search page hands a query's postings to
// MiniSearch through its public `loadJS`, and test/search/index.test.ts checks that it then answers
// as a MiniSearch given the same documents with `addAll` does. Building them through MiniSearch's
// `addAll` and cutting its `toJSON` costs 130-240 ms per language at 1000 articles, even with the
// terms analysed beforehand, against 12-18 ms here (bench/HISTORY.md): every one-article change
// would pay it, since the index is made again whole.
//
// Two steps: `analyse` turns one document into its terms (tokenizing, normalising: the
// costly part), `invertedIndex` merges documents' terms. The build cache keeps each
// document's terms (incremental/search-cache.ts), so a rebuild after one edit analyses one
// document. Postings come out sorted by document because documents are merged in order.
// Isomorphic: no Node, no DOM.

/** Postings of one term in one field: `[document, term frequency]`, by document. */
export type Postings = [doc: number, tf: number][];

/**
 * One document's terms. JSON as it is: the build cache stores it. A cold build holds every
 * document's terms at once, so they are kept compact: terms and frequencies in two parallel
 * lists per field, not a pair per term, and a field's terms in one string, not a string each.
 */
export interface DocumentTerms {
  /** Per field: how many distinct words (before processing) it has. */
  lengths: number[];
  /** Per field: its terms, each followed by a newline (no term holds one: words are letters, digits and apostrophes)... */
  terms: string[];
  /** ...and the frequency of each. */
  counts: number[][];
}

/** A field's terms, as `DocumentTerms.terms` holds them. */
const termsOf = (joined: string | undefined): string[] => (joined ? joined.slice(0, -1).split('\n') : []);

export interface InvertedIndex {
  documentCount: number;
  /** Per document, per field: how many distinct words (before processing) the field has. */
  fieldLength: number[][];
  /** Per field: the mean of `fieldLength`. */
  averageFieldLength: number[];
  /** Term -> per field (in field order), its postings, or undefined when the field lacks it. */
  postings: Map<string, (Postings | undefined)[]>;
}

export interface IndexOptions {
  tokenize: (text: string) => string[];
  /** A token as the index keeps it, or null/'' to leave it out. */
  processTerm: (token: string) => string | null | undefined;
}

/** `fields[f]`: the text of field `f`. */
export function analyse(fields: readonly string[], options: IndexOptions): DocumentTerms {
  const lengths: number[] = [];
  const terms: string[] = [];
  const counts: number[][] = [];
  for (const text of fields) {
    const tokens = options.tokenize(text);
    lengths.push(new Set(tokens).size);
    const frequencies = new Map<string, number>();
    for (const token of tokens) {
      const term = options.processTerm(token);
      if (term) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    }
    let joined = '';
    for (const term of frequencies.keys()) joined += `${term}\n`;
    terms.push(joined);
    counts.push([...frequencies.values()]);
  }
  return { lengths, terms, counts };
}

/** Documents 0..n-1 merged; every document has `fieldCount` fields. */
export function invertedIndex(documents: readonly DocumentTerms[], fieldCount: number): InvertedIndex {
  const postings = new Map<string, (Postings | undefined)[]>();
  const totalLength = new Array<number>(fieldCount).fill(0);
  documents.forEach((document, doc) => {
    for (let field = 0; field < fieldCount; field++) {
      totalLength[field]! += document.lengths[field] ?? 0;
      const terms = termsOf(document.terms[field]);
      const counts = document.counts[field] ?? [];
      for (let i = 0; i < terms.length; i++) {
        let byField = postings.get(terms[i]!);
        if (!byField) postings.set(terms[i]!, (byField = new Array<Postings | undefined>(fieldCount).fill(undefined)));
        (byField[field] ??= []).push([doc, counts[i]!]);
      }
    }
  });
  const fieldLength = documents.map((d) => Array.from({ length: fieldCount }, (_, f) => d.lengths[f] ?? 0));
  const averageFieldLength = totalLength.map((total) => (documents.length > 0 ? total / documents.length : 0));
  return { documentCount: documents.length, fieldLength, averageFieldLength, postings };
}
