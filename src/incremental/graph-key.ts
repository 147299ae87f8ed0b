// A key of everything the validate and graph stages read, bodies left out. Those stages are
// pure, so two builds with the same key make the same routes, but for the bodies' text. A route's
// key (digest.ts) hashes what the route holds besides its text (~100 ms for the 8065 routes of a
// 4000-article site, most of it JSON.stringify) and then its text by digest: with the same key
// as the previous build, that first part is taken from the output manifest instead, and a build
// that changed only bodies (the common edit) hashes no route.
//
// Of an entry file, the later stages read the front matter and the body's image references (the
// graph resolves them); everything else about the body is its text. So an entry counts here by
// its path, the digest of its text before the body (front matter, delimiters: the field and body
// lines follow from it) and its image references.
import type { RawSite } from '../build/content/raw.js';
import { keyOf } from './digest.js';

export interface GraphInputs {
  /** toolFingerprint(): the stages' code. */
  fingerprint: string;
  /** keyOf(config): the resolved configuration. */
  configKey: string;
  raw: RawSite;
  /** The image stage's processed images by path (their data is part of the key). */
  images: ReadonlyMap<string, unknown>;
  includeDrafts: boolean;
}

/** The key, or null when some entry's front matter digest is unknown (read without the build cache). */
export function graphKey({ fingerprint, configKey, raw, images, includeDrafts }: GraphInputs): string | null {
  const entries: unknown[] = [];
  for (const e of raw.entries) {
    if (e.matterDigest === undefined || e.imageRefs === undefined) return null;
    entries.push([e.file, e.matterDigest, e.imageRefs]);
  }
  const { entries: _, ...rest } = raw;
  // The graph looks images up by path: the map's order (images finish in any order) does not count.
  const byPath = [...images].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return keyOf(fingerprint, configKey, includeDrafts, byPath, entries, rest);
}
