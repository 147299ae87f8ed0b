// The last step of a build into a folder: the staged output swapped in, or discarded when it is
// what the folder already holds, with the records the next build reads written around it so that
// no record ever describes a folder half changed.
import type { StagedDiskSink } from './emit/sink.js';
import type { CompressingSink } from './emit/compressing-sink.js';
import type { FileState } from '../files/digest.js';
import { samePageRecords, type outputManifest, type OutputManifest } from '../incremental/output-manifest.js';

export interface OutputCommit {
  disk: StagedDiskSink;
  /** This build's `.br` and `.gz` copies, whose record is saved once they are in place. */
  compressing: CompressingSink | null;
  /** The output folder's manifest (null without the build cache), and what it held before this build. */
  manifest: ReturnType<typeof outputManifest> | null;
  previous: OutputManifest | null;
  /** What this build's manifest holds beside the files. */
  record: Omit<OutputManifest, 'files'>;
  /** Without the build cache: drops the manifest an earlier build left, which no longer describes the folder. */
  forgetEarlierRecord: (() => Promise<void>) | null;
}

/** Commits the output and records it; resolves to the files the folder now holds, as recorded (null without a manifest). */
export async function commitOutput({ disk, compressing, manifest, previous, record, forgetEarlierRecord }: OutputCommit): Promise<Readonly<Record<string, FileState>> | null> {
  // Nothing to move or delete, and the same record: the output and its manifest stay as they are.
  const untouched = manifest !== null && previous !== null && disk.untouched() && samePageRecords(previous, record);
  // A folder the commit cannot change fails the build here, with the output and its record as they were.
  if (!untouched) disk.checkWritable();
  // Changing the output in place: a build interrupted half-way must not trust it next time.
  if (!untouched && manifest && previous) await manifest.forget();
  await forgetEarlierRecord?.();
  const files = untouched ? null : await disk.commit();
  if (untouched) await disk.discard();
  await compressing?.saveRecord();
  if (manifest && files) await manifest.write({ files, ...record });
  return manifest && (files ?? previous!.files);
}
