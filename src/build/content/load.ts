// Stage 1: read every content, locale and config file. IO only; no judgement beyond
// "is this readable YAML". Every problem is collected, none stops the others.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { plainFileTimes, timesOf, type FileTimes } from '../../files/file-times.js';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { ResolvedConfig } from '../config/resolve.js';
import { MAX_PART_BYTES } from './path-shape.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import type { FrontMatter, FrontMatterError, ParsedYaml, RecalledFrontMatter, SourceFile } from './frontmatter.js';
import { normaliseText, sameInHtmlAndJson } from './source-text.js';
import type { Collection, RawAsset, RawEntry, RawSite, RawYaml } from './raw.js';
import { jsonErrorPlace } from './json-place.js';
import { fieldLine, setFieldLine } from './field-line.js';
import { linkedOutside, realPathOr } from '../../files/real-path.js';
import { listFiles } from './list-files.js';
import { fillData, fillText, identityAssets, identityDigest, identityTextOf, variantOf, type IdentityText, type TextProblem } from './identity.js';
import { byText } from '../../shared/order.js';
import { goneAsNull } from '../../files/gone.js';

export const ASSET_EXTENSIONS = ['pdf', 'jpg', 'jpeg', 'png', 'webp', 'svg', 'avif', 'gif'];
const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp', 'avif', 'gif', 'svg'];
const ENTRY_PATTERN = /^(pages|articles|team)\/([^/]+)\/([^/]+)\.md$/;

export interface ImageSize {
  width?: number;
  height?: number;
}

/** An image's pixel size: readImageSize, or the build cache in front of it (by the file's size and time). */
export type ImageSizeReader = (file: SourceFile) => Promise<ImageSize>;

/**
 * Reads only the image header; a file sharp cannot read gets no size (the image stage reports
 * it). sharp (libvips) loads on the first call: a build whose image sizes are cached never loads it.
 */
export async function readImageSize(file: SourceFile): Promise<ImageSize> {
  const { default: sharp } = await import('sharp');
  try {
    const meta = await sharp(file.path).metadata();
    const { width, height } = meta.autoOrient ?? meta; // as shown: EXIF orientation applied
    return { width, height };
  } catch {
    return {};
  }
}

export interface LoadResult {
  raw: RawSite;
  diagnostics: Diagnostic[];
}

const toPosix = (p: string) => p.split(path.sep).join('/');

/**
 * The parsers (gray-matter and yaml), loaded at the first file whose front matter the build
 * cache cannot answer: a build whose every file, or every front matter, is in the cache does
 * without loading yaml.
 */
export const frontMatterParsers = () => import('./frontmatter.js');

async function yamlProblem(file: string, text: string, error: unknown): Promise<Diagnostic> {
  const { explainYamlError } = await import('./yaml-errors.js');
  const problem = explainYamlError(text, error);
  if (!problem) return diagnostic('content/invalid-yaml', { file, message: `invalid YAML: ${(error as Error).message}` });
  return diagnostic('content/invalid-yaml', {
    file,
    ...problem,
    excerpt: text.split('\n')[problem.line - 1],
    message: `invalid YAML: ${problem.message}`,
  });
}

/** The line each key of a flat JSON object (a locale file) starts on. */
function jsonKeyLines(text: string): Record<string, number> {
  const lines: Record<string, number> = {};
  text.split('\n').forEach((line, i) => {
    const m = /^\s*"((?:[^"\\]|\\.)*)"\s*:/.exec(line);
    if (!m) return;
    let key: string;
    try {
      key = JSON.parse(`"${m[1]}"`) as string;
    } catch {
      return;
    }
    if (fieldLine(lines, key) === undefined) setFieldLine(lines, key, i + 1);
  });
  return lines;
}

type EntryPlace = { collection: Collection; key: string; locale: string; file: string; variant?: string };

/**
 * Where an entry file is, from its content-relative path: its collection, key and locale, and
 * its site-relative name (`contentDir`: the content folder relative to the root, '/'-separated).
 * Plain string work, not path.relative: it runs for every entry of every build.
 */
