// Every key of the build cache, each named for what it keys (docs/build-cache.md says why each
// holds what it holds). A key is SHA-256 of its parts, shortened to 128 bits as file digests are
// (files/digest.ts). Every key of a build result holds `toolFingerprint()`, directly or through
// the page keys' base: ir-site's code, Node's version, the installed dependencies. One exception,
// on purpose: an image entry's key (`imageKey`, at the end) is full length and holds the image
// pipeline's own version instead, so an update of ir-site does not encode every image again.
import type { RawEntry, RawSite } from '../build/content/raw.js';
import type { MarkdownSource } from '../build/graph/model.js';
import { createHash } from 'node:crypto';
import { sha256 } from '../files/digest.js';
import { byText } from '../shared/order.js';

/** A stable key of any JSON-able values, in order: each part's text followed by a NUL. */
export function keyOf(...parts: unknown[]): string {
  let text = '';
  for (const part of parts) text += `${typeof part === 'string' ? part : JSON.stringify(part)}\0`;
  return sha256(text).slice(0, 32);
}

/**
 * The resolved configuration: every page depends on it, directly or not. A markdown plugin's
 * options may hold what JSON cannot show (a RegExp, a Map or Set, a BigInt, an object that refers
 * to itself): those are keyed by what they hold, not refused nor dropped. Functions count by the
 * bundle's hash (`module`), as JSON drops them.
 */
export const configKey = (config: unknown): string => keyOf(JSON.stringify(config, jsonSafe()));

function jsonSafe() {
  // Each object by the order it was first met in: a second meeting names which one it is.
  const seen = new Map<object, number>();
  return (_key: string, value: unknown): unknown => {
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'symbol') return value.toString();
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return `[seen #${seen.get(value)}]`;
    seen.set(value, seen.size);
    if (value instanceof RegExp) return `RegExp ${value}`;
    if (value instanceof Map) return { Map: [...value] };
    if (value instanceof Set) return { Set: [...value] };
    return value;
  };
}

// ---- Routes and pages ----

type KeyedRoute = { markdown: { text: string | null; digest: string; offset?: number } | null };

/**
 * What a route holds besides its markdown text: everything about it, the text (and its digest)
 * left out. It depends on the graph's inputs but for the bodies' text only (graphKey), so a
 * build whose graph inputs did not change takes it from the last one.
 */
export function routeDataKey(route: KeyedRoute): string {
  const { markdown } = route;
  if (!markdown) return keyOf(route);
  // What the build knows of the body (text, digest, where it starts in its file) is keyed by routeKeyOf.
  const { text: _text, digest: _digest, offset: _offset, ...keyed } = markdown;
  return keyOf({ ...route, markdown: keyed });
}

/**
 * What a page shows: its route's data by routeDataKey (or that key as the caller knows it), its
 * markdown text by digest.
 */
export function routeKeyOf(route: KeyedRoute, dataKey: string = routeDataKey(route)): string {
  return keyOf(dataKey, route.markdown?.digest ?? null);
}

/** What every page of a language shares, as the render context holds it (build/render/context.ts). */
export interface SharedPageInputs {
  assets: unknown;
  site: unknown;
  queryHashes: Readonly<Record<string, readonly string[]>>;
  queryResults: ReadonlyMap<string, unknown>;
}

/**
 * The base of the page keys of each language: ir-site's code, the configuration, the server
 * templates, the client assets and build hash, the site metadata, and the static queries every
 * page of that language carries (render/index.ts). One language's navigation or strings changing
 * leaves the other language's pages as they are.
 */
export function pageKeyBases(fingerprint: string, configKeyOf: string, templatesHash: string | null, shared: SharedPageInputs): (locale: string) => string {
  const common = keyOf(fingerprint, configKeyOf, templatesHash, shared.assets, shared.site);
  const byLocale = new Map<string, string>();
  return (locale) => {
    let key = byLocale.get(locale);
    if (key === undefined) {
      const hashes = shared.queryHashes[locale] ?? [];
      byLocale.set(locale, (key = keyOf(common, hashes, hashes.map((h) => shared.queryResults.get(h) ?? null))));
    }
    return key;
  };
}

/** A page's bytes: its language's base (pageKeyBases) and what it shows (routeKeyOf). */
export const pageKey = (base: string, routeKey: string): string => keyOf(base, routeKey);

/**
 * A body's compiled tree: its source (text by digest, locale, the files next to it), ir-site's code and the
 * configuration (its markdown plugins: the bundled file's hash is part of it).
 */
