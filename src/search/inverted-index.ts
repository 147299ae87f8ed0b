// The inverted index the compact files are cut from (codec.ts `toCompact`), built directly.
// It holds exactly what MiniSearch's `toJSON` would after `addAll` of the same documents
// (term frequencies per field and document, distinct-word counts, their running averages
// to the same floating-point digits), which test/search/index.test.ts checks. Building it
// through MiniSearch cost three times as much: its radix tree is made for lookups, and the
// build only ever walks the terms once, sorted. Postings come out sorted by document
// because documents are added in order. Isomorphic: no Node, no DOM.

/** Postings of one term in one field: `[document, term frequency]`, by document. */
export type Postings = [doc: number, tf: number][];

export interface InvertedIndex {
  documentCount: number;
  /** Per document, per field: how many distinct words (before processing) the field has. */
  fieldLength: number[][];
  /** Per field: the mean of `fieldLength`, computed as MiniSearch computes it. */
  averageFieldLength: number[];
  /** Term -> per field (in field order), its postings, or undefined when the field lacks it. */
  postings: Map<string, (Postings | undefined)[]>;
}

export interface IndexOptions {
  tokenize: (text: string) => string[];
  /** A token as the index keeps it, or null/'' to leave it out. */
  processTerm: (token: string) => string | null | undefined;
}

/** `documents[i][f]`: the text of field `f` of document `i`. */
export function invertedIndex(documents: readonly (readonly string[])[], fieldCount: number, options: IndexOptions): InvertedIndex {
  const postings = new Map<string, (Postings | undefined)[]>();
  const fieldLength: number[][] = [];
  const averageFieldLength: number[] = [];
  documents.forEach((fields, doc) => {
    const lengths: number[] = [];
    for (let field = 0; field < fieldCount; field++) {
      const tokens = options.tokenize(fields[field] ?? '');
      const length = new Set(tokens).size;
      lengths[field] = length;
      // MiniSearch's running mean, step by step: the same rounding as its own.
      averageFieldLength[field] = ((averageFieldLength[field] || 0) * doc + length) / (doc + 1);
      const counts = new Map<string, number>();
      for (const token of tokens) {
        const term = options.processTerm(token);
        if (term) counts.set(term, (counts.get(term) ?? 0) + 1);
      }
      for (const [term, tf] of counts) {
        let byField = postings.get(term);
        if (!byField) postings.set(term, (byField = new Array<Postings | undefined>(fieldCount).fill(undefined)));
        (byField[field] ??= []).push([doc, tf]);
      }
    }
    fieldLength.push(lengths);
  });
  return { documentCount: documents.length, fieldLength, averageFieldLength, postings };
}