function placeOf(relToContent: string, contentDir: string): EntryPlace {
  const match = ENTRY_PATTERN.exec(relToContent);
  const file = contentDir === '' ? relToContent : `${contentDir}/${relToContent}`;
  if (!match) throw new Error(`${file} is not an entry file`);
  const [, collection, folder, stem] = match as unknown as [string, Collection, string, string];
  // The key as typed (NFC), however the file system composes its name (macOS: NFD): it is in addresses.
  const key = folder.normalize('NFC');
  // `en.larkspur.md`: larkspur's own variant of `en.md` (content/identity.ts).
  const { locale, variant } = variantOf(stem);
  return { collection, key, locale, file, ...(variant === undefined ? {} : { variant }) };
}

/** The content folder relative to the site's root, '/'-separated ('' when they are the same). */
const contentDirOf = (config: ResolvedConfig) => toPosix(path.relative(config.root, config.dirs.content));

/** Where an entry file is, from its absolute path. */
const entryPlace = (config: ResolvedConfig, abs: string): EntryPlace => placeOf(toPosix(path.relative(config.dirs.content, abs)), contentDirOf(config));

/** One entry file (`content/articles/<key>/<locale>.md`), or every problem that keeps it out. */
export async function readEntryFile(config: ResolvedConfig, abs: string, parse: FrontMatterReader = readFrontMatter, place = entryPlace(config, abs)): Promise<(RawEntry & { body: string }) | Diagnostic[]> {
  const { collection, key, locale, file, variant } = place;
  const { text, ...times } = readWithStat(abs);
  const parsed = await parse(text, { path: abs, ...times });
  if ('message' in parsed) return [diagnostic('content/invalid-yaml', { file, ...parsed })];
  const ctx = identityTextOf(config);
  const problems: TextProblem[] = [];
  const data = fillData(parsed.data, ctx, locale, problems);
  const body = fillText(parsed.body, ctx, locale);
  if (problems.length + body.problems.length > 0) {
    const lineOf = (problem: TextProblem) => (problem.field !== undefined ? fieldLine(parsed.fieldLines, problem.field) : problem.line === 0 ? undefined : parsed.bodyLine + problem.line - 1);
    return [...problems, ...body.problems].map((problem) => identityProblem(file, lineOf(problem), problem));
  }
  return {
    collection,
    key,
    locale,
    file,
    ...(variant === undefined ? {} : { variant }),
    ...parsed,
    data,
    body: body.text,
    bodyDigest: identityDigest(parsed.bodyDigest, ctx),
  };
}

const identityProblem = (file: string, line: number | undefined, problem: TextProblem): Diagnostic =>
  diagnostic('content/identity-text', { file, line, ...(problem.field !== undefined && { field: problem.field }), message: problem.message, hint: problem.hint });

/**
 * An entry file the build cache knows by its size and time (`recall`), without reading it
 * (`body` null: the build reads it with readEntryBody for the pages it renders). Null when the
 * file must be read.
 */
function recallEntryFile(abs: string, place: EntryPlace, recall: FrontMatterRecall, ctx: IdentityText, walked: WalkedContent | undefined): RawEntry | null {
  const state = walked ? walked.stateOf(abs) : plainFileTimes(abs);
  if (!state) return null;
  const known = recall({ path: abs, ...state });
  if (!known) return null;
  // A front matter with a token problem is read again, so the problem is reported as usual.
  const problems: TextProblem[] = [];
  const data = fillData(known.data, ctx, place.locale, problems);
  if (problems.length > 0) return null;
  // Written out rather than spread: 8000 of these per build, and one shape for all of them.
  return {
    collection: place.collection,
    key: place.key,
    locale: place.locale,
    file: place.file,
    ...(place.variant === undefined ? {} : { variant: place.variant }),
    data,
    body: null,
    bodyOffset: known.bodyOffset,
    bodyLine: known.bodyLine,
    fieldLines: known.fieldLines,
    bodyDigest: identityDigest(known.bodyDigest, ctx),
    matterDigest: known.matterDigest,
  };
}

/** The body of an entry file the build cache recalled without reading (RawEntry.bodyOffset). */
export function readEntryBody(root: string, file: string, bodyOffset: number): string {
  return normaliseText(readFileSync(path.join(root, file), 'utf8')).slice(bodyOffset);
}

/** Reused for the read that finds a file's end: one allocation, not one per file. */
const probe = Buffer.allocUnsafe(4096);

