// Parsed front matter and YAML files by the digest of the file's text, and images' pixel sizes by file. Parsing YAML with line positions is
// most of what loading costs; a file whose bytes are unchanged parses to the same result,
// so a warm build takes it from here, with the digest of its body (page keys use it). Only
// successful parses are kept (errors are cheap to find again and must be reported every
// time). One JSON file, rewritten with the entries the build used, so it never grows past
// the site.
//
// Hashing every file's text on every build is waste, so the digest of a file whose size,
// modification time and change time are those recorded is taken as recorded, as git does (the
// change time catches an edit whose tool put the modification time back). Only when that time
// is safely in the past: a file written in the same clock tick as the read that recorded it
// could change again without its time moving (git's "racily clean" case), so a file modified
// less than RACY_MS (racy.ts) before that build started is hashed again.
//
// Such a file need not even be read: `recall` answers from its size and times alone, and its
// body is read only if something asks for it (a page to render, a search document to make).
import * as z from 'zod';
import type { FrontMatter, FrontMatterError, ParsedYaml, RecalledFrontMatter, SourceFile } from '../build/content/frontmatter.js';
import { normaliseText } from '../build/content/source-text.js';
import { frontMatterParsers, type ImageSize, type ImageSizeReader } from '../build/content/load.js';
import { digestOf } from '../files/digest.js';
import { accepts, checked, isNumber, isPlainObject, isString, recordOf, type AllFields, type Guard, type Unchecked } from '../files/payload-shape.js';
import { settledBefore } from './racy.js';
import { sameTimes } from '../files/file-times.js';
import { worthRewriting } from './rewrite-policy.js';
import { memoKind, type Memo } from './memo.js';

/** A parse without its body, which starts at `bodyOffset` in the normalised text (normaliseText). */
type Entry = RecalledFrontMatter;

/** What a file was when read: size, modification and change times (ms), and the digest of its text. */
type FileRecord = [size: number, mtimeMs: number, ctimeMs: number, digest: string];

/**
 * An image's pixel size (null: none) as the loader read it, by the file's size and time:
 * reading sizes would load libvips on every build, for files that rarely change.
 */
type SizeRecord = [size: number, mtimeMs: number, ctimeMs: number, width: number | null, height: number | null];

// One record per content file: typeof tests (payload-shape.ts), written out (a warm build runs
// them once, mostly before V8 optimises them, when composed checks are slower). `data` is what the YAML parsed to, any object: validation checks it as it checks a fresh parse.
function isEntry(value: unknown): value is Entry {
  if (!isPlainObject(value)) return false;
  const { data, bodyLine, fieldLines, bodyDigest, matterDigest, bodyOffset } = value as Unchecked<Entry>;
  return (
    isPlainObject(data) &&
    isNumber(bodyLine) &&
    isLineRecord(fieldLines) &&
    isString(bodyDigest) &&
    isString(matterDigest) &&
    // Where the body starts in the text: anything else would cut it elsewhere.
    Number.isSafeInteger(bodyOffset) &&
    (bodyOffset as number) >= 0
  );
}
true satisfies AllFields<Entry, 'data' | 'bodyLine' | 'fieldLines' | 'bodyDigest' | 'matterDigest' | 'bodyOffset'>;

const isLineRecord = recordOf(isNumber);
/** `data` is any value a YAML file parses to: validation checks it as it checks a fresh parse. */
const isParsedYaml: Guard<ParsedYaml> = (v): v is ParsedYaml => isPlainObject(v) && 'data' in v && isLineRecord(v['lines']);
const isFileRecord: Guard<FileRecord> = (v): v is FileRecord => Array.isArray(v) && v.length === 4 && isNumber(v[0]) && isNumber(v[1]) && isNumber(v[2]) && isString(v[3]);
const isSize = (v: unknown): v is number | null => v === null || isNumber(v);
const isSizeRecord: Guard<SizeRecord> = (v): v is SizeRecord => Array.isArray(v) && v.length === 5 && isNumber(v[0]) && isNumber(v[1]) && isNumber(v[2]) && isSize(v[3]) && isSize(v[4]);

const storedSchema = z.object({
  /** When the build that recorded `files` and `sizes` started reading (ms since the epoch). */
  readSince: z.number(),
  entries: checked(recordOf(isEntry)),
  files: checked(recordOf(isFileRecord)),
  sizes: checked(recordOf(isSizeRecord)),
  /** Parsed YAML files (portfolio, site, navigation, redirects) by the digest of their text. */
  yaml: checked(recordOf(isParsedYaml)),
});
type Stored = z.infer<typeof storedSchema>;
const FRONT_MATTER = memoKind('front-matter', accepts(storedSchema));

export class FrontMatterCache {
  private readonly used: Record<string, Entry> = {};
  private readonly seen: Record<string, FileRecord> = {};
  private readonly sizesSeen: Record<string, SizeRecord> = {};
  private readonly yamlUsed: Record<string, ParsedYaml> = {};
  /** The stored entries' YAML by their front matter's digest, made at the first file not recorded. */
  private byMatter: Map<string, ParsedYaml> | undefined;
  /** Records this build made anew (files read and hashed, parses, image sizes). */
  private news = 0;
  private readonly readSince = Date.now();

  private constructor(
    private readonly memo: Memo,
    private readonly stored: Stored,
  ) {}

  static async open(memo: Memo): Promise<FrontMatterCache> {
    const stored = await memo.read(FRONT_MATTER);
    return new FrontMatterCache(memo, stored ?? { entries: {}, files: {}, sizes: {}, yaml: {}, readSince: 0 });
  }

