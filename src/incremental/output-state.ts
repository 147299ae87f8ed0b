// Whether a build can leave the output folder exactly as the last one left it. The render and
// emit stages read the graph, the bodies, the bundles, the favicon and the files they copy; when
// all of these have the key the last build recorded, and every file it wrote is still as it left
// it, they would write the same bytes: the build skips keeping every page and its copies
// through the sinks, and reading the caches those stages use (docs/build-cache.md).
import { stat } from 'node:fs/promises';
import type { RawEntry } from '../build/content/raw.js';
import { outputKey } from './keys.js';
import { copiedState } from '../files/digest.js';
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

/** Whether the last build recorded this key and every file it wrote is still in place. */
export async function unchangedOutput(key: string, previous: OutputManifest, intact: Promise<ReadonlySet<string> | null> | null): Promise<boolean> {
  if (previous.output !== key) return false;
  const still = await intact;
  return still !== null && still.size === Object.keys(previous.files).length;
}
