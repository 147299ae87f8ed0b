// A build with nothing to do, told without loading the content: make's "up to date". The build
// that last published into an output folder records the state (size, modification and change
// times) of every file under the site's input folders and of every file esbuild read for its
// bundles, the state of every file it left in the output folder, and what it reported. While
// all of them are as recorded, with the same ir-site (the memo's fingerprint) and the same
// resolved configuration, a build would make the same files: `ir-site build` reports the
// recorded result and stops (build/up-to-date.ts). Anything else, even a file touched but
// unchanged, leaves the decision to the build, whose caches then answer by content.
//
// The record's input states are taken before the build that writes it reads anything, so a file
// changed, added, removed or moved while it ran is not as recorded. Like the other file-time
// caches (racy.ts), a record is never up to date when an input's modification or change time is
// too close to that walk: it could change again within the file system's time resolution, unseen.
// Such a record is kept as not settled, for its output files alone: the next build stats them on
// a helper thread from its start (output-states.ts). A change time cannot be set back, so a file
// replaced by an old copy (`cp -p`) is caught.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import type { Diagnostic } from '../errors/diagnostic.js';
import { isFileTable, TableBuilder, type FileTable } from './file-table.js';
import { accepts, checked, schemaOf } from '../files/payload-shape.js';
import { inputUnchanged, isInputRecord, type InputRecord } from './bundle-cache.js';
import { memoKind, type Memo } from './memo.js';
import { folderRecord, outputRecordFile } from './output-manifest.js';
import { settledBefore } from './racy.js';
import { isWarning } from './site-warnings-memo.js';

/** What the build that wrote the record reported, to be reported again. */
export interface RecordedResult {
  pages: number;
  redirects: number;
  files: number;
  diagnostics: Diagnostic[];
}

export interface UpToDateRecord {
  /** configKey of the resolved configuration, and whether drafts were published. */
  config: string;
  /** Every file under the input folders, by absolute path. */
  inputs: FileTable;
  /** The files (and their folders' names) esbuild read for the server and browser bundles (bundle-cache.ts). */
  bundles: InputRecord[];
  /** Every file the build left in the output folder, by path relative to it. */
  files: FileTable;
  result: RecordedResult;
  /**
   * Whether every input had settled before the walk (racy.ts). A record whose inputs had not is
   * never up to date: it only names the output files, for the next build to stat first.
   */
  settled: boolean;
}

interface StoredRecord extends UpToDateRecord {
  /** The output folder's identity (output-manifest.ts): another folder put at its path is not up to date. */
  folder: string;
}

const isRecord = accepts(
  schemaOf<StoredRecord>()(
    z.object({
      folder: z.string(),
      config: z.string(),
      inputs: checked(isFileTable),
      bundles: z.array(checked(isInputRecord)),
      files: checked(isFileTable),
      // A successful build reports warnings only; they are printed again.
      result: z.object({ pages: z.number(), redirects: z.number(), files: z.number(), diagnostics: z.array(checked(isWarning)) }),
      settled: z.boolean(),
    }),
  ),
);

/** The record of the output folder at `outDir` in `memo`: a file of its own per folder, beside its manifest; forgotten before anything is staged or written, so that a build that stops half-way leaves none. */
export const upToDateRecord = (memo: Memo, outDir: string) =>
  folderRecord<UpToDateRecord>(memo, memoKind('up-to-date', isRecord, { file: outputRecordFile('up-to-date', outDir), codec: 'v8' }), outDir);

/**
 * Every file under `folders` (dot names and the folders of `skip` left out) with its state, or
 * null when one is reached through a symbolic link, whose target can change without the
 * folder changing.
 */
export function inputStates(folders: readonly string[], skip: readonly string[]): FileTable | null {
  const found = new TableBuilder();
  const skipped = new Set(skip.map((dir) => path.resolve(dir)));
  const walk = (dir: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT';
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipped.has(abs) && !walk(abs)) return false;
      } else if (entry.isFile()) {
        const { size, mtimeMs, ctimeMs } = statSync(abs);
        found.add(abs, size, mtimeMs, ctimeMs);
      } else if (entry.isSymbolicLink()) return false;
    }
    return true;
  };
  return [...new Set(folders.map((dir) => path.resolve(dir)))].every((dir) => skipped.has(dir) || walk(dir)) ? found.table() : null;
}

/**
 * Whether every file of `table`, walked at `at`, was last changed safely before: one changed
 * within the file system's time resolution of the walk could change again unseen (racy.ts).
 */
export function settledAt(table: FileTable, at: number): boolean {
  for (let i = 0; i < table.names.length; i++) if (!settledBefore(table.times[3 * i + 1]!, at) || !settledBefore(table.times[3 * i + 2]!, at)) return false;
  return true;
}

/**
 * The input files (absolute paths, sorted) that are not as `record` holds them: added, removed or
 * in another state, and the bundles' inputs (templates, the runtime) that changed; null when the
 * walk could not tell (it met a link).
 */
export function inputsChangedSince(record: UpToDateRecord, now: FileTable | null): string[] | null {
  if (now === null) return null;
  const state = (table: FileTable, i: number) => `${table.times[3 * i]}:${table.times[3 * i + 1]}:${table.times[3 * i + 2]}`;
  const then = new Map(record.inputs.names.map((name, i) => [name, state(record.inputs, i)]));
  const changed = new Set<string>();
  now.names.forEach((name, i) => {
    if (then.get(name) !== state(now, i)) changed.add(name);
    then.delete(name);
  });
  for (const name of then.keys()) changed.add(name);
  for (const input of record.bundles) if (!inputUnchanged(input)) changed.add(input[0]);
  return [...changed].sort();
}

/** Whether the inputs are as `record` holds them: the same files (walked in the same order), in the same states, and the bundles' inputs unchanged. */
export function inputsAsRecorded(record: UpToDateRecord, now: FileTable | null): boolean {
  const { inputs } = record;
  if (now === null || now.names.length !== inputs.names.length) return false;
  return now.names.every((name, i) => name === inputs.names[i]) && now.times.every((time, i) => time === inputs.times[i]) && record.bundles.every(inputUnchanged);
}
