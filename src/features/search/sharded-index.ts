// The index as the search page loads it: the base file, then only the files a query needs
// (codec.ts describes them). An `IndexStore` (index-store.ts).
//
// MiniSearch needs every term to find prefixes and typos, and the postings of the terms a
// query reaches to score it: for 4000 articles its whole JSON is megabytes, with one Map
// per term and field rebuilt on load. Here the base lists the terms; for each query,
// `reach` finds the terms its words can reach (the word, the words it starts, the words
// within its typo distance, its stem forms), their shards are fetched, and
// `MiniSearch.loadJS` (what `loadJSON` calls after parsing) loads a MiniSearch holding just
// those postings, with the whole index's document count and average field lengths. It
// finds the same terms the whole index would (a term outside `reach` is never one a search
// for these words reaches), so it answers with the same documents and scores. MiniSearch
// does all the matching (prefixes, Levenshtein), BM25 scoring and AND/OR logic, through its
// public API only. Isomorphic: no Node, no DOM.
import MiniSearch, { type AsPlainObject } from 'minisearch';
import { decodeNumbers, decodeTermPostings, docFile, docFileLines, IndexPartError, isIndexBase, parseDocLine, type FetchPart, type IndexBase, type StoredRow, type TermPostings } from './codec.js';
import type { IndexStore, StoredDocument, WordQuery } from './index-store.js';
import { TermList } from './term-list.js';

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

export class ShardedIndex implements IndexStore {
  /** The index of a base file's JSON; `fetchPart` fetches its other files. Throws when `base` is not one. */
  static open(base: unknown, fetchPart: FetchPart): ShardedIndex {
    if (!isIndexBase(base)) throw new Error('not an ir-site search index (or one of another format version)');
    return new ShardedIndex(base, fetchPart);
  }

  /** The index with every file at hand (a build's output, in Node): nothing to fetch. */
  static withFiles(base: unknown, files: ReadonlyMap<string, string>): ShardedIndex {
    const index = ShardedIndex.open(base, (file) => Promise.reject(new Error(`no file ${file}`)));
    for (const [file, text] of files) index.addPart(file, text);
    return index;
  }

  readonly build: string;
  private readonly terms: TermList;
  /** Per term, the shard holding its postings. */
  private readonly termShard: Uint32Array;
  /** Per shard, its postings once fetched (one string per term). */
  private readonly shardPostings: (string[] | undefined)[];
  private readonly shardLoads = new Map<number, Promise<void>>();
  /** Per stored-documents file, its rows once fetched (text until a result shows one). */
  private readonly docRows: ((string | StoredRow)[] | undefined)[];
  private readonly docLoads = new Map<number, Promise<void>>();
  private readonly stemGroups: Map<string, string>;
  /** Per document, its field lengths (made on the first query). */
  private fieldLengths: number[][] | null = null;
  /** Per term, once a query has reached it: its postings as MiniSearch's JSON holds them, and the documents in them. */
  private readonly entries: ({ postings: TermPostings; docs: number[] } | undefined)[];
  /**
   * The last MiniSearch made and the terms it holds. A query whose terms are all among them
   * reuses it (a filter, "more results", typing on from `di` to `divid`): the other terms it
   * holds are ones this query does not reach, so its answer is the same.
   */
  private last: { terms: ReadonlySet<number>; index: MiniSearch } | null = null;

  private constructor(
    private readonly base: IndexBase,
    private readonly fetchPart: FetchPart,
  ) {
    this.build = [base.docHash, ...base.shards.map(([, file]) => file)].join(' ');
    this.terms = new TermList(base.terms);
    this.termShard = new Uint32Array(base.terms.length);
    base.shards.forEach(([first], shard) => this.termShard.fill(shard, first, base.shards[shard + 1]?.[0] ?? base.terms.length));
    this.shardPostings = new Array(base.shards.length);
    this.docRows = new Array(Math.ceil(base.docClass.length / base.docBlock));
    this.stemGroups = new Map(base.stems.map((stem, i) => [stem, base.stemTerms[i]!]));
    this.entries = new Array(base.terms.length);
  }

  get locale(): string {
    return this.base.locale;
  }

  get documentCount(): number {
    return this.base.documentCount;
  }

  hasTerm(term: string): boolean {
    return this.terms.has(term);
  }

  wordsWithStem(stem: string): string[] {
    const encoded = this.stemGroups.get(stem);
    return encoded === undefined ? [] : decodeNumbers(encoded).map((i) => this.base.terms[i]!).filter(Boolean);
  }