/**
 * A file's text with its size and modification time, from the same open file.
 * Synchronous: thousands of small files read faster this way than through promises. The
 * same calls readFileSync makes (open, fstat, read, close), with the fstat kept.
 */
function readWithStat(abs: string): FileTimes & { text: string } {
  const fd = openSync(abs, 'r');
  try {
    const stats = fstatSync(fd);
    const size = stats.size;
    const buffer = Buffer.allocUnsafe(size);
    let total = 0;
    while (total < size) {
      const n = readSync(fd, buffer, total, size - total, null);
      if (n === 0) break; // shrunk since fstat
      total += n;
    }
    // Grown since fstat: read the rest too.
    const more: Buffer[] = [];
    for (let n = readSync(fd, probe, 0, probe.length, null); n > 0; n = readSync(fd, probe, 0, probe.length, null)) more.push(Buffer.from(probe.subarray(0, n)));
    const bytes = more.length === 0 ? buffer.subarray(0, total) : Buffer.concat([buffer.subarray(0, total), ...more]);
    return { text: bytes.toString('utf8'), ...timesOf(stats) };
  } finally {
    closeSync(fd);
  }
}

/** Whether a content-relative path names an entry file. */
export const isEntryPath = (relToContent: string) => ENTRY_PATTERN.test(relToContent);

/** Parses a file's front matter: readFrontMatter, or the build cache in front of it (which may use `file` to skip hashing it). */
export type FrontMatterReader = (source: string, file?: SourceFile) => FrontMatter | FrontMatterError | Promise<FrontMatter | FrontMatterError>;

const readFrontMatter: FrontMatterReader = async (source) => (await frontMatterParsers()).readFrontMatter(source);
const parseYamlText = async (text: string) => (await frontMatterParsers()).parseYamlText(text);

/** The content folder's files, walked before the load (build/up-to-date.ts, walkedContent). */
export interface WalkedContent {
  /** Its files, as listFiles lists them (no link was found: the walk gives up on links). */
  files: readonly string[];
  /** A file's state when walked, by absolute path. */
  stateOf(abs: string): FileTimes | undefined;
}

/** The build cache's answer for a file it knows by size and time (front-matter-cache.ts `recall`), or null. */
export type FrontMatterRecall = (file: SourceFile) => RecalledFrontMatter | null;

export interface LoadHooks {
  /** Answers entry files without reading them when it can (the build cache); the rest are read and parsed. */
  recall?: FrontMatterRecall;
  /** Called once every asset is known (sorted), before the entries are read. */
  onAssets?: (assets: readonly RawAsset[]) => void;
  /** Reads an image's pixel size (default readImageSize). */
  imageSize?: ImageSizeReader;
  /** The content folder's files and their states as the build cache's walk found them just before: none is listed or stat-ed again. */
  walked?: WalkedContent;
  /** Parses a YAML file's text (default frontmatter.ts's parseYamlText); the build cache answers a text it parsed before. */
  parseYaml?: (text: string) => ParsedYaml | Promise<ParsedYaml>;
}

/** A locale's UI strings (`locales/<code>.json`), the identity's tokens filled in; problems go to `diagnostics`. */
async function readLocaleStrings(config: ResolvedConfig, code: string, identityText: IdentityText, diagnostics: Diagnostic[], inSite: (abs: string) => boolean) {
  const abs = path.join(config.dirs.locales, `${code}.json`);
  const file = toPosix(path.relative(config.root, abs));
  if (!inSite(abs)) return { locale: code, file, data: {} as unknown, keyLines: {}, unreadable: true as const };
  // A byte-order mark (Windows Notepad writes one) is no part of the JSON.
  const text = (await readFile(abs, 'utf8')).replace(/^\uFEFF/, '');
  const keyLines = jsonKeyLines(text);
  try {
    const problems: TextProblem[] = [];
    const data = fillData(sameInHtmlAndJson(JSON.parse(text) as unknown), identityText, code, problems);
    for (const problem of problems) diagnostics.push(identityProblem(file, problem.field === undefined ? undefined : fieldLine(keyLines, problem.field), problem));
    return { locale: code, file, data, keyLines };
  } catch (error) {
    diagnostics.push(diagnostic('locales/invalid-json', { file, ...jsonErrorPlace(text, error as Error), message: `invalid JSON: ${(error as Error).message}` }));
    return { locale: code, file, data: {} as unknown, keyLines, unreadable: true as const };
  }
}