export function bodyKey(source: MarkdownSource, fingerprint: string, configKeyOf: string): string {
  // The file: the site's markdown plugins see its path.
  return keyOf(fingerprint, configKeyOf, source.file, source.locale, source.digest, source.folder);
}

// ---- The graph ----

export interface GraphInputs {
  /** toolFingerprint(): the stages' code. */
  fingerprint: string;
  /** configKey(config), and whether the site checks ran. */
  configKey: string;
  raw: RawSite;
  /** The image stage's processed images by path (their data is part of the key). */
  images: ReadonlyMap<string, unknown>;
  includeDrafts: boolean;
}

/**
 * What the validate and graph stages read of an entry file: its path and the digest of its text
 * before the body (the field and body lines follow from it). Not the body: its images are
 * resolved when it is compiled, in the files next to it (the images, part of the key).
 */
export const entryGraphInputs = (e: RawEntry): unknown[] => [e.file, e.matterDigest];

/**
 * Everything the validate and graph stages read, bodies left out. Those stages are pure, so two
 * builds with the same key make the same routes but for the bodies' text, and the routes' data
 * keys are taken from the output manifest instead of hashing every route again.
 */
export function graphKey(inputs: GraphInputs): string {
  return keyOfGraphInputs(inputs, entryGraphInputs);
}

/**
 * An entry's graph inputs but for an article's headline (its title and description): the rest of
 * its front matter as parsed, the line of each field and of the body.
 */
export function entryFrameInputs(e: RawEntry): unknown[] {
  if (e.collection !== 'articles') return entryGraphInputs(e);
  const { title: _title, description: _description, ...rest } = e.data;
  return [e.file, rest, e.fieldLines, e.bodyLine];
}

/**
 * The graph key with the articles' headlines left out. Two builds with the same frame key make
 * the same graph but for those headlines, which build/graph/headlines.ts puts in without the
 * graph stage.
 */
export function graphFrameKey(inputs: GraphInputs): string {
  return keyOfGraphInputs(inputs, entryFrameInputs);
}

type EntryInputs = (e: RawEntry) => unknown[];

/**
 * The last key of each kind (graph, frame), and the inputs it was made from. `dev` asks again
 * after each edit, which changes a few entries of thousands: when the other inputs are the same
 * objects and each entry that is not gives the same inputs, the key is the same, without hashing
 * the whole site again.
 */
const lastKeys = new Map<EntryInputs, { inputs: GraphInputs; key: string }>();

function keyOfGraphInputs(inputs: GraphInputs, ofEntry: EntryInputs): string {
  const last = lastKeys.get(ofEntry);
  if (last && sameGraphInputs(last.inputs, inputs, ofEntry)) return last.key;
  const { fingerprint, configKey: config, raw, images, includeDrafts } = inputs;
  const entries = raw.entries.map(ofEntry);
  const { entries: _, ...rest } = raw;
  // The graph looks images up by path: the map's order (images finish in any order) does not count.
  const byPath = [...images].sort(([a], [b]) => byText(a, b));
  const key = keyOf(fingerprint, config, includeDrafts, byPath, entries, rest);
  lastKeys.set(ofEntry, { inputs, key });
  return key;
}

/** Whether two graph inputs are the same, judged by identity where they are the same objects (stage data is never changed in place). */
function sameGraphInputs(a: GraphInputs, b: GraphInputs, ofEntry: EntryInputs): boolean {
  if (a.fingerprint !== b.fingerprint || a.configKey !== b.configKey || a.includeDrafts !== b.includeDrafts || a.images !== b.images) return false;
  const fields = Object.keys(b.raw) as (keyof RawSite)[];
  if (fields.length !== Object.keys(a.raw).length || fields.some((field) => field !== 'entries' && a.raw[field] !== b.raw[field])) return false;
  const [before, after] = [a.raw.entries, b.raw.entries];
  if (before.length !== after.length) return false;
  for (let i = 0; i < after.length; i++) {
    if (before[i] !== after[i] && JSON.stringify(ofEntry(before[i]!)) !== JSON.stringify(ofEntry(after[i]!))) return false;
  }
  return true;
}

/**
 * What the site checks read (commands/check/quick.ts): the graph but for the articles' headlines,
 * which no check reads (the frame key), and each route's body by digest.
 */
export const siteChecksKey = (frameKey: string, routes: readonly { path: string; markdown: { digest: string } | null }[]): string =>
  keyOf('site checks', frameKey, routes.map((r) => [r.path, r.markdown?.digest ?? null]));

