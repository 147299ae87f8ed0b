// Texts the build makes from shared data (the sitemap from every route, the host redirect
// files from every redirect), by a key of exactly what each is made from. Making them takes
// ~0.1 s at 4000 articles per language, for bytes that only change when a page is added,
// moved or redirected. One JSON file, rewritten with the texts this build used.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DerivedText } from '../emit/index.js';
import { keyOf } from './digest.js';
import { writeAtomically } from './atomic-write.js';

interface Stored {
  fingerprint: string;
  /** Name -> [key of its inputs, text]. */
  texts: Record<string, [key: string, text: string]>;
}

export class DerivedTextCache {
  private readonly used: Stored['texts'] = {};
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly fingerprint: string,
    private readonly stored: Stored['texts'],
  ) {}

  static async open(cacheDir: string, fingerprint: string): Promise<DerivedTextCache> {
    const file = path.join(cacheDir, 'build', 'derived-texts.json');
    let texts: Stored['texts'] = {};
    try {
      const stored = JSON.parse(await readFile(file, 'utf8')) as Stored;
      if (stored.fingerprint === fingerprint) texts = stored.texts;
    } catch {
      // No cache yet, or unreadable: start empty.
    }
    return new DerivedTextCache(file, fingerprint, texts);
  }

  readonly text: DerivedText = (name, inputs, make) => {
    const key = keyOf(this.fingerprint, name, ...inputs);
    const hit = this.stored[name];
    if (hit && hit[0] === key) return (this.used[name] = hit)[1];
    this.changed = true;
    const text = make();
    this.used[name] = [key, text];
    return text;
  };

  async save(): Promise<void> {
    if (!this.changed && Object.keys(this.used).length === Object.keys(this.stored).length) return;
    await writeAtomically(this.file, JSON.stringify({ fingerprint: this.fingerprint, texts: this.used } satisfies Stored));
  }
}
