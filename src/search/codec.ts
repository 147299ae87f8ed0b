// The search index as it travels: a compact JSON form of a MiniSearch index cut into files,
// and the loader that turns it back into a working MiniSearch, fetching only the files a
// query needs.
//
// MiniSearch's own `toJSON` writes every posting as an object entry (`"1234":2`) and its
// `loadJSON` rebuilds one Map per term and field up front: for 4000 articles that is a few
// MB and about 100 ms before the first query. Here each term's postings are one short
// string (delta-coded document numbers and term frequencies in a base-64 alphabet), decoded
// only when a query reaches that term. Stems get no postings of their own: the base file
// lists which indexed words share a stem, and the engine asks for all of them.
//
// Files (docs/search.md, "The files"):
//   - the base (`/search-index/<locale>.json`): every term (MiniSearch needs them all to
//     find prefixes and typos), the stem groups, field lengths, each document's type and
//     sections, and the names of the other files;
//   - postings shards (`t-<key>.<hash>.json`): the postings of a run of consecutive terms,
//     those starting with the same two characters (three when that is large, and small
//     neighbours merged);
//   - stored documents (`d-<n>.<hash>.json`): title, path, date and summary of a block of
//     4096 consecutive documents (one file for most sites), for the results shown; the
//     search page fetches them as soon as it has the base.
// A query first runs with no postings (`loadFor`): MiniSearch walks its term tree for the
// prefixes, typos and stems it asks for, and each term it reaches notes its shard. Those are
// fetched, then the query runs for real. So the terms a query reaches are exactly the ones
// MiniSearch would reach, whatever its prefix and typo rules.
//
// File names carry a hash of their content: a base from one build never reads a shard of
// another (a stale base finds its files gone, and the engine reloads it).
// Isomorphic: no Node, no DOM.
//
// The loader fills MiniSearch's protected fields from a subclass, so the
// MiniSearch version is pinned exactly (package.json) and test/search/index.test.ts checks
// that a compact index answers exactly as MiniSearch's own serialization does.
import MiniSearch, { type Options } from 'minisearch';
import type { InvertedIndex } from './inverted-index.js';

export const INDEX_FORMAT = 'ir-site-search/2';

/** What is kept of each document for the result list. */
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

/** A document as the build hands it to `toCompact` (sections joined by spaces). */
export type PackedDocument = [title: string, path: string, type: string, sections: string, date: string, summary: string];

/** A row of a stored-documents file: what the result list shows. */
export type StoredRow = [title: string, path: string, date: string, summary: string];

export interface IndexBase {
  format: typeof INDEX_FORMAT;
  /** `minisearch@<version>` that built it. */
  engine: string;
  locale: string;
  fields: string[];
  documentCount: number;
  averageFieldLength: number[];
  /** Per document, one length per field, flattened. */
  fieldLength: number[];
  /** The distinct `[type, sections]` pairs of the documents (sections joined by spaces). */
  classes: [type: string, sections: string][];
  /** Per document, its index in `classes`. */
  docClass: number[];
  /** Index terms (words as written, normalized), sorted. */
  terms: string[];
  /**
   * Postings files, in term order: `[first, file]`, where `first` is the index in `terms`
   * of the file's first term; it holds the postings of every term up to the next file's
   * first (a JSON array of strings, one per term: see `encodePostings`).
   */
  shards: [first: number, file: string][];
  /** Stems shared by two or more terms, sorted. */
  stems: string[];
  /** Per stem, the indexes in `terms` of its words, gap-coded as `encodePostings` documents are. */
  stemTerms: string[];
  /** Documents per stored-documents file. */
  docBlock: number;
  /**
   * Stored-documents file `i` is `d-<i>.<docHash>.json` (see `docFile`): the `StoredRow`s of
   * documents `i * docBlock` on. One hash for them all (of all the rows) keeps the base short.
   */
  docHash: string;
}

/** The name of stored-documents file `block`. */
export function docFile(base: Pick<IndexBase, 'docHash'>, block: number): string {
  return `d-${block}.${base.docHash}.json`;
}

/** An index as the build writes it: the base and its other files (name -> JSON text). */
export interface IndexFiles {
  base: IndexBase;
  files: Map<string, string>;
}

/** Fetches one of the base's files (a name from `shards`, or `docFile`): its text. */
export type FetchPart = (file: string) => Promise<string>;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

