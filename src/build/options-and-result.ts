// What a build is given (BuildOptions), how it tells what it is doing (BuildReporter), and what
// it returns (BuildResult): the types of `build()`'s door, public through src/index.ts.
import type { ResolvedConfig } from './config/resolve.js';
import type { OutputSink } from './emit/sink.js';
import type { SiteGraph } from './graph/model.js';
import type { ImageStageResult } from './images/process.js';
import type { TemplateAssets } from './render-setup.js';
import type { SiteChecks } from './site-warnings.js';
import type { InputWalk } from './up-to-date.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import type { OutputStates } from '../incremental/output-states.js';

/** The build's stages, each timed (`BuildResult.timings`, `--profile`). */
export type Stage = 'config' | 'load' | 'validate' | 'images' | 'graph' | 'templates' | 'render' | 'check' | 'emit' | 'commit';

/** How a build tells what it is doing: each stage's time, notices, render progress. Every method is optional. */
export interface BuildReporter {
  stage?(stage: Stage, ms: number): void;
  /** Something the person running the build should know while it runs (a wait for another build). */
  notice?(message: string): void;
  progress?(done: number, total: number, elapsedMs: number): void;
}

/** What `build` is given: the site's folder, and how to build it. */
export interface BuildOptions {
  root: string;
  /** Identity to build (`--site`); the config's `identity` otherwise. */
  site?: string;
  outDir?: string;
  /** Publish drafts (dev only). */
  drafts?: boolean;
  /** Refuse to build when the site checks warn (broken links, missing translations): `build --strict`. */
  strict?: boolean;
  /**
   * The site checks every build reports as warnings (commands/check/site-warnings.ts: the CLI and
   * the package's `build` pass it); none without.
   */
  siteChecks?: SiteChecks;
  /** Write here instead of the output folder (tests, dev). */
  sink?: OutputSink;
  reporter?: BuildReporter;
  /**
   * Use and fill the build cache in `.ir-site/cache` (default true): compiled markdown, and
   * for the output folder, which pages and files the last build left there.
   */
  cache?: boolean;
  /** Render worker threads (default: one per core when there are enough pages to pay for them). */
  workers?: number;
  /**
   * The input files' states, taken by the up-to-date check that ran just before (up-to-date.ts,
   * checkUpToDate): a build records those it found before reading anything, and walks the input
   * folders itself without them.
   */
  inputs?: InputWalk | null;
  /**
   * The states of the files the last build left in the output folder, as the up-to-date check
   * that ran just before is taking them (checkUpToDate): a build judges with them which files it
   * may keep, and stats the files itself without them.
   */
  outputs?: OutputStates | null;
}

/** What a build made, how long each stage took, and its warnings. */
export interface BuildResult {
  config: ResolvedConfig;
  graph: SiteGraph;
  pages: number;
  redirects: number;
  files: number;
  outDir: string | null;
  timings: Partial<Record<Stage, number>>;
  totalMs: number;
  /** Warnings (errors stop the build with a DiagnosticsError). */
  diagnostics: Diagnostic[];
  /** Images processed in this build, and images taken from the cache. */
  images: { processed: number; cached: number };
  /** Whether the server templates and the browser bundle came from the build cache (bundle-cache.ts) rather than esbuild. */
  bundles: { server: boolean; client: boolean };
  /**
   * Whether validate and graph were skipped for the previous result (graph-snapshot.ts): its
   * inputs being the same ('same'), or the same but for articles' titles and descriptions, which
   * were put in ('headlines'); null when they ran.
   */
  graphFromSnapshot: 'same' | 'headlines' | null;
  /**
   * Pages rendered in this build, pages left as the previous build wrote them, pages whose body
   * tree was reused, render threads, pages whose search document the threads analysed, page
   * files the threads wrote themselves, and whether the routes' data keys came from the previous
   * build (its graph inputs were the same: keys.ts, graphKey).
   */
  render: { rendered: number; kept: number; reused: number; workers: number; searchDocuments: number; writtenByWorkers: number; dataKeysKnown: boolean };
  /** Files whose `.br` and `.gz` copies this build made, and files whose copies it kept from the previous build (emit/compressing-sink.ts). */
  compressed: { made: number; kept: number };
  /**
   * Whether the output folder was left as the last build left it without rendering or writing
   * anything: the same output key (keys.ts, outputKey) and every file of that build still in place.
   */
  outputUnchanged: boolean;
}


/** Runs one stage's work and adds its time to the stage's. */
export type Timed = <T>(stage: Stage, work: () => T | Promise<T>) => Promise<T>;

/** What `resultOf` makes a BuildResult from: the result's own fields, and what the rest are counted from. */
export type ResultParts = Omit<BuildResult, 'pages' | 'redirects' | 'files' | 'totalMs' | 'images' | 'bundles'> & {
  started: number;
  images: ImageStageResult;
  assets: TemplateAssets;
};

export function resultOf({ started, images, assets, ...fields }: ResultParts): BuildResult {
  const { graph } = fields;
  return {
    ...fields,
    pages: graph.routes.length,
    redirects: graph.redirects.length,
    files: graph.files.length,
    totalMs: performance.now() - started,
    images: { processed: images.processed, cached: images.cached },
    bundles: { server: assets.server.cached, client: assets.client.cached },
  };
}
