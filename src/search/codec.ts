// The search index as it travels: a compact JSON form of a MiniSearch index, and the
// loader that turns it back into a working MiniSearch without decoding it all.
//
// MiniSearch's own `toJSON` writes every posting as an object entry (`"1234":2`) and its
// `loadJSON` rebuilds one Map per term and field up front: for 4000 articles that is a few
// MB and about 100 ms before the first query. Here each term's postings are one short
// string (delta-coded document numbers and term frequencies in a base-64 alphabet), decoded
// only when a query reaches that term. Stems get no postings of their own: the file lists
// which indexed words share a stem, and the engine asks for all of them. Isomorphic: no
// Node, no DOM.
//
// The loader fills MiniSearch's protected fields from a subclass, so the
// MiniSearch version is pinned exactly (package.json) and test/search/index.test.ts checks
// that a compact index answers exactly as MiniSearch's own serialization does.
import MiniSearch, { type Options } from 'minisearch';

export const INDEX_FORMAT = 'ir-site-search/1';

/** What is kept of each document for the result list (positional, to keep the file small). */
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

export type PackedDocument = [title: string, path: string, type: string, sections: string, date: string, summary: string];

export interface CompactIndex {
  format: typeof INDEX_FORMAT;
  /** `minisearch@<version>` that built it. */
  engine: string;
  locale: string;
  fields: string[];
  documentCount: number;
  averageFieldLength: number[];
  /** Per document, one length per field, flattened. */
  fieldLength: number[];
  docs: PackedDocument[];
  /** Index terms (words as written, normalized), sorted. */
  terms: string[];
  /** Per term, the postings of each field joined by `,` (see `encodePostings`). */
  postings: string[];
  /** Stems shared by two or more terms, sorted. */
  stems: string[];
  /** Per stem, the indexes in `terms` of its words, gap-coded as `encodePostings` documents are. */
  stemTerms: string[];
}

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

/**
 * A term's field -> postings, decoded on first use. MiniSearch only calls `get(fieldId)`
 * on these when scoring (termResults), which is all a loaded, read-only index needs.
 */
class LazyTermData {
  private decoded: Map<number, Map<number, number>> | null = null;
  constructor(private readonly encoded: string) {}

  private decode(): Map<number, Map<number, number>> {
    const fields = new Map<number, Map<number, number>>();
    let start = 0;
    let field = 0;
    for (;;) {
      const end = this.encoded.indexOf(',', start);
      const stop = end < 0 ? this.encoded.length : end;
      if (stop > start) fields.set(field, decodePostings(this.encoded, start, stop));
      if (end < 0) break;
      start = end + 1;
      field++;
    }
    return fields;
  }

  get(fieldId: number): Map<number, number> | undefined {
    this.decoded ??= this.decode();
    return this.decoded.get(fieldId);
  }

  get size(): number {
    this.decoded ??= this.decode();
    return this.decoded.size;
  }
}

/** Stored fields unpacked per document when a result needs them. */
class LazyStoredFields {
  private cache = new Map<number, StoredDocument>();
  constructor(private readonly docs: PackedDocument[]) {}
  get(id: number): StoredDocument | undefined {
    let doc = this.cache.get(id);
    if (!doc) {
      const packed = this.docs[id];
      if (!packed) return undefined;
      const [title, path, type, sections, date, summary] = packed;
      doc = { title, path, type, sections: sections ? sections.split(' ') : [], date, summary };
      this.cache.set(id, doc);
    }
    return doc;
  }
  has(id: number): boolean {
    return id >= 0 && id < this.docs.length;
  }
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

/** A MiniSearch index built (in Node) with documents numbered 0..n-1, as the compact form. */
export function toCompact(
  index: MiniSearch,
  meta: { locale: string; engine: string; fields: string[]; docs: PackedDocument[]; stem: (term: string) => string },
): CompactIndex {
  const plain = index.toJSON();
  const fieldIds = plain.fieldIds;
  const ordered = meta.fields.map((f) => {
    const id = fieldIds[f];
    if (id === undefined) throw new Error(`field ${f} is not indexed`);
    return id;
  });
  const shortToDoc = new Map<number, number>(Object.entries(plain.documentIds).map(([short, id]) => [Number(short), Number(id)]));
  const docOf = (short: string) => {
    const doc = shortToDoc.get(Number(short));
    if (doc === undefined) throw new Error(`unknown short id ${short}`);
    return doc;
  };
  const fieldLength: number[] = new Array(meta.docs.length * ordered.length).fill(0);
  for (const [short, lengths] of Object.entries(plain.fieldLength)) {
    const doc = docOf(short);
    ordered.forEach((fieldId, i) => (fieldLength[doc * ordered.length + i] = lengths[fieldId] ?? 0));
  }
  const entries = [...plain.index].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const groups = new Map<string, number[]>();
  entries.forEach(([term], i) => {
    const stem = meta.stem(term);
    groups.set(stem, [...(groups.get(stem) ?? []), i]);
  });
  const shared = [...groups].filter(([, members]) => members.length > 1).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    format: INDEX_FORMAT,
    engine: meta.engine,
    locale: meta.locale,
    fields: meta.fields,
    documentCount: plain.documentCount,
    averageFieldLength: ordered.map((fieldId) => Math.round((plain.averageFieldLength[fieldId] ?? 0) * 1000) / 1000),
    fieldLength,
    docs: meta.docs,
    terms: entries.map(([term]) => term),
    postings: entries.map(([, byField]) =>
      ordered
        .map((fieldId) => {
          const postings = byField[String(fieldId)] as Record<string, number> | undefined;
          if (!postings) return '';
          const list = Object.entries(postings).map(([short, tf]) => [docOf(short), tf] as [number, number]);
          return encodePostings(list.sort((a, b) => a[0] - b[0]));
        })
        .join(','),
    ),
    stems: shared.map(([stem]) => stem),
    stemTerms: shared.map(([, members]) => encodeNumbers(members)),
  };
}

