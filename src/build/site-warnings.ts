// The site checks' warnings for a build: found by the checks the caller gives (the CLI's are
// commands/check/site-warnings.ts), or the last build's when what the checks read is as it was
// (incremental/site-warnings-memo.ts).
import type { ResolvedConfig } from './config/resolve.js';
import type { RawEntry } from './content/raw.js';
import type { MarkdownSource, Route, SiteGraph } from './graph/model.js';
import { textReader } from './bodies.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import { siteChecksKey } from '../incremental/keys.js';
import type { Memo } from '../incremental/memo.js';
import { SiteWarningsMemo } from '../incremental/site-warnings-memo.js';

/** Warnings about a compiled site (broken links, missing translations), given what it already found. */
export interface SiteChecks {
  /**
   * The warnings. `factsOf`, when given, answers for each route with a body what `bodyFacts`
   * made of it (from the build cache): the checks then read only the bodies a warning points
   * into. A value they do not recognise counts as unknown, and that body is read.
   */
  run(graph: SiteGraph, config: ResolvedConfig, found: readonly Diagnostic[], factsOf?: (route: Route) => unknown): Diagnostic[] | Promise<Diagnostic[]>;
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
    bodies: () => graph.routes.flatMap((r) => (r.markdown ? [{ path: r.path, key: factsKeyOf(r.markdown) }] : [])),
    fileDigest: (file) => (byFile ??= new Map(inputs.entries.map((e) => [e.file, `${e.matterDigest} ${e.bodyDigest}`]))).get(file) ?? '',
  });
  const withText = textReader(config);
  let routes: Map<string, Route> | null = null;
  const factsOf = async (at: string) => checks.bodyFacts(withText((routes ??= new Map(graph.routes.map((r) => [r.path, r]))).get(at)!).markdown!.text);
  const warnings = (await memo.recall(factsOf)) ?? (await inputs.timed('check', async () => checks.run(graph, config, found, bodyOf(await memo.facts(factsOf)))));
  await memo.keep(warnings, factsOf);
  return warnings;
}

/**
 * What a body's facts are kept by: its digest, and its language, whose identity tokens the text
 * was filled with (content/identity.ts): `en.md` and `fr.md` of the same bytes may link apart.
 */
const factsKeyOf = (markdown: MarkdownSource) => `${markdown.digest} ${markdown.locale}`;

/** The facts of a route's body, from the facts by factsKeyOf. */
const bodyOf = (byKey: (key: string) => unknown) => (route: Route) => (route.markdown ? byKey(factsKeyOf(route.markdown)) : undefined);
