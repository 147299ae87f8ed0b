// Parsed front matter by the digest of the file's text. Parsing YAML with line positions is
// most of what loading costs; a file whose bytes are unchanged parses to the same result,
// so a warm build takes it from here. Only successful parses are kept (errors are cheap to
// find again and must be reported every time). One JSON file, rewritten with the entries
// the build used, so it never grows past the site.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readFrontMatter, type FrontMatter, type FrontMatterError } from '../content/frontmatter.js';
import { digestOf } from './digest.js';

interface Entry {
  data: Record<string, unknown>;
  /** Where the body starts in the normalised text. */
  bodyOffset: number;
  bodyLine: number;
  fieldLines: Record<string, number>;
}

interface Stored {
  format: 1;
  fingerprint: string;
  entries: Record<string, Entry>;
}

/** readFrontMatter's normalisation: the body offset counts in this text. */
const normalise = (source: string) => source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

export class FrontMatterCache {
  private readonly used: Record<string, Entry> = {};
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly fingerprint: string,
    private readonly entries: Readonly<Record<string, Entry>>,
  ) {}

  static async open(cacheDir: string, fingerprint: string): Promise<FrontMatterCache> {
    const file = path.join(cacheDir, 'build', 'front-matter.json');
    let entries: Record<string, Entry> = {};
    try {
      const stored = JSON.parse(await readFile(file, 'utf8')) as Stored;
      if (stored.format === 1 && stored.fingerprint === fingerprint) entries = stored.entries;
    } catch {
      // No cache yet, or unreadable: start empty.
    }
    return new FrontMatterCache(file, fingerprint, entries);
  }

  /** readFrontMatter, answered from the cache when this exact text was parsed before. */
  read(source: string): FrontMatter | FrontMatterError {
    const digest = digestOf(source);
    const hit = this.entries[digest];
    if (hit) {
      this.used[digest] = hit;
      // The data object is shared with the cache: validation only reads it.
      return { data: hit.data, body: normalise(source).slice(hit.bodyOffset), bodyLine: hit.bodyLine, fieldLines: hit.fieldLines };
    }
    const parsed = readFrontMatter(source);
    if (!('message' in parsed)) {
      this.changed = true;
      this.used[digest] = { data: parsed.data, bodyOffset: normalise(source).length - parsed.body.length, bodyLine: parsed.bodyLine, fieldLines: parsed.fieldLines };
    }
    return parsed;
  }

  /** Writes the entries this build read, when any was new or some old one went unused. */
  async save(): Promise<void> {
    if (!this.changed && Object.keys(this.used).length === Object.keys(this.entries).length) return;
    const stored: Stored = { format: 1, fingerprint: this.fingerprint, entries: this.used };
    await mkdir(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}`;
    await writeFile(temp, JSON.stringify(stored));
    await rename(temp, this.file);
  }
}
