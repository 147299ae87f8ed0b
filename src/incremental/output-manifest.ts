// What the last successful build left in an output folder: every file with its content
// digest, size and modification time, and every page with the key it was rendered from.
// The next build compares against it to render only pages whose key changed and to leave
// files whose bytes did not change alone. A kind of the memo with a file per output folder,
// keyed by the folder's absolute path, and valid only for the folder it was written for
// (folderIdentity).
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { peekCacheKey, removeCacheFile } from '../files/cache-file.js';
import type { FileState } from '../files/digest.js';
import { accepts, checked, isString, recordOf, schemaOf } from '../files/payload-shape.js';
import { isDenseStrings, isFileTable, type FileTable } from './file-table.js';
import { memoKind, type Memo, type MemoKind } from './memo.js';
import type { BodyMessage } from '../features/markdown/index.js';

const KIND = 'output-manifest';

export interface OutputManifest {
  files: Record<string, FileState>;
  /** Page path -> the key it was rendered with. */
  pages: Record<string, string>;
  /** Page path -> key of the markdown body its page data holds (keys.ts, bodyKey). */
  bodies: Record<string, string>;
  /** The key of the graph's inputs (keys.ts, graphKey), and for that graph each page's routeDataKey; absent when unknown. */
  graph?: { key: string; dataKeys: Record<string, string> };
  /** The key of everything the build read (keys.ts, outputKey). */
  output?: string;
  /** Page path -> what the markdown plugins said about its body (render-pages.ts), for the pages they said something about. */
  messages?: Record<string, BodyMessage[]>;
}

/** The output files in columns: their states, and their digests in the same order. */
interface FileColumns {
  files: FileTable;
  digests: string[];
}

/**
 * As stored: the files in columns (v8), which encode far faster than a record of tuples; with
 * the identity of the folder the record describes (folderIdentity).
 */
interface StoredManifest extends Omit<OutputManifest, 'files'>, FileColumns {
  folder: string;
}

/** `files` in columns. */
export function fileColumns(files: Readonly<Record<string, FileState>>): FileColumns {
  const names = Object.keys(files);
  const times = new Float64Array(3 * names.length);
  const digests = new Array<string>(names.length);
  names.forEach((rel, i) => ([digests[i], times[3 * i], times[3 * i + 1], times[3 * i + 2]] = files[rel]!));
  return { files: { names, times }, digests };
}

// Object.fromEntries, not assignment: a file named `__proto__` must be an entry, not a prototype.
const fromColumns = ({ files: { names, times }, digests }: FileColumns): Record<string, FileState> =>
  Object.fromEntries(names.map((rel, i) => [rel, [digests[i]!, times[3 * i]!, times[3 * i + 1]!, times[3 * i + 2]!]]));

// The files' columns and an entry per page in three records: typeof tests (payload-shape.ts).
const isKeys = recordOf(isString);
const isManifest = accepts(
  schemaOf<StoredManifest>()(
    z.object({
      folder: z.string(),
      files: checked(isFileTable),
      digests: checked(isDenseStrings),
      pages: checked(isKeys),
      bodies: checked(isKeys),
      graph: z.object({ key: z.string(), dataKeys: checked(isKeys) }).optional(),
      output: z.string().optional(),
      messages: z.record(z.string(), z.array(z.object({ line: z.number().optional(), column: z.number().optional(), text: z.string(), fatal: z.literal(true).optional() }))).optional(),
    }),
  ),
);

/** The file of a record of the output folder at `outDir` (this manifest, its up-to-date record): one per folder, named for its path. */
export function outputRecordFile(prefix: 'output' | 'up-to-date', outDir: string): string {
  return `${prefix}-${createHash('sha256').update(path.resolve(outDir)).digest('hex').slice(0, 12)}.bin`;
}

/** The kind of the record of the output folder at `outDir`. */
const manifestKind = (outDir: string) =>
  memoKind(KIND, (v: unknown): v is StoredManifest => isManifest(v) && v.digests.length === v.files.names.length, { file: outputRecordFile('output', outDir), codec: 'v8' });

