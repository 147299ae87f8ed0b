// The site checks' warnings for a build, once its pages are rendered: found by the checks the
// caller gives (the CLI's are commands/check/site-warnings.ts), or the last build's when what
// the checks read is as it was (incremental/site-warnings-memo.ts). What they read of a body is
// what its compiled tree links to and the ids it gives (features/markdown/body-facts.ts): from
// the render for the pages it rendered, else from the memo, else from the kept page's tree.
import type { ResolvedConfig } from './config/resolve.js';
import type { RawEntry } from './content/raw.js';
import type { Route, SiteGraph } from './graph/model.js';
import { textReader } from './bodies.js';
import { keptBodyTree } from './kept-bodies.js';
import type { BuildCacheSetup } from './render-pages.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import { bodyFacts, type BodyFacts } from '../features/markdown/body-facts.js';
import { bodyKey, siteChecksKey } from '../incremental/keys.js';
import type { Memo } from '../incremental/memo.js';
import { SiteWarningsMemo } from '../incremental/site-warnings-memo.js';

/** Warnings about a compiled site (broken links, missing translations). */
export interface SiteChecks {
  /** The warnings of a site whose content has no errors. `factsOf` answers for each route with a body what that body links to and the ids it gives. */
  run(graph: SiteGraph, config: ResolvedConfig, factsOf: (route: Route) => BodyFacts): Diagnostic[] | Promise<Diagnostic[]>;
}

export interface SiteWarningInputs {
  graph: SiteGraph;
  config: ResolvedConfig;
  entries: readonly RawEntry[];
  /** graphFrameKey, or null without the build cache. */
  frameKey: string | null;
  /** The build cache's memo and set-up, or null without it. */
  memo: Memo | null;
  cache: BuildCacheSetup | null;
  /** The facts of the bodies this build rendered, by page path. */
  rendered: ReadonlyMap<string, BodyFacts>;
  /** Each page's body key (keys.ts, bodyKey), by path, where the render stage made them (render-pages.ts). */
  bodyKeys: Readonly<Record<string, string>>;
  /** Where the previous build's file at an output path is, for the pages it kept. */
  previousFile: (rel: string) => string | null;
  timed: <T>(stage: 'check', work: () => T | Promise<T>) => Promise<T>;
}

export async function siteWarningsOf(checks: SiteChecks, inputs: SiteWarningInputs): Promise<Diagnostic[]> {
  const { graph, config, frameKey, memo, cache } = inputs;
  const kept = keptBodyTree(inputs.previousFile, textReader(config), config);
  const factsOf = async (route: Route) => inputs.rendered.get(route.path) ?? bodyFacts(await kept(route as Route & { markdown: object }));
  if (frameKey === null || memo === null || cache === null) {
    const facts = new Map<string, BodyFacts>();
    for (const route of graph.routes) if (route.markdown) facts.set(route.path, await factsOf(route));
    return inputs.timed('check', () => checks.run(graph, config, (route) => facts.get(route.path)!));
  }
  // Only the key is needed when the bodies are all as they were (a warm build): the rest is made when asked for.
  let byFile: Map<string, string> | null = null;
  const factsKeyOf = (route: Route) => inputs.bodyKeys[route.path] ?? bodyKey(route.markdown!, cache.fingerprint, cache.configKey);
  const warningsMemo = await SiteWarningsMemo.open(memo, {
    key: siteChecksKey(frameKey, graph.routes),
    frame: ['site checks', frameKey],
    bodies: () => graph.routes.flatMap((r) => (r.markdown ? [{ path: r.path, key: factsKeyOf(r), facts: () => factsOf(r) }] : [])),
    fileDigest: (file) => (byFile ??= new Map(inputs.entries.map((e) => [e.file, `${e.matterDigest} ${e.bodyDigest}`]))).get(file) ?? '',
  });
  const warnings =
    (await warningsMemo.recall()) ??
    (await inputs.timed('check', async () => {
      const byKey = await warningsMemo.facts();
      return checks.run(graph, config, (route) => byKey(factsKeyOf(route))!);
    }));
  await warningsMemo.keep(warnings);
  return warnings;
}