/** Files next to one entry whose names are one name on a case-insensitive disk or host, or once composed (NFC): only one would be published. */
function nameConflicts(assets: readonly RawAsset[]): Diagnostic[] {
  const seen = new Map<string, RawAsset>();
  const found: Diagnostic[] = [];
  for (const asset of assets) {
    const folded = `${asset.dir}/${asset.name.toLowerCase()}`;
    const first = seen.get(folded);
    if (!first) seen.set(folded, asset);
    else {
      const [a, b] = [first, asset].map((x) => path.basename(x.absPath));
      found.push(diagnostic('content/name-conflict', { file: `${asset.dir}/${b}`, message: `"${a}" and "${b}" are one name on macOS and Windows disks and once published` }));
    }
  }
  return found;
}

/**
 * Files next to entries whose names are too long to publish: an image's sizes are named after it
 * with a width and a hash added, and a copy gets `.br` or `.gz`, under the file systems' 255 bytes.
 */
function longNames(assets: readonly RawAsset[]): Diagnostic[] {
  return assets
    .filter((asset) => Buffer.byteLength(asset.name) > MAX_PART_BYTES)
    .map((asset) =>
      diagnostic('content/name-too-long', {
        file: `${asset.dir}/${asset.name}`,
        message: `this file's name is ${Buffer.byteLength(asset.name)} bytes long, over ${MAX_PART_BYTES}: the files published from it are named after it, and file systems allow 255`,
      }),
    );
}

/** The site folder and one of its configured folders (which site.config.ts may put elsewhere), as real paths. */
const siteAndFolder = (root: string, folder: string) => [...new Set([root, folder].map((dir) => realPathOr(dir)))];

/** Whether a file may be read: false, reported in `diagnostics`, for a link out of the site and of its folder. */
export function siteGuard(root: string, diagnostics: Diagnostic[]): (abs: string) => boolean {
  return (abs) => {
    const target = linkedOutside(abs, siteAndFolder(root, path.dirname(abs)));
    if (target !== null) {
      diagnostics.push(diagnostic('content/outside-site', { file: toPosix(path.relative(root, abs)), message: `this link points outside the site folder, to ${target}` }));
    }
    return target === null;
  };
}

/**
 * The templates' stylesheet (`templates/styles.css`), or null: none, unreadable, or a link out of
 * the site. Line ends made `\n` and a BOM dropped: a Windows checkout (git's autocrlf) publishes
 * the same file, under the same name, as any other.
 */
export async function readStylesheet(config: ResolvedConfig, inSite: (abs: string) => boolean): Promise<RawSite['stylesheet']> {
  const abs = path.join(config.dirs.templates, 'styles.css');
  const read = inSite(abs) ? await readFile(abs, 'utf8').catch(() => null) : null;
  const text = read === null ? null : normaliseText(read);
  return text === null ? null : { file: toPosix(path.relative(config.root, abs)), text };
}