/**
 * The site checks' warnings (site-warnings-memo.ts): the checks' inputs but for the bodies
 * (`frame`: what siteChecksKey holds but the bodies), and each body by its facts, the links
 * and ids its tree has. A prose edit keeps a body's facts, so the warnings found before still hold.
 */
export const siteWarningsKey = (frame: readonly unknown[], bodies: readonly (readonly [path: string, facts: unknown])[]): string => keyOf(frame, bodies);

// ---- The whole output folder ----

/** What a build reads besides the graph's inputs: the bodies, the bundles, the favicon and the files it copies. */
export interface OutputInputs {
  /** graphKey: the configuration, ir-site's code, front matter, site files and images. */
  graphKey: string;
  /** Every entry's body digest, in the entries' order. */
  bodyDigests: readonly string[];
  /** The server templates' and the browser bundle's hashes (bundle-cache.ts knows when esbuild's inputs changed). */
  bundles: readonly [server: string, client: string];
  favicon: string | null;
  /** The files copied as they are (published documents, processed images): path, and size and times (copiedState). */
  copied: readonly (readonly [string, string])[];
}

/**
 * The whole output folder: everything the render and emit stages read. A build whose key is
 * the last one's, with every file that build wrote still as it left it, would write the same
 * bytes: it writes nothing (build/build-site.ts).
 */
export const outputKey = ({ graphKey: graph, bodyDigests, bundles, favicon, copied }: OutputInputs): string => keyOf('output', graph, bodyDigests, bundles, favicon, copied);

/**
 * The up-to-date record (up-to-date.ts): the resolved configuration and what the build was
 * asked (drafts, site checks). A record under another key says nothing about this build.
 */
export const upToDateKey = (config: unknown, ask: object): string => configKey({ config, ...ask });

// ---- Files made from the pages ----

/** A language's search index files: the route keys of its pages, in order. */
export const searchIndexKey = (fingerprint: string, configKeyOf: string, locale: string, routeKeys: readonly string[]): string => keyOf(fingerprint, configKeyOf, locale, routeKeys);

/** A derived file (sitemap, host redirect files, favicon): its path and the inputs its maker names. */
export const derivedFileKey = (fingerprint: string, rel: string, inputs: readonly unknown[]): string => keyOf(fingerprint, rel, ...inputs);

/** A generated offline worker but for its deploy id: ir-site's code and the precached files by digest. */
export function offlineWorkerKey(fingerprint: string, precached: Iterable<string>, digests: ReadonlyMap<string, string>): string {
  return keyOf(fingerprint, [...precached].sort().map((rel) => [rel, digests.get(rel)]));
}

// ---- esbuild's bundles (bundle-cache.ts checks the files esbuild read; these say which bundle) ----

/**
 * The server template bundle. It imports React by absolute path, so the ir-site install it
 * resolves from is part of the key: after a move the old paths may still exist, and a bundle
 * importing them would run a second React.
 */
export const serverBundleKey = (registrySource: string, root: string, templatesDir: string, packageRoot: string): string => keyOf(registrySource, root, templatesDir, packageRoot);

/** site.config.ts's bundle: the file (bundle-cache.ts checks it and its imports). */
export const configBundleKey = (configFile: string): string => keyOf('site.config', configFile);

/** The browser bundle: the runtime's entry, and the folders it is bundled from and into. */
export const clientBundleKey = (runtimeEntry: string, root: string, templatesDir: string, cacheDir: string): string => keyOf(runtimeEntry, root, templatesDir, cacheDir);

// ---- Processed images (build/images/process.ts) ----

/** What an image's variants are made from and named for, besides its bytes. */
export interface ImageRecipe {
  /** The image pipeline's own version: raised when a variant would come out differently. */
  pipeline: number | string;
  /** `sharp@<version>`: another libvips encodes other bytes. */
  sharp: string;
  /** Portraits and content images get different sizes. */
  kind: 'portrait' | 'content';
  /** The variants are named after the source's name. */
  stem: string;
}

/**
 * An image's cache entry: its bytes and its recipe, without ir-site's fingerprint, so that an
 * update of ir-site that leaves the pipeline as it was does not encode every image again.
 * Full length (not 128 bits): it names the entry's folder, and identical files share it.
 */
export const imageKey = (bytes: Uint8Array, { pipeline, sharp, kind, stem }: ImageRecipe): string =>
  createHash('sha256').update(bytes).update(`\0${pipeline}\0${sharp}\0${kind}\0${stem}`).digest('hex');
