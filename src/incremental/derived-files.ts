// Files the build makes from shared data (the sitemap from every route, the host redirect
// files from every redirect, the favicon from its SVG), by a key of exactly what each is
// made from. Making them takes ~0.1 s at 4000 articles per language, for bytes that only
// change when a page is added, moved or redirected. Only the digest of each file is kept:
// when the key matches and the output folder still holds those bytes (the sink's `keep`),
// the file is neither made nor written. Keeping the texts themselves cost a 9.5 MB JSON
// file to read and parse on every build.
import path from 'node:path';
import type { DerivedFile } from '../build/emit/index.js';
import type { OutputSink } from '../build/emit/sink.js';
import { derivedFileKey } from './keys.js';
import { digestOf } from '../files/digest.js';
import * as z from 'zod';
import { encodeCacheFile, readCacheFile, writeCacheFile } from '../files/cache-file.js';
import { accepts } from '../files/payload-shape.js';

const KIND = 'derived-files';

const storedSchema = z.object({
  /** Output file -> [key of its inputs, digest of its bytes]. */
  files: z.record(z.string(), z.tuple([z.string(), z.string()])),
});
type Stored = z.infer<typeof storedSchema>;
const isStored = accepts(storedSchema);

export class DerivedFileCache {
  private readonly used: Stored['files'] = {};
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly fingerprint: string,
    private readonly stored: Stored['files'],
  ) {}

  static async open(cacheDir: string, fingerprint: string): Promise<DerivedFileCache> {
    const file = path.join(cacheDir, 'build', 'derived-files.bin');
    const stored = await readCacheFile<Stored>(file, KIND, fingerprint, isStored);
    return new DerivedFileCache(file, fingerprint, stored?.files ?? {});
  }

  /** Writes derived files through `sink`, making only those whose inputs changed or whose bytes left the output. */
  writer(sink: OutputSink): DerivedFile {
    return async (rel, inputs, make) => {
      const key = derivedFileKey(this.fingerprint, rel, inputs);
      const hit = this.stored[rel];
      if (hit && hit[0] === key && sink.keep?.(rel, hit[1])) {
        this.used[rel] = hit;
        return;
      }
      const data = await make();
      const digest = digestOf(data);
      this.used[rel] = [key, digest];
      if (!hit || hit[0] !== key || hit[1] !== digest) this.changed = true;
      await sink.write(rel, data, digest);
    };
  }

  async save(): Promise<void> {
    if (!this.changed && Object.keys(this.used).length === Object.keys(this.stored).length) return;
    await writeCacheFile(this.file, encodeCacheFile(KIND, this.fingerprint, { files: this.used } satisfies Stored));
  }
}