export async function loadContent(config: ResolvedConfig, parse: FrontMatterReader = readFrontMatter, hooks: LoadHooks = {}): Promise<LoadResult> {
  const { root } = config;
  const diagnostics: Diagnostic[] = [];
  const rel = (abs: string) => toPosix(path.relative(root, abs));
  const limit = pLimit(32);

  const inSite = siteGuard(root, diagnostics);

  async function readYaml(abs: string): Promise<RawYaml | null> {
    const file = rel(abs);
    if (!inSite(abs)) return null;
    let text: string;
    try {
      text = (await readFile(abs, 'utf8')).replace(/\r\n?/g, '\n');
    } catch {
      return null;
    }
    try {
      const { data, lines } = await (hooks.parseYaml ?? parseYamlText)(text);
      return { file, data, fieldLines: lines };
    } catch (error) {
      diagnostics.push(await yamlProblem(file, text, error));
      return null;
    }
  }

  const contentFiles = hooks.walked?.files ?? listFiles(config.dirs.content, {
    within: siteAndFolder(root, config.dirs.content),
    escaped: (relToContent, target) =>
      diagnostics.push(
        diagnostic('content/outside-site', {
          file: rel(path.join(config.dirs.content, relToContent)),
          message: `this link points outside the site folder, to ${target}`,
        }),
      ),
    broken: (relToContent, why) =>
      diagnostics.push(diagnostic('content/broken-symlink', { file: rel(path.join(config.dirs.content, relToContent)), message: `this symbolic link leads to no file: ${why}` })),
  });
  const entries: RawEntry[] = [];
  const found: RawAsset[] = [];
  const portfolioFiles: string[] = [];

  // Assets first: the build starts processing images (libvips, on its own threads) as soon as
  // it knows them, while this thread parses the entries' front matter.
  const entryFiles = contentFiles.filter((relToContent) => ENTRY_PATTERN.test(relToContent));
  await Promise.all(
    contentFiles
      .filter((relToContent) => !ENTRY_PATTERN.test(relToContent))
      .map((relToContent) =>
        limit(async () => {
          const abs = path.join(config.dirs.content, relToContent);
          const file = rel(abs);
          const ext = path.extname(relToContent).slice(1).toLowerCase();
          if (/^portfolio\/[^/]+\.ya?ml$/.test(relToContent)) {
            portfolioFiles.push(abs);
          } else if (relToContent === 'site.yaml' || relToContent === 'site.yml') {
            // read below
          } else if (ASSET_EXTENSIONS.includes(ext) && relToContent.includes('/')) {
            const times = timesOf(hooks.walked?.stateOf(abs) ?? (await stat(abs)));
            const dims = IMAGE_EXTENSIONS.includes(ext) ? await (hooks.imageSize ?? readImageSize)({ path: abs, ...times }) : {};
            // Named as typed (NFC), however the file system composes names (macOS: NFD): it is published and looked up by it.
            found.push({ dir: toPosix(path.dirname(file)), name: path.basename(abs).normalize('NFC'), absPath: abs, size: times.size, ...dims });
          } else if (ext === 'md') {
            diagnostics.push(diagnostic('content/misplaced-file', { file, message: 'this markdown file is not where ir-site looks for entries' }));
          }
        }),
      ),
  );
  const assets = identityAssets(found, config.identityKey, config.identityKeys);
  assets.sort((a, b) => byText(a.dir, b.dir) || byText(a.name, b.name));
  hooks.onAssets?.(assets);

  const contentDir = contentDirOf(config);
  const identityText = identityTextOf(config);
  // Joined as strings: the listing's paths are already normal ('/'-separated, no dots).
  const contentPrefix = config.dirs.content.endsWith(path.sep) ? config.dirs.content : `${config.dirs.content}${path.sep}`;
  for (const [i, relToContent] of entryFiles.entries()) {
    // Reading and parsing is synchronous work: let the image stage's file callbacks in now and then.
    if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
    const abs = contentPrefix + (path.sep === '/' ? relToContent : relToContent.split('/').join(path.sep));
    const place = placeOf(relToContent, contentDir);
    const read = (hooks.recall && recallEntryFile(abs, place, hooks.recall, identityText, hooks.walked)) || (await readEntryFile(config, abs, parse, place).catch(goneAsNull));
    // Removed since the build listed it: the build is of the content as it was then, without it.
    if (read === null) continue;
    if (Array.isArray(read)) diagnostics.push(...read);
    else entries.push(read);
  }

  const [portfolio, website, navigation, redirects] = await Promise.all([
    Promise.all(portfolioFiles.sort().map(readYaml)),
    readYaml(path.join(config.dirs.content, contentFiles.includes('site.yml') && !contentFiles.includes('site.yaml') ? 'site.yml' : 'site.yaml')),
    readYaml(path.join(config.dirs.config, 'navigation.yaml')),
    readYaml(path.join(config.dirs.config, 'redirects.yaml')),
  ]);

  const strings = await Promise.all(config.locales.map(({ code }) => readLocaleStrings(config, code, identityText, diagnostics, inSite)));

  const stylesheet = await readStylesheet(config, inSite);

  diagnostics.push(...nameConflicts(assets), ...longNames(assets));
  entries.sort((a, b) => byText(a.file, b.file));
  return {
    raw: {
      entries,
      portfolio: portfolio.filter((p): p is RawYaml => p !== null),
      website,
      navigation,
      redirects,
      strings,
      assets,
      stylesheet,
    },
    diagnostics,
  };
}
