// esbuild's bundles of the templates (for the server) and of the browser runtime, reused
// while every file esbuild read for them is as it was: their output changes only when a
// template or ir-site changes, and bundling takes a core the build needs for other work.
//
// A bundle is recalled when its key (what the caller bundles, and how) matches and, for each
// input esbuild reported (its metafile), the file's size and times (modification, change) are as
// recorded, and so are the names in its folder. The folders count because a file added next
// to an input can change what an import resolves to (`./chart` finding `chart.ts` before
// `chart.tsx`, a package's nearer copy) without changing any input. A folder is compared by
// its names, not its time: the site's root holds site.config.ts and also the output folder,
// which every build that publishes renames or stages next to, and a time would make the
// config's bundle a miss after each of them. As in the front matter cache, file times too
// close to the recording build's start are not trusted (racy.ts); a folder whose names changed
// after bundling started is not recorded.
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { accepts, checked, schemaOf } from '../files/payload-shape.js';
import { settledBefore } from './racy.js';
import { plainFileTimes, sameTimes } from '../files/file-times.js';
import { memoKind, Records, type Memo } from './memo.js';

/** A file esbuild read: [absolute path, size, modification and change times in ms]; a folder of one: [absolute path, digest of its names]. */
export type InputRecord = [file: string, size: number, mtimeMs: number, ctimeMs: number] | [folder: string, names: string];

export const isInputRecord = (v: unknown): v is InputRecord =>
  Array.isArray(v) && typeof v[0] === 'string' && (v.length === 2 ? typeof v[1] === 'string' : v.length === 4 && v.slice(1).every((n) => typeof n === 'number'));

interface BundleRecord {
  key: string;
  /** When the recording build started bundling (ms since the epoch). */
  since: number;
  inputs: InputRecord[];
  value: unknown;
}

// `value` is the caller's (recall<T>): what it holds is checked by no one here.
const isBundleRecords = accepts(
  z.record(
    z.string(),
    schemaOf<BundleRecord>()(
      z.object({
        key: z.string(),
        since: z.number(),
        inputs: z.array(checked(isInputRecord)),
        value: z.unknown(),
      }),
    ),
  ),
);

/**
 * The two files of bundles: the templates' (`bundles.bin`, with the browser bundle's files),
 * and site.config.ts's alone (config/load.ts), small because every command reads it first.
 */
const KINDS = {
  templates: memoKind<Record<string, BundleRecord>>('bundles', isBundleRecords),
  config: memoKind<Record<string, BundleRecord>>('config-bundle', isBundleRecords),
};

/** The digest of a folder's names, or null when it is no folder. */
function namesOf(folder: string): string | null {
  try {
    return createHash('sha256').update(readdirSync(folder).sort().join('\0')).digest('hex');
  } catch {
    return null;
  }
}

/** Whether a recorded input is as it was. */
export function inputUnchanged(record: InputRecord): boolean {
  if (record.length === 2) return namesOf(record[0]) === record[1];
  const [file, ...times] = record;
  return sameTimes(times, plainFileTimes(file));
}

export class BundleCache {
  private constructor(private readonly records: Records<BundleRecord>) {}

  static async open(memo: Memo, of: keyof typeof KINDS = 'templates'): Promise<BundleCache> {
    return new BundleCache(await Records.open(memo, KINDS[of]));
  }

  /** The value recorded for `name` under `key`, when every input is as it was then; null otherwise. */
  recall<T>(name: string, key: string): T | null {
    const record = this.records.peek(name);
    if (!record || record.key !== key) return null;
    for (const input of record.inputs) {
      if (!inputUnchanged(input) || (input.length === 4 && !settledBefore(input[2], record.since))) return null;
    }
    this.records.recall(name);
    return record.value as T;
  }

  /**
   * Records a bundle made from `inputs` (absolute paths esbuild reported), bundling having
   * started at `since`. Not recorded when an input is gone or changed too recently to be sure
   * esbuild read what is there now.
   */
  remember(name: string, key: string, since: number, inputs: readonly string[], value: unknown): void {
    const records: InputRecord[] = [];
    const folders = new Set<string>();
    for (const file of inputs) {
      const now = plainFileTimes(file);
      if (!now || !settledBefore(now.mtimeMs, since)) return;
      records.push([file, now.size, now.mtimeMs, now.ctimeMs]);
      folders.add(path.dirname(file));
    }
    for (const folder of folders) {
      const names = namesOf(folder);
      if (names === null || statSync(folder).mtimeMs >= since) return;
      records.push([folder, names]);
    }
    this.records.set(name, { key, since, inputs: records, value });
  }

  /** The inputs of the bundle recalled or remembered as `name` in this build; null when there is none. */
  inputsOf(name: string): readonly InputRecord[] | null {
    return this.records.current(name)?.inputs ?? null;
  }

  /** Writes the bundles recalled or remembered in this build, when that is news. */
  save(): Promise<void> {
    return this.records.save();
  }
}

/**
 * The files esbuild read for a bundle (its metafile's inputs, relative to `workingDir`), as
 * absolute paths. Left out: standard input (`stdin`: the file name it was given, which esbuild
 * lists as if it were a file there; the caller's key covers its text) and inputs in a namespace of
 * their own, which are no file (`(disabled):...`, a package's `browser` field turning a
 * module off; a plugin's virtual modules).
 */
export function metafileInputs(inputs: Record<string, unknown>, workingDir: string, stdin?: string): string[] {
  return Object.keys(inputs)
    .filter((input) => input !== '<stdin>' && (path.isAbsolute(input) || !/^[\w()-]+:/.test(input)))
    .map((input) => path.resolve(workingDir, input))
    .filter((file) => file !== stdin);
}