/** Unsigned integers as base-32 digits, least significant first, 32 added to all but the last. */
function writeNumber(out: string[], value: number): void {
  while (value >= 32) {
    out.push(ALPHABET[32 + (value & 31)]!);
    value = Math.floor(value / 32);
  }
  out.push(ALPHABET[value]!);
}

/**
 * `[[docId, tf], ...]` sorted by docId -> string. Each posting is the gap to the previous
 * document, doubled, plus one when a term frequency other than 1 follows (most are 1).
 */
export function encodePostings(postings: [docId: number, termFrequency: number][]): string {
  const out: string[] = [];
  let previous = 0;
  for (const [doc, tf] of postings) {
    writeNumber(out, (doc - previous) * 2 + (tf === 1 ? 0 : 1));
    if (tf !== 1) writeNumber(out, tf);
    previous = doc;
  }
  return out.join('');
}

export function decodePostings(text: string, from = 0, to = text.length): Map<number, number> {
  const postings = new Map<number, number>();
  let doc = 0;
  let i = from;
  const next = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const digit = DIGIT[text.charCodeAt(i++)]!;
      if (digit < 0 || i > to) throw new Error('corrupt search index postings');
      if (digit < 32) return value + digit * scale;
      value += (digit - 32) * scale;
      scale *= 32;
    }
  };
  while (i < to) {
    const gap = next();
    doc += Math.floor(gap / 2);
    postings.set(doc, gap % 2 === 1 ? next() : 1);
  }
  return postings;
}

/** A term's postings, `field,field,...` -> field -> postings. */
function decodeTermPostings(encoded: string): Map<number, Map<number, number>> {
  const fields = new Map<number, Map<number, number>>();
  let start = 0;
  let field = 0;
  for (;;) {
    const end = encoded.indexOf(',', start);
    const stop = end < 0 ? encoded.length : end;
    if (stop > start) fields.set(field, decodePostings(encoded, start, stop));
    if (end < 0) break;
    start = end + 1;
    field++;
  }
  return fields;
}

/** Sorted numbers -> gaps in the posting alphabet. */
function encodeNumbers(values: number[]): string {
  const out: string[] = [];
  let previous = 0;
  for (const value of values) {
    writeNumber(out, value - previous);
    previous = value;
  }
  return out.join('');
}

function decodeNumbers(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let digitValue = 0;
  let scale = 1;
  for (let i = 0; i < text.length; i++) {
    const digit = DIGIT[text.charCodeAt(i)]!;
    if (digit < 0) throw new Error('corrupt search index stems');
    if (digit < 32) {
      value += digitValue + digit * scale;
      values.push(value);
      digitValue = 0;
      scale = 1;
    } else {
      digitValue += (digit - 32) * scale;
      scale *= 32;
    }
  }
  return values;
}

// ---------------------------------------------------------------------------------------
// Build side: cutting the index into files.

/** A shard's terms share their first two characters... */
const SHARD_KEY_LENGTH = 2;
/** ...or three (four) when the two-character run is more than this many bytes... */
const SHARD_SPLIT_BYTES = 24 * 1024;
const SHARD_MAX_KEY_LENGTH = 4;
/** ...and neighbouring runs are merged while the result stays under this many. */
const SHARD_MERGE_BYTES = 6 * 1024;
/**
 * Documents per stored-documents file. The search page fetches them all as soon as it has
 * the base (`prefetchDocuments`), in parallel with the first query's shards: one file of
 * 1 MB (250 KiB gzip) for 4000 long summaries loaded faster than the 20 small files of the
 * first 20 results, after the shards (bench/search.ts; docs/search.md).
 */
export const DOC_BLOCK = 4096;

/**
 * A stored-documents file: a JSON array with one row per line, so that a row is parsed only
 * when a result shows it (`JSON.parse` of 1 MB on the main thread is several ms).
 */
export function encodeDocFile(rows: StoredRow[]): string {
  return `[\n${rows.map((row) => JSON.stringify(row)).join(',\n')}\n]`;
}

/** A stored-documents file's rows, still as text: line `i + 1` is row `i` (a trailing comma aside). */
function docFileLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[0] !== '[' || lines[lines.length - 1] !== ']') throw new Error('not a stored-documents file');
  return lines.slice(1, -1);
}

function parseDocLine(line: string): StoredRow {
  const row = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as unknown;
  if (!Array.isArray(row) || row.length !== 4 || !row.every((v) => typeof v === 'string')) throw new Error('corrupt search index document');
  return row as StoredRow;
}

