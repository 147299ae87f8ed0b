// The graph of this build: made by validate and graph, or taken from the last build's snapshot
// when its inputs' key is this build's (incremental/graph-snapshot.ts), with the route data keys
// that still hold. Beside the stages: the stages' types know nothing of it.
import type { ResolvedConfig } from './config/resolve.js';
import type { RawSite } from './content/raw.js';
import type { ValidationCache } from './content/validate.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import { buildGraph } from './graph/index.js';
import type { Route } from './graph/model.js';
import { graphFrameKey, graphKey, type GraphInputs } from '../incremental/keys.js';
import { readGraphSnapshot, restoreGraph, restoreWithHeadlines, snapshotKeys } from '../incremental/graph-snapshot.js';
import type { OutputManifest } from '../incremental/output-manifest.js';
import type { BuildCacheSetup } from './render-pages.js';
import type { ImageStageResult } from './images/process.js';
import { validation } from './compile.js';
import type { Timed } from './options-and-result.js';

/** This build's graph key and frame key (keys.ts), once its images are known; null without the build cache. */
export interface InputKeys {
  graph: (images: ImageStageResult) => string | null;
  frame: (images: ImageStageResult) => string | null;
}

export function inputKeys(cache: BuildCacheSetup | null, raw: RawSite, includeDrafts: boolean): InputKeys {
  const inputs = (images: ImageStageResult): GraphInputs | null => cache && { ...cache, raw, images: images.images, includeDrafts };
  // Each is asked more than once (to choose the graph's path, and to keep the snapshot): hashed once.
  const keyed = (key: (inputs: GraphInputs) => string) => {
    let last: { images: ImageStageResult; key: string | null } | null = null;
    return (images: ImageStageResult) => {
      if (last?.images !== images) {
        const of = inputs(images);
        last = { images, key: of && key(of) };
      }
      return last.key;
    };
  };
  return { graph: keyed(graphKey), frame: keyed(graphFrameKey) };
}

interface GraphInputsAt {
  stored: Awaited<ReturnType<typeof readGraphSnapshot>>;
  loaded: { raw: RawSite; diagnostics: Diagnostic[] };
  config: ResolvedConfig;
  includeDrafts: boolean;
  timed: Timed;
  waitForImages: () => Promise<ImageStageResult>;
  keys: InputKeys;
  /** Validation of entries unchanged since it was last asked (`dev`, which keeps its raw entries between edits). */
  validationCache?: ValidationCache;
}

/**
 * Validate and graph, or the last build's result when its inputs' key is this build's, or its
 * frame key (the articles' new headlines put in). The graph stage's inputs need the images: with
 * no snapshot to compare their keys against (a cold build), validation runs first, while libvips
 * may still be at work.
 */
export async function graphOrSnapshot({ stored, loaded, config, includeDrafts, timed, waitForImages, keys, validationCache }: GraphInputsAt) {
  if (stored) {
    const images = await waitForImages();
    const inputsKey = keys.graph(images);
    const kept = snapshotKeys(stored);
    if (inputsKey === kept.graph) {
      const restored = await timed('graph', () => restoreGraph(stored, loaded.raw.entries));
      // The same graph inputs, so the same frame: its key is the snapshot's, not hashed again.
      if (restored) return { images, inputsKey, frameKey: kept.frame, ...restored, fromSnapshot: 'same' as const, replaced: null };
    } else if (keys.frame(images) === kept.frame) {
      const restored = await timed('graph', () => restoreWithHeadlines(stored, loaded.raw.entries, config.markdown.frenchTypography));
      if (restored) return { images, inputsKey, frameKey: kept.frame, ...restored, fromSnapshot: 'headlines' as const };
    }
  }
  const { validateContent } = await validation();
  const validated = await timed('validate', () => validateContent(loaded.raw, config, validationCache));
  const images = await waitForImages();
  const graph = await timed('graph', () => buildGraph(validated.site, config, { includeDrafts, images: images.images }));
  return { images, inputsKey: keys.graph(images), frameKey: keys.frame(images), validation: validated.diagnostics, graph, fromSnapshot: null, replaced: null };
}


/**
 * The previous build's route data keys that hold for this build's graph: all of them when its
 * graph key was this one's; when this graph is its graph with headlines put in, all but those of
 * the routes replaced; otherwise none.
 */
export function dataKeysKept(previous: OutputManifest['graph'], inputsKey: string, edit: { from: string; replaced: readonly Route[] } | null): Record<string, string> | null {
  if (!previous) return null;
  if (previous.key === inputsKey) return previous.dataKeys;
  if (!edit || previous.key !== edit.from) return null;
  const kept = { ...previous.dataKeys };
  for (const route of edit.replaced) delete kept[route.path];
  return kept;
}