  /** The terms (indexes, ascending) a search for these words can reach. */
  reach(words: readonly WordQuery[]): number[] {
    const reached = new Set<number>();
    for (const w of words) {
      const [from, to] = this.terms.prefixRange(w.word);
      for (let i = from; i < to; i++) reached.add(i);
      if (w.fuzzy > 0) for (const i of this.terms.fuzzy(w.word, w.fuzzy).keys()) reached.add(i);
      for (const form of w.forms) {
        const i = this.terms.indexOf(form);
        if (i >= 0) reached.add(i);
      }
    }
    return [...reached].sort((a, b) => a - b);
  }

  async load(words: readonly WordQuery[]): Promise<void> {
    const shards = new Set(this.reach(words).map((term) => this.termShard[term]!));
    await Promise.all([...shards].map((shard) => this.loadShard(shard)));
  }

  miniSearch(words: readonly WordQuery[]): MiniSearch {
    const reached = this.reach(words);
    if (this.last && reached.every((term) => this.last!.terms.has(term))) return this.last.index;
    const fieldLengths = (this.fieldLengths ??= this.rows());
    const index: AsPlainObject['index'] = [];
    const count = this.base.docClass.length;
    const present = new Uint8Array(count);
    // Descending: MiniSearch's tree (SearchableMap) then lists a prefix's terms in ascending
    // order, whatever other terms it holds, so a document's score adds them up in one order
    // (to the last digit) whether this MiniSearch is new or reused.
    for (let k = reached.length - 1; k >= 0; k--) {
      const term = reached[k]!;
      const { postings, docs } = (this.entries[term] ??= this.decode(term));
      for (const doc of docs) present[doc] = 1;
      index.push([this.base.terms[term]!, postings]);
    }
    // Only the documents these postings name: MiniSearch looks up no other.
    const documentIds: Record<number, number> = {};
    const fieldLength: Record<number, number[]> = {};
    for (let doc = 0; doc < count; doc++) {
      if (present[doc]) {
        documentIds[doc] = doc;
        fieldLength[doc] = fieldLengths[doc]!;
      }
    }
    // What `toJSON` would write of a MiniSearch holding these terms (with the whole index's
    // counts and averages), which `loadJSON` would load after parsing it.
    const plain: AsPlainObject = {
      documentCount: this.base.documentCount,
      nextId: this.base.docClass.length,
      documentIds,
      fieldIds: Object.fromEntries(this.base.fields.map((f, i) => [f, i])),
      fieldLength,
      averageFieldLength: [...this.base.averageFieldLength],
      storedFields: {},
      dirtCount: 0,
      index,
      serializationVersion: 2,
    };
    const loaded = MiniSearch.loadJS(plain, { fields: [...this.base.fields], storeFields: [] });
    this.last = { terms: new Set(reached), index: loaded };
    return loaded;
  }

  /** Term `term`'s postings, `{ field: { doc: tf } }`, and its documents; throws when its shard is not loaded. */
  private decode(term: number): { postings: TermPostings; docs: number[] } {
    const shard = this.termShard[term]!;
    const texts = this.shardPostings[shard];
    if (!texts) throw new Error(`search index postings of "${this.base.terms[term]}" are not loaded (prepare the query first)`);
    return decodeTermPostings(texts[term - this.base.shards[shard]![0]]!);
  }

  private rows(): number[][] {
    const width = this.base.fields.length;
    const flat = this.base.fieldLength;
    return Array.from({ length: this.base.docClass.length }, (_, doc) => flat.slice(doc * width, doc * width + width));
  }

  loadDocuments(ids?: Iterable<number>): Promise<void> {
    const blocks = new Set<number>();
    if (ids === undefined) for (let block = 0; block < this.docRows.length; block++) blocks.add(block);
    else for (const id of ids) blocks.add(Math.floor(id / this.base.docBlock));
    return Promise.all([...blocks].map((block) => this.loadDocBlock(block))).then(() => undefined);
  }

  document(id: number): StoredDocument {
    const cls = this.base.classes[this.base.docClass[id] ?? -1];
    const rows = this.docRows[Math.floor(id / this.base.docBlock)];
    let row = rows?.[id % this.base.docBlock];
    if (!cls || !rows || row === undefined) throw new Error(`search index document ${id} is not loaded (prepare the query first)`);
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

  /** Installs a file (its text, as `fetchPart` returns it); throws when it is not what the base expects. */
  addPart(file: string, text: string): void {
    const shard = this.base.shards.findIndex(([, name]) => name === file);
    if (shard >= 0) {
      const expected = (this.base.shards[shard + 1]?.[0] ?? this.base.terms.length) - this.base.shards[shard]![0];
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

  private fetchOnce(loads: Map<number, Promise<void>>, key: number, file: string): Promise<void> {
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
    return this.fetchOnce(this.shardLoads, shard, this.base.shards[shard]![1]);
  }

  private loadDocBlock(block: number): Promise<void> {
    if (this.docRows[block]) return Promise.resolve();
    return this.fetchOnce(this.docLoads, block, docFile(this.base, block));
  }
}
