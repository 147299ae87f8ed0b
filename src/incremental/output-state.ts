// Whether a build can leave the output folder exactly as the last one left it. The render and
// emit stages read the graph, the bodies, the bundles, the favicon and the files they copy; when
// all of these have the key the last build recorded, and every file it wrote is still as it left
// it, they would write the same bytes: the build skips keeping every page and its copies
// through the sinks, and reading the caches those stages use (docs/build-cache.md).
import { stat } from 'node:fs/promises';
import type { RawEntry } from '../build/content/raw.js';
import { outputKey } from './keys.js';
import { copiedState, type FileState } from '../files/digest.js';
import type { OutputManifest } from './output-manifest.js';

/**
 * What this build would write, as a key, from what its stages read (keys.ts, outputKey).
 * `copied`: the files the output gets as they are (published documents, processed images from
 * their cache); each counts by its size and times (copiedState), the rule by which the sink keeps a copy.
 */
export async function outputKeyOf(entries: readonly RawEntry[], copied: Iterable<string>, bundles: readonly [server: string, client: string], favicon: string | null, graphKey: string): Promise<string> {
  // Sorted: images finish processing in any order.
  const states = await Promise.all(
    [...copied].sort().map(async (file) => {
      // A file gone since load: the copy would fail, which the full path reports.
      const now = await stat(file).catch(() => null);
      return [file, now ? copiedState(now) : 'gone'] as const;
    }),
  );
  const bodyDigests = entries.map((entry) => entry.bodyDigest);
  return outputKey({ graphKey, bodyDigests, bundles, favicon, copied: states });
}

/**
 * When the last build recorded this key and every file it wrote is still in place, those files
 * as they are now (intact-files.ts: a change time may have moved); null otherwise.
 */
export async function unchangedOutput(key: string, previous: OutputManifest, intact: Promise<ReadonlyMap<string, FileState> | null> | null): Promise<Record<string, FileState> | null> {
  if (previous.output !== key) return null;
  const still = await intact;
  return still !== null && still.size === Object.keys(previous.files).length ? Object.fromEntries(still) : null;
}

/** Whether every file of `after` is recorded in `before` with the same state. */
export const sameStates = (before: Readonly<Record<string, FileState>>, after: Readonly<Record<string, FileState>>): boolean =>
  Object.keys(after).every((rel) => after[rel]!.every((value, i) => value === before[rel]?.[i]));