  /** The file is as recorded (size, both times), and was already so safely before the recording build began. */
  private trusted(record: [size: number, mtimeMs: number, ctimeMs: number, ...unknown[]] | undefined, file: SourceFile): boolean {
    return sameTimes(record, file) && settledBefore(file.mtimeMs, this.stored.readSince);
  }

  private digestOf(source: string, file: SourceFile | undefined): string {
    const record = file ? this.stored.files[file.path] : undefined;
    const trusted = file !== undefined && this.trusted(record, file);
    const digest = trusted ? record![3] : digestOf(source);
    if (file) this.seen[file.path] = [file.size, file.mtimeMs, file.ctimeMs, digest];
    if (file && !trusted) this.news++;
    return digest;
  }

  /** readFrontMatter, answered from the cache when this exact text was parsed before. */
  async read(source: string, file?: SourceFile): Promise<FrontMatter | FrontMatterError> {
    const digest = this.digestOf(source, file);
    const hit = this.stored.entries[digest];
    if (hit) {
      this.used[digest] = hit;
      // The data object is shared with the cache: validation only reads it.
      const { data, bodyLine, fieldLines, bodyDigest, matterDigest } = hit;
      return { data, body: normaliseText(source).slice(hit.bodyOffset), bodyLine, fieldLines, bodyDigest, matterDigest };
    }
    // A new text, often with a front matter seen before (a body edit): its YAML is taken from
    // the entry that has it, and the YAML parser is loaded only for a front matter not seen.
    const { matterBlock, frontMatterOf } = await import('../build/content/matter-block.js');
    const text = normaliseText(source);
    const block = matterBlock(text);
    if ('message' in block) return block;
    const yaml = this.knownYaml(block.matterDigest) ?? (await frontMatterParsers()).parseMatterYaml(text, block);
    const parsed = frontMatterOf(text, block, yaml);
    if ('message' in parsed) return parsed;
    this.news++;
    const { body, ...known } = parsed;
    this.used[digest] = { ...known, bodyOffset: normaliseText(source).length - body.length };
    return parsed;
  }

  /** The YAML of a front matter recorded with this digest (FrontMatter.matterDigest), by any file. */
  private knownYaml(matterDigest: string): ParsedYaml | undefined {
    this.byMatter ??= new Map(Object.values(this.stored.entries).map((entry) => [entry.matterDigest, { data: entry.data, lines: entry.fieldLines }]));
    return this.byMatter.get(matterDigest);
  }

  /**
   * The parse of a file that is as an earlier build recorded it (size and time, not racily
   * recent), without reading it; null when it must be read. The body is read from the file
   * on first use: a file changed since it was statted is read as it is then, and the next
   * build, seeing a new time, parses it again.
   */
  recall(file: SourceFile): RecalledFrontMatter | null {
    const record = this.stored.files[file.path];
    if (!this.trusted(record, file)) return null;
    const hit = this.stored.entries[record![3]];
    if (!hit) return null;
    this.seen[file.path] = record!;
    this.used[record![3]] = hit;
    return {
      data: hit.data,
      bodyLine: hit.bodyLine,
      fieldLines: hit.fieldLines,
      bodyDigest: hit.bodyDigest,
      matterDigest: hit.matterDigest,
      bodyOffset: hit.bodyOffset,
    };
  }

  /**
   * parseYamlText(text), answered from the cache when this exact text was parsed before, so
   * that a warm build need not load the `yaml` package. A copy each way, as the caller may
   * change what it gets. A text that does not parse throws, and is not kept.
   */
  async parseYaml(text: string): Promise<ParsedYaml> {
    const digest = digestOf(text);
    const hit = this.stored.yaml[digest];
    if (hit) {
      this.yamlUsed[digest] = hit;
      return structuredClone(hit);
    }
    const parsed = (await frontMatterParsers()).parseYamlText(text);
    this.yamlUsed[digest] = structuredClone(parsed);
    this.news++;
    return parsed;
  }

  /** `measure`'s answer for this image, taken as recorded when the file is as it was then. */
  async imageSize(file: SourceFile, measure: ImageSizeReader): Promise<ImageSize> {
    const record = this.stored.sizes[file.path];
    if (this.trusted(record, file)) {
      this.sizesSeen[file.path] = record!;
      return record![3] === null || record![4] === null ? {} : { width: record![3], height: record![4] };
    }
    const size = await measure(file);
    this.sizesSeen[file.path] = [file.size, file.mtimeMs, file.ctimeMs, size.width ?? null, size.height ?? null];
    this.news++;
    return size;
  }

  /**
   * Writes the entries, files and sizes this build read, unless little changed
   * (rewrite-policy.ts: an edit to an article or two does not rewrite the file; more changes, or
   * a cache made by other code, do). `always`: write it whenever anything changed.
   */
  async save({ always = false } = {}): Promise<void> {
    const count = (o: object) => Object.keys(o).length;
    const before = count(this.stored.entries) + count(this.stored.files) + count(this.stored.sizes) + count(this.stored.yaml);
    const now = count(this.used) + count(this.seen) + count(this.sizesSeen) + count(this.yamlUsed);
    // Records no longer used: every stored one this build did not use, but for those it replaced.
    const unused = Math.max(0, before - (now - this.news));
    if (this.news === 0 && unused === 0) return;
    if (!always && !worthRewriting({ stored: before, fresh: this.news, unused })) return;
    const stored: Stored = { readSince: this.readSince, entries: this.used, files: this.seen, sizes: this.sizesSeen, yaml: this.yamlUsed };
    await this.memo.write(FRONT_MATTER, stored);
  }
}