/** A key as part of a file name: `[a-z0-9]` as they are, any other character as `_<hex>_`. */
export function fileKey(key: string): string {
  let out = '';
  for (const ch of key) out += /^[a-z0-9]$/.test(ch) ? ch : `_${ch.codePointAt(0)!.toString(16)}_`;
  return out;
}

/** The first `n` characters (code points, not halves of a surrogate pair) of a term. */
function head(term: string, n: number): string {
  let end = 0;
  for (let i = 0; i < n && end < term.length; i++) end += term.codePointAt(end)! > 0xffff ? 2 : 1;
  return term.slice(0, end);
}

interface TermRun {
  key: string;
  first: number;
  bytes: number;
}

/**
 * Consecutive terms grouped by their first `length` characters; a group larger than
 * SHARD_SPLIT_BYTES is grouped again by one more character. Sorted terms that share a
 * prefix are consecutive, so each group is a range of `terms`.
 */
function termRuns(terms: readonly string[], bytes: readonly number[], from: number, to: number, length: number, out: TermRun[]): void {
  let start = from;
  while (start < to) {
    const key = head(terms[start]!, length);
    let end = start;
    let size = 0;
    while (end < to && head(terms[end]!, length) === key) size += bytes[end++]!;
    if (size > SHARD_SPLIT_BYTES && length < SHARD_MAX_KEY_LENGTH && end - start > 1) termRuns(terms, bytes, start, end, length + 1, out);
    else out.push({ key, first: start, bytes: size });
    start = end;
  }
}

/** The postings shards: runs of terms, small neighbours merged. */
export function shardTerms(terms: readonly string[], postings: readonly string[]): TermRun[] {
  const bytes = terms.map((term, i) => term.length + postings[i]!.length + 3);
  const runs: TermRun[] = [];
  termRuns(terms, bytes, 0, terms.length, SHARD_KEY_LENGTH, runs);
  const merged: TermRun[] = [];
  for (const run of runs) {
    const last = merged[merged.length - 1];
    if (last && last.bytes + run.bytes <= SHARD_MERGE_BYTES) last.bytes += run.bytes;
    else merged.push({ ...run });
  }
  return merged;
}

/**
 * An inverted index over documents 0..n-1 (inverted-index.ts), cut into its files.
 * `hash` names a file after its content (the build passes a digest).
 */
