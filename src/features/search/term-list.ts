// An index's words, sorted, and the lookups a query makes in them: a word, the words it
// starts, the words within a few typos. The sharded index (sharded-index.ts) asks these to
// know which postings a query can reach before it fetches them; MiniSearch then matches and
// scores on what was fetched. Isomorphic: no Node, no DOM.
//
// Why not MiniSearch's own SearchableMap (its radix tree)? Building it on a first visit costs
// more than the rest of loading the index, and the list is already sorted: a prefix is a range
// found by binary search, and the typo walk
// below visits the same prefixes SearchableMap's `fuzzyGet` visits, with the same banded
// Levenshtein matrix, so it finds the same words (test/search/index.test.ts compares them).

export class TermList {
  constructor(readonly terms: readonly string[]) {}

  get size(): number {
    return this.terms.length;
  }

  /** The first index whose term is >= `key`. */
  private lowerBound(key: string, lo = 0, hi = this.terms.length): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The index of `term`, or -1. */
  indexOf(term: string): number {
    const i = this.lowerBound(term);
    return this.terms[i] === term ? i : -1;
  }

  has(term: string): boolean {
    return this.indexOf(term) >= 0;
  }

  /** The indexes `[from, to)` of the terms that start with `prefix` (itself included). */
  prefixRange(prefix: string): [from: number, to: number] {
    const from = this.lowerBound(prefix);
    let to = from;
    while (to < this.terms.length && this.terms[to]!.startsWith(prefix)) to++;
    return [from, to];
  }

  /** The indexes of the terms within `maxDistance` edits (Levenshtein) of `query`, with their distance. */
  fuzzy(query: string, maxDistance: number): Map<number, number> {
    const results = new Map<number, number>();
    const terms = this.terms;
    if (terms.length === 0 || maxDistance < 0) return results;
    // Columns: the query's characters and one; rows: the characters of a term and one (a term
    // longer than the query by more than maxDistance never matches). Cells outside the band
    // |row - column| <= maxDistance + 1 keep maxDistance + 1, as in SearchableMap.
    const n = query.length + 1;
    const m = n + maxDistance;
    const matrix = new Uint8Array(m * n).fill(maxDistance + 1);
    for (let j = 0; j < n; ++j) matrix[j] = j;
    for (let i = 1; i < m; ++i) matrix[i * n] = i;
    // terms[lo..hi) share their first `depth` characters, whose rows are filled in.
    const walk = (lo: number, hi: number, depth: number): void => {
      if (terms[lo]!.length === depth) {
        const distance = matrix[(depth + 1) * n - 1]!;
        if (distance <= maxDistance) results.set(lo, distance);
        lo++;
      }
      const i = depth + 1;
      if (i >= m) return;
      const thisRow = n * i;
      const prevRow = thisRow - n;
      const jmin = Math.max(0, i - maxDistance - 1);
      const jmax = Math.min(n - 1, i + maxDistance);
      while (lo < hi) {
        const code = terms[lo]!.charCodeAt(depth);
        // The end of the terms with this character next (they are sorted).
        let a = lo + 1;
        let b = hi;
        while (a < b) {
          const mid = (a + b) >>> 1;
          if (terms[mid]!.charCodeAt(depth) === code) a = mid + 1;
          else b = mid;
        }
        const char = terms[lo]![depth];
        let minDistance = matrix[thisRow]!;
        for (let j = jmin; j < jmax; ++j) {
          const rpl = matrix[prevRow + j]! + (char !== query[j] ? 1 : 0);
          const del = matrix[prevRow + j + 1]! + 1;
          const ins = matrix[thisRow + j]! + 1;
          const dist = (matrix[thisRow + j + 1] = Math.min(rpl, del, ins));
          if (dist < minDistance) minDistance = dist;
        }
        if (minDistance <= maxDistance) walk(lo, a, i);
        lo = a;
      }
    };
    walk(0, terms.length, 0);
    return results;
  }
}
