// The search index's files: what the build writes (`toCompact`, from the inverted index of
// inverted-index.ts) and how their parts are read back (sharded-index.ts loads them).
//
// MiniSearch's own `toJSON` writes every posting as an object entry (`"1234":2`): for 4000
// articles that is megabytes, all of it needed before the first query. Here each term's
// postings are one short string (delta-coded document numbers and term frequencies in a
// base-64 alphabet), cut into shards by term, so a query fetches only the shards of the
// terms it can reach. Stems get no postings of their own: the base lists which indexed
// words share a stem, and the engine asks for all of them.
//
// Files (docs/search.md, "The index files"):
//   - the base (`/search-index/<locale>.json`): every term (a query's prefixes and typos are
//     found among them all), the stem groups, field lengths, each document's type and
//     sections, and the names of the other files;
//   - postings shards (`t-<key>.<hash>.json`): the postings of a run of consecutive terms,
//     those starting with the same two characters (three when that is large, and small
//     neighbours merged);
//   - stored documents (`d-<n>.<hash>.json`): title, path, date and summary of a block of
//     4096 consecutive documents (one file for most sites), for the results shown; the
//     search page fetches them as soon as it has the base.
//
// File names carry a hash of their content: a base from one build never reads a shard of
// another (a stale base finds its files gone, and the engine reloads it).
// Isomorphic: no Node, no DOM.
import type { InvertedIndex } from './inverted-index.js';
import type { StoredDocument } from './index-store.js';
import { byText } from '../../shared/order.js';

export type { StoredDocument };

export const INDEX_FORMAT = 'ir-site-search/2';

/** A document as the build hands it to `toCompact` (sections joined by spaces). */
export type PackedDocument = [title: string, path: string, type: string, sections: string, date: string, summary: string];

/** A row of a stored-documents file: what the result list shows. */
export type StoredRow = [title: string, path: string, date: string, summary: string];

export interface IndexBase {
  format: typeof INDEX_FORMAT;
  /** `minisearch@<version>`: the MiniSearch whose index this is (the search page bundles the same). */
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

/** Postings in MiniSearch's JSON form: field -> document -> term frequency. */
export type TermPostings = Record<number, Record<number, number>>;

/**
 * A term's postings as the shards hold them (`field,field,...`, each as `encodePostings`
 * writes it; empty for a field without the term) in MiniSearch's JSON form, and every
 * document they name (once per field). One loop, no callback: the first query of a visit
 * runs it cold over thousands of postings.
 */
export function decodeTermPostings(text: string): { postings: TermPostings; docs: number[] } {
  const postings: TermPostings = {};
  const docs: number[] = [];
  let field = 0;
  let tfs: Record<number, number> | null = null;
  let doc = 0;
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) === 44 /* , */) {
      field++;
      tfs = null;
      doc = 0;
      i++;
      continue;
    }
    // A number: base-32 digits, least significant first, 32 added to all but the last.
    let value = 0;
    let scale = 1;
    let digit: number | undefined;
    while ((digit = DIGIT[text.charCodeAt(i++)]) !== undefined && digit >= 32) {
      value += (digit - 32) * scale;
      scale *= 32;
    }
    if (digit === undefined || digit < 0) throw new Error('corrupt search index postings');
    value += digit * scale;
    doc += Math.floor(value / 2);
    let tf = 1;
    if (value % 2 === 1) {
      tf = 0;
      scale = 1;
      while ((digit = DIGIT[text.charCodeAt(i++)]) !== undefined && digit >= 32) {
        tf += (digit - 32) * scale;
        scale *= 32;
      }
      if (digit === undefined || digit < 0) throw new Error('corrupt search index postings');
      tf += digit * scale;
    }
    (tfs ??= postings[field] = {})[doc] = tf;
    docs.push(doc);
  }
  return { postings, docs };
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

export function decodeNumbers(text: string): number[] {
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
 * the base (`prefetchDocuments`), in parallel with the first query's shards: one large file
 * loads sooner than the first results' small files would after the shards (bench/search.ts;
 * docs/search.md).
 */
export const DOC_BLOCK = 4096;

/**
 * A stored-documents file: a JSON array with one row per line, so that a row is parsed only
 * when a result shows it: parsing them all at once would be a long task on the main thread.
 */
export function encodeDocFile(rows: StoredRow[]): string {
  return `[\n${rows.map((row) => JSON.stringify(row)).join(',\n')}\n]`;
}

/** A stored-documents file's rows, still as text: line `i + 1` is row `i` (a trailing comma aside). */
export function docFileLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[0] !== '[' || lines[lines.length - 1] !== ']') throw new Error('not a stored-documents file');
  return lines.slice(1, -1);
}

export function parseDocLine(line: string): StoredRow {
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
  const terms = [...index.postings.keys()].sort(byText);
  const groups = new Map<string, number[]>();
  terms.forEach((term, i) => {
    const stem = meta.stem(term);
    const members = groups.get(stem);
    if (members) members.push(i);
    else groups.set(stem, [i]);
  });
  const shared = [...groups].filter(([, members]) => members.length > 1).sort(([a], [b]) => byText(a, b));
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
      // Unrounded: three numbers, and scores then match those of a MiniSearch given the same documents.
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
// Read side: what sharded-index.ts checks of what it fetches.

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

