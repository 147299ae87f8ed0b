// Files the build makes from shared data (the sitemap from every route, the host redirect
// files from every redirect, the favicon from its SVG), by a key of exactly what each is
// made from: their bytes change only when a page is added, moved or redirected. Only the
// digest of each file is kept (the texts would be a large file to read on every build): when
// the key matches and the output folder still holds those bytes (the sink's `keep`), the file
// is neither made nor written.
import type { DerivedFile } from '../build/emit/index.js';
import type { BuildSink } from '../build/emit/sink.js';
import { derivedFileKey } from './keys.js';
import { digestOf } from '../files/digest.js';
import { isString, recordOf, type Guard } from '../files/payload-shape.js';
import { memoKind, Records, type Memo } from './memo.js';

/** An output file's record: the key of its inputs, the digest of its bytes. */
type Derived = [key: string, digest: string];

const isDerived: Guard<Derived> = (v): v is Derived => Array.isArray(v) && v.length === 2 && isString(v[0]) && isString(v[1]);
const DERIVED_FILES = memoKind('derived-files', recordOf(isDerived));

export class DerivedFileCache {
  private constructor(
    private readonly records: Records<Derived>,
    private readonly fingerprint: string,
  ) {}

  static async open(memo: Memo): Promise<DerivedFileCache> {
    return new DerivedFileCache(await Records.open(memo, DERIVED_FILES), memo.fingerprint);
  }

  /** Writes derived files through `sink`, making only those whose inputs changed or whose bytes left the output. */
  writer(sink: BuildSink): DerivedFile {
    return async (rel, inputs, make) => {
      const key = derivedFileKey(this.fingerprint, rel, inputs);
      const hit = this.records.peek(rel);
      if (hit && hit[0] === key && sink.keep(rel, hit[1])) {
        this.records.recall(rel);
        return;
      }
      const data = await make();
      const digest = digestOf(data);
      this.records.set(rel, [key, digest]);
      await sink.write(rel, data, digest);
    };
  }

  save(): Promise<void> {
    return this.records.save();
  }
}
