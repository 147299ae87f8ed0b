// The site checks' warnings for a build: found by the checks the caller gives (the CLI's are
// commands/check/site-warnings.ts), or the last build's when what the checks read is as it was
// (incremental/site-warnings-memo.ts).
import type { ResolvedConfig } from './config/resolve.js';
import type { RawEntry } from './content/raw.js';
import type { Route, SiteGraph } from './graph/model.js';
import { textReader } from './bodies.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import { keyOf, siteChecksKey } from '../incremental/keys.js';
import type { Memo } from '../incremental/memo.js';
import { SiteWarningsMemo } from '../incremental/site-warnings-memo.js';

/** Warnings about a compiled site (broken links, missing translations), given what it already found. */
export interface SiteChecks {
  run(graph: SiteGraph, config: ResolvedConfig, found: readonly Diagnostic[]): Diagnostic[] | Promise<Diagnostic[]>;
  /** What the checks read of a body, as JSON: two bodies with the same facts are checked alike. */
  bodyFacts(text: string): unknown;
}

export interface SiteWarningInputs {
  graph: SiteGraph;
  config: ResolvedConfig;
  /** Everything found so far: the checks report nothing while it has errors. */
  found: readonly Diagnostic[];
  contentErrors: boolean;
  entries: readonly RawEntry[];
  /** graphFrameKey, or null without the build cache. */
  frameKey: string | null;
  /** The build cache's memo, or null without it. */
  memo: Memo | null;
  timed: <T>(stage: 'check', work: () => T | Promise<T>) => Promise<T>;
}

export async function siteWarningsOf(checks: SiteChecks, inputs: SiteWarningInputs): Promise<Diagnostic[]> {
  const { graph, config, found, frameKey } = inputs;
  if (frameKey === null || inputs.memo === null) return inputs.timed('check', () => checks.run(graph, config, found));
  // Only the key is needed when the bodies are all as they were (a warm build): the rest is made when asked for.
  let byFile: Map<string, string> | null = null;
  const memo = await SiteWarningsMemo.open(inputs.memo, {
    key: siteChecksKey(frameKey, graph.routes, inputs.contentErrors),
    frame: ['site checks', frameKey, inputs.contentErrors],
    bodies: () => graph.routes.flatMap((r) => (r.markdown ? [{ path: r.path, digest: r.markdown.digest }] : [])),
    fileDigest: (file) => (byFile ??= new Map(inputs.entries.map((e) => [e.file, `${e.matterDigest} ${e.bodyDigest}`]))).get(file) ?? '',
  });
  const withText = textReader(config);
  let routes: Map<string, Route> | null = null;
  const factsOf = async (at: string) => keyOf(await checks.bodyFacts(withText((routes ??= new Map(graph.routes.map((r) => [r.path, r]))).get(at)!).markdown!.text));
  const warnings = (await memo.recall(factsOf)) ?? (await inputs.timed('check', () => checks.run(graph, config, found)));
  await memo.keep(warnings, factsOf);
  return warnings;
}