/** Where the disk memo of `cacheDir` keeps the record of `outDir`. */
export const manifestFile = (cacheDir: string, outDir: string): string => path.join(cacheDir, 'build', manifestKind(outDir).file);

/**
 * The folder at `outDir` (the one a link there names): its device, inode and birth time. Another
 * folder put at the same path (a link retargeted, a blue/green deploy, a copy restored from a
 * backup, which `cp -a` or `mv` gives a new inode and birth time) holds files the record does not
 * describe: pages deleted since it was made would stay published. The birth time tells a new
 * folder from an old one whose inode number it reuses. A swap commit puts a new folder in place,
 * so this is taken after the commit (`write`).
 */
export async function folderIdentity(outDir: string): Promise<string | null> {
  const own = await stat(outDir, { bigint: true }).catch(() => null);
  return own && `${own.dev}:${own.ino}:${own.birthtimeNs}`;
}

/**
 * A record of the output folder at `outDir` kept in `memo` as `kind` (this manifest, the
 * up-to-date record), under the folder's path and with its identity: read, it is null when there
 * is none, it is damaged, or it describes another folder.
 */
export function folderRecord<T extends object>(memo: Memo, kind: MemoKind<T & { folder: string }>, outDir: string) {
  const key = path.resolve(outDir);
  return {
    async read(): Promise<T | null> {
      const [stored, folder] = await Promise.all([memo.read(kind, key), folderIdentity(outDir)]);
      return stored && folder !== null && stored.folder === folder ? stored : null;
    },
    /** Written with the identity of the folder that holds the output now (after a swap commit: the new one). */
    async write(value: T): Promise<void> {
      const folder = await folderIdentity(outDir);
      if (folder !== null) await memo.write(kind, { ...value, folder }, key);
    },
    forget: (): Promise<void> => memo.forget(kind),
  };
}

/**
 * The manifest of the output folder at `outDir` in `memo`: written after the commit, forgotten
 * before the folder is changed in place (if that is interrupted, the next build starts clean).
 */
export function outputManifest(memo: Memo, outDir: string) {
  const record = folderRecord<Omit<StoredManifest, 'folder'>>(memo, manifestKind(outDir), outDir);
  return {
    async read(): Promise<OutputManifest | null> {
      const stored = await record.read();
      if (!stored) return null;
      const { files, digests, ...rest } = stored;
      return { ...rest, files: fromColumns({ files, digests }) };
    },
    write: ({ files, ...rest }: OutputManifest): Promise<void> => record.write({ ...rest, ...fileColumns(files) }),
    forget: record.forget,
  };
}

/**
 * Removes the records of output folders that no longer exist (a temporary `--out`, a folder
 * deleted by hand): manifests and up-to-date records, megabytes each on a large site, which
 * nothing would read again; and any file of those names that is no such record at all.
 */
export async function pruneManifests(cacheDir: string): Promise<void> {
  const dir = path.join(cacheDir, 'build');
  const kinds: Record<string, string> = { output: KIND, 'up-to-date': 'up-to-date' };
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const prefix = /^(output|up-to-date)-/.exec(name)?.[1];
      if (prefix === undefined) return;
      const file = path.join(dir, name);
      const outDir = /^[a-z-]+-[0-9a-f]+\.bin$/.test(name) ? await peekCacheKey(file, kinds[prefix]!) : null;
      if (outDir === null || !(await stat(outDir).then(() => true, () => false))) await removeCacheFile(file);
    }),
  );
}

/** Whether a build recorded the same pages, bodies, graph and output key as `previous` (its files aside: the sink knows whether they changed). */
export function samePageRecords(previous: OutputManifest, next: Omit<OutputManifest, 'files'>): boolean {
  const same = (a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined) => {
    if (a === undefined || b === undefined) return a === b;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
  };
  return same(previous.pages, next.pages) && same(previous.bodies, next.bodies) && previous.graph?.key === next.graph?.key && same(previous.graph?.dataKeys, next.graph?.dataKeys) && previous.output === next.output;
}