export function toCompact(
  index: InvertedIndex,
  meta: { locale: string; engine: string; fields: string[]; docs: PackedDocument[]; stem: (term: string) => string; hash: (text: string) => string },
): IndexFiles {
  const fieldCount = meta.fields.length;
  const fieldLength: number[] = new Array(meta.docs.length * fieldCount).fill(0);
  index.fieldLength.forEach((lengths, doc) => lengths.forEach((length, i) => (fieldLength[doc * fieldCount + i] = length)));
  const terms = [...index.postings.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const groups = new Map<string, number[]>();
  terms.forEach((term, i) => {
    const stem = meta.stem(term);
    const members = groups.get(stem);
    if (members) members.push(i);
    else groups.set(stem, [i]);
  });
  const shared = [...groups].filter(([, members]) => members.length > 1).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const postings = terms.map((term) =>
    index.postings
      .get(term)!
      .map((list) => (list ? encodePostings(list) : ''))
      .join(','),
  );

  const files = new Map<string, string>();
  const addFile = (prefix: string, json: string) => {
    const name = `${prefix}.${meta.hash(json)}.json`;
    files.set(name, json);
    return name;
  };
  const runs = shardTerms(terms, postings);
  const shards = runs.map((run, i): [number, string] => {
    const end = runs[i + 1]?.first ?? terms.length;
    return [run.first, addFile(`t-${fileKey(run.key)}`, JSON.stringify(postings.slice(run.first, end)))];
  });
  const blocks: string[] = [];
  for (let start = 0; start < meta.docs.length; start += DOC_BLOCK) {
    blocks.push(encodeDocFile(meta.docs.slice(start, start + DOC_BLOCK).map(([title, path, , , date, summary]): StoredRow => [title, path, date, summary])));
  }
  const docHash = meta.hash(blocks.join('\n'));
  blocks.forEach((json, block) => files.set(docFile({ docHash }, block), json));
  const classes: [string, string][] = [];
  const classIds = new Map<string, number>();
  const docClass = meta.docs.map(([, , type, sections]) => {
    const key = `${type}\n${sections}`;
    let id = classIds.get(key);
    if (id === undefined) classIds.set(key, (id = classes.push([type, sections]) - 1));
    return id;
  });

  return {
    base: {
      format: INDEX_FORMAT,
      engine: meta.engine,
      locale: meta.locale,
      fields: meta.fields,
      documentCount: index.documentCount,
      // Unrounded: three numbers, and scores then match MiniSearch's to the last digit.
      averageFieldLength: meta.fields.map((_, i) => index.averageFieldLength[i] ?? 0),
      fieldLength,
      classes,
      docClass,
      terms,
      shards,
      stems: shared.map(([stem]) => stem),
      stemTerms: shared.map(([, members]) => encodeNumbers(members)),
      docBlock: DOC_BLOCK,
      docHash,
    },
    files,
  };
}

// ---------------------------------------------------------------------------------------
// Browser side: the loader.

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

export function isIndexBase(value: unknown): value is IndexBase {
  const v = value as Partial<IndexBase> | null;
  return (
    !!v &&
    v.format === INDEX_FORMAT &&
    Array.isArray(v.fields) &&
    typeof v.documentCount === 'number' &&
    Array.isArray(v.classes) &&
    Array.isArray(v.docClass) &&
    Array.isArray(v.terms) &&
    Array.isArray(v.shards) &&
    (v.shards.length === 0 ? v.terms.length === 0 : v.shards[0]![0] === 0) &&
    Array.isArray(v.stems) &&
    Array.isArray(v.stemTerms) &&
    v.stems.length === v.stemTerms.length &&
    typeof v.docBlock === 'number' &&
    v.docBlock > 0 &&
    typeof v.docHash === 'string' &&
    /^[0-9a-z]+$/.test(v.docHash) &&
    Array.isArray(v.fieldLength) &&
    v.fieldLength.length === v.docClass.length * v.fields.length
  );
}

/** A file of the index could not be fetched or is not what the base expects (a newer build replaced it?). */
export class IndexPartError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`search index file ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'IndexPartError';
  }
}

/**
 * What MiniSearch finds in its term tree: a term's field -> postings. MiniSearch only
 * calls `get(fieldId)` on these when scoring (termResults), which is all a loaded,
 * read-only index needs.
 */
class TermRef {
  constructor(
    private readonly owner: CompactMiniSearch,
    private readonly term: number,
  ) {}

  get(fieldId: number): Map<number, number> | undefined {
    return this.owner.postingsOf(this.term)?.get(fieldId);
  }

  get size(): number {
    return this.owner.postingsOf(this.term)?.size ?? 0;
  }
}

/**
 * MiniSearch's term index, for a sorted term list: what its radix tree (SearchableMap)
 * answers during a search (`get`, `has`, `atPrefix`, `fuzzyGet`), without building the tree,
 * which took 25-35 ms for 15,000 terms in a cold engine. Prefixes are ranges of the sorted
 * list. `fuzzyGet` walks the same prefixes character by character, as SearchableMap walks
 * its tree, with the same banded Levenshtein matrix, so it finds the same terms at the same
 * distances (test/search/index.test.ts compares the two).
 */
export class SortedTerms {
  private readonly refs: (TermRef | undefined)[];

  constructor(
    private readonly owner: CompactMiniSearch,
    private readonly terms: readonly string[],
  ) {
    this.refs = new Array(terms.length);
  }

  private ref(i: number): TermRef {
    return (this.refs[i] ??= new TermRef(this.owner, i));
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

  private find(term: string): number {
    const i = this.lowerBound(term);
    return this.terms[i] === term ? i : -1;
  }

  get(term: string): TermRef | undefined {
    const i = this.find(term);
    return i < 0 ? undefined : this.ref(i);
  }

  has(term: string): boolean {
    return this.find(term) >= 0;
  }

  get size(): number {
    return this.terms.length;
  }

  /** Every term starting with `prefix` (itself included), as MiniSearch iterates `atPrefix`. */
  atPrefix(prefix: string): [string, TermRef][] {
    const found: [string, TermRef][] = [];
    for (let i = this.lowerBound(prefix); i < this.terms.length && this.terms[i]!.startsWith(prefix); i++) found.push([this.terms[i]!, this.ref(i)]);
    return found;
  }

  /** Terms within `maxDistance` edits of `query`: term -> [data, distance], as SearchableMap's `fuzzyGet`. */
  fuzzyGet(query: string, maxDistance: number): Map<string, [TermRef, number]> {
    const results = new Map<string, [TermRef, number]>();
    const terms = this.terms;
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
        if (distance <= maxDistance) results.set(terms[lo]!, [this.ref(lo), distance]);
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
    if (terms.length > 0) walk(0, terms.length, 0);
    return results;
  }
}

/** A read-only MiniSearch that fetches and decodes its postings and stored documents as queries need them. */
export class CompactMiniSearch extends MiniSearch<StoredDocument> {
  /** The index of `base`; `fetchPart` fetches its other files. */
  static fromBase(base: IndexBase, fetchPart: FetchPart, options: Omit<Options<StoredDocument>, 'fields' | 'storeFields'> = {}): CompactMiniSearch {
    const fields = base.fields;
    const index = new CompactMiniSearch({ ...options, fields, storeFields: [] });
    const width = fields.length;
    const count = base.docClass.length;
    index._documentCount = base.documentCount;
    index._nextId = count;
    index._fieldIds = Object.fromEntries(fields.map((f, i) => [f, i]));
    index._avgFieldLength = base.averageFieldLength;
    // Documents are numbered 0..n-1 and never removed: the id maps are the identity, and
    // field lengths are rows of the flat array. MiniSearch only calls has/get on these.
    const ids = { has: (id: number) => id >= 0 && id < count, get: (id: number) => (id >= 0 && id < count ? id : undefined), size: count };
    const rows: number[][] = new Array(count);
    for (let doc = 0; doc < count; doc++) rows[doc] = base.fieldLength.slice(doc * width, doc * width + width);
    index._documentIds = ids as unknown as Map<number, number>;
    index._idToShortId = ids as unknown as Map<number, number>;
    index._fieldLength = { get: (id: number) => rows[id], has: (id: number) => id >= 0 && id < count } as unknown as Map<number, number[]>;
    // Results carry no stored fields (nothing to copy for thousands of matches): the
    // engine reads type and sections from the classes, and the rest only for what it shows.
    index._storedFields = new Map();
    index.base = base;
    index.fetchPart = fetchPart;
    index.terms = base.terms;
    index.termShard = new Uint32Array(base.terms.length);
    base.shards.forEach(([first], shard) => index.termShard.fill(shard, first, base.shards[shard + 1]?.[0] ?? base.terms.length));
    index.decoded = new Array(base.terms.length);
    index.shardPostings = new Array(base.shards.length);
    index.docRows = new Array(Math.ceil(count / base.docBlock));
    index.stemGroups = new Map(base.stems.map((stem, i) => [stem, base.stemTerms[i]!]));
    index._index = new SortedTerms(index, base.terms) as unknown as typeof index._index;
    return index;
  }

  /** The base file this index was loaded from. */
  base!: IndexBase;
  private fetchPart!: FetchPart;
  private terms: string[] = [];
  /** Per term, the shard holding its postings. */
  private termShard = new Uint32Array(0);
  private decoded: (Map<number, Map<number, number>> | undefined)[] = [];
  /** Per shard, its postings once fetched. */
  private shardPostings: (string[] | undefined)[] = [];
  private shardLoads = new Map<number, Promise<void>>();
  /** Per stored-documents file, its rows once fetched (text until a result shows one). */
  private docRows: ((string | StoredRow)[] | undefined)[] = [];
  private docLoads = new Map<number, Promise<void>>();
  private stemGroups = new Map<string, string>();
  /** While `loadFor` runs its query: the shards it reached that are not loaded yet. */
  private collecting: Set<number> | null = null;

  /** @internal The postings of term `i`; while collecting, none (and the shard is noted). */
  postingsOf(term: number): Map<number, Map<number, number>> | undefined {
    const shard = this.termShard[term]!;
    const postings = this.shardPostings[shard];
    if (this.collecting) {
      if (!postings) this.collecting.add(shard);
      return undefined;
    }
    if (!postings) throw new Error(`search index postings of "${this.terms[term]}" are not loaded (prepare the query first)`);
    let decoded = this.decoded[term];
    if (!decoded) decoded = this.decoded[term] = decodeTermPostings(postings[term - this.base.shards[shard]![0]]!);
    return decoded;
  }

  /**
   * Runs `query` (a function that searches this index) once without postings, to see which
   * terms it reaches, and fetches the shards that hold them. Afterwards `query` can run.
   */
  async loadFor(query: () => unknown): Promise<void> {
    const needed = new Set<number>();
    this.collecting = needed;
    try {
      query();
    } finally {
      this.collecting = null;
    }
    await Promise.all([...needed].map((shard) => this.loadShard(shard)));
  }

  /** Fetches every stored-documents file (the search page does as soon as it has the base). */
  prefetchDocuments(): Promise<void> {
    return Promise.all(Array.from(this.docRows, (_, block) => this.loadDocBlock(block))).then(() => undefined);
  }

  /** Fetches the stored fields of these documents (the results to show). */
  async loadDocuments(ids: Iterable<number>): Promise<void> {
    const blocks = new Set<number>();
    for (const id of ids) if (!this.docRows[Math.floor(id / this.base.docBlock)]) blocks.add(Math.floor(id / this.base.docBlock));
    await Promise.all([...blocks].map((block) => this.loadDocBlock(block)));
  }

  /** Installs a file (its text, as `fetchPart` returns it); throws when it is not what the base expects. */
  addPart(file: string, text: string): void {
    const shard = this.base.shards.findIndex(([, name]) => name === file);
    if (shard >= 0) {
      const expected = (this.base.shards[shard + 1]?.[0] ?? this.terms.length) - this.base.shards[shard]![0];
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (error) {
        throw new IndexPartError(file, error);
      }
      if (!isStrings(data) || data.length !== expected) throw new IndexPartError(file, new Error('not the postings the base expects'));
      this.shardPostings[shard] = data;
      return;
    }
    const block = Number(/^d-(\d+)\./.exec(file)?.[1] ?? -1);
    if (block >= 0 && block < this.docRows.length && file === docFile(this.base, block)) {
      const expected = Math.min(this.base.docBlock, this.base.docClass.length - block * this.base.docBlock);
      let lines: string[];
      try {
        lines = docFileLines(text);
      } catch (error) {
        throw new IndexPartError(file, error);
      }
      if (lines.length !== expected) throw new IndexPartError(file, new Error('not the documents the base expects'));
      this.docRows[block] = lines;
      return;
    }
    throw new IndexPartError(file, new Error('not a file of this index'));
  }

  private load(loads: Map<number, Promise<void>>, key: number, file: string): Promise<void> {
    let pending = loads.get(key);
    if (!pending) {
      pending = this.fetchPart(file).then(
        (data) => this.addPart(file, data),
        (error: unknown) => {
          throw error instanceof IndexPartError ? error : new IndexPartError(file, error);
        },
      );
      // A failed fetch is tried again by the next query.
      pending.catch(() => loads.delete(key));
      loads.set(key, pending);
    }
    return pending;
  }

  private loadShard(shard: number): Promise<void> {
    if (this.shardPostings[shard]) return Promise.resolve();
    return this.load(this.shardLoads, shard, this.base.shards[shard]![1]);
  }

  private loadDocBlock(block: number): Promise<void> {
    if (this.docRows[block]) return Promise.resolve();
    return this.load(this.docLoads, block, docFile(this.base, block));
  }

  /** Whether `term` is an indexed word. */
  hasTerm(term: string): boolean {
    return this._index.has(term);
  }

  /** The indexed words whose stem is `stem` (those sharing it with another word), or []. */
  wordsWithStem(stem: string): string[] {
    const encoded = this.stemGroups.get(stem);
    return encoded === undefined ? [] : decodeNumbers(encoded).map((i) => this.terms[i]!).filter(Boolean);
  }

  /** The stored fields of document `id` (its file must be loaded: `loadDocuments`). */
  document(id: number): StoredDocument | undefined {
    const cls = this.base.classes[this.base.docClass[id] ?? -1];
    if (!cls) return undefined;
    const rows = this.docRows[Math.floor(id / this.base.docBlock)];
    let row = rows?.[id % this.base.docBlock];
    if (!rows || row === undefined) throw new Error(`search index document ${id} is not loaded (prepare the query first)`);
    if (typeof row === 'string') row = rows[id % this.base.docBlock] = parseDocLine(row);
    const [title, path, date, summary] = row;
    return { title, path, type: cls[0], sections: cls[1] ? cls[1].split(' ') : [], date, summary };
  }

  typeOf(id: number): string {
    return this.base.classes[this.base.docClass[id] ?? -1]?.[0] ?? '';
  }

  inSection(id: number, section: string): boolean {
    const sections = this.base.classes[this.base.docClass[id] ?? -1]?.[1];
    return !!sections && (sections === section || ` ${sections} `.includes(` ${section} `));
  }
}