export function isCompactIndex(value: unknown): value is CompactIndex {
  const v = value as Partial<CompactIndex> | null;
  return (
    !!v &&
    v.format === INDEX_FORMAT &&
    Array.isArray(v.fields) &&
    Array.isArray(v.docs) &&
    Array.isArray(v.terms) &&
    Array.isArray(v.postings) &&
    v.terms.length === v.postings.length &&
    Array.isArray(v.stems) &&
    Array.isArray(v.stemTerms) &&
    v.stems.length === v.stemTerms.length &&
    Array.isArray(v.fieldLength) &&
    v.fieldLength.length === v.docs.length * v.fields.length
  );
}

/** A read-only MiniSearch whose postings are decoded lazily from the compact form. */
export class CompactMiniSearch extends MiniSearch<StoredDocument> {
  static fromCompact(data: CompactIndex, options: Omit<Options<StoredDocument>, 'fields' | 'storeFields'>): CompactMiniSearch {
    const fields = data.fields;
    const index = new CompactMiniSearch({ ...options, fields, storeFields: [] });
    const width = fields.length;
    index._documentCount = data.documentCount;
    index._nextId = data.docs.length;
    index._fieldIds = Object.fromEntries(fields.map((f, i) => [f, i]));
    index._avgFieldLength = data.averageFieldLength;
    // Documents are numbered 0..n-1 and never removed: the id maps are the identity, and
    // field lengths are rows of the flat array. MiniSearch only calls has/get on these.
    const count = data.docs.length;
    const ids = { has: (id: number) => id >= 0 && id < count, get: (id: number) => (id >= 0 && id < count ? id : undefined), size: count };
    const rows: number[][] = new Array(count);
    for (let doc = 0; doc < count; doc++) rows[doc] = data.fieldLength.slice(doc * width, doc * width + width);
    index._documentIds = ids as unknown as Map<number, number>;
    index._idToShortId = ids as unknown as Map<number, number>;
    index._fieldLength = { get: (id: number) => rows[id], has: (id: number) => id >= 0 && id < count } as unknown as Map<number, number[]>;
    // Results carry no stored fields (nothing to copy for thousands of matches): the
    // engine reads type and sections from the packed rows, and unpacks only what it shows.
    index._storedFields = new Map();
    index.packed = data.docs;
    index.stored = new LazyStoredFields(data.docs);
    index.terms = data.terms;
    index.stemGroups = new Map(data.stems.map((stem, i) => [stem, data.stemTerms[i]!]));
    const { terms, postings } = data;
    for (let i = 0; i < terms.length; i++) index._index.set(terms[i]!, new LazyTermData(postings[i]!) as unknown as Map<number, Map<number, number>>);
    return index;
  }

  private packed: PackedDocument[] = [];
  private stored = new LazyStoredFields([]);
  private terms: string[] = [];
  private stemGroups = new Map<string, string>();

  /** Whether `term` is an indexed word. */
  hasTerm(term: string): boolean {
    return this._index.has(term);
  }

  /** The indexed words whose stem is `stem` (those sharing it with another word), or []. */
  wordsWithStem(stem: string): string[] {
    const encoded = this.stemGroups.get(stem);
    return encoded === undefined ? [] : decodeNumbers(encoded).map((i) => this.terms[i]!).filter(Boolean);
  }

  /** The stored fields of document `id`. */
  document(id: number): StoredDocument | undefined {
    return this.stored.get(id);
  }

  typeOf(id: number): string {
    return this.packed[id]?.[2] ?? '';
  }

  inSection(id: number, section: string): boolean {
    const sections = this.packed[id]?.[3];
    return !!sections && (sections === section || ` ${sections} `.includes(` ${section} `));
  }
}
