// What every build (and dev) reports beyond the content's own errors: broken links and
// anchors in the bodies, missing translations, hreflang problems (quick.ts). Warnings: the site
// still builds; `build --strict` fails on them. The build gets this function as its
// `siteChecks` option (the CLI, the package's `build`, dev), so the build stage needs no check code.
import type { ResolvedConfig } from '../../build/config/resolve.js';
import type { Route, SiteGraph } from '../../build/graph/model.js';
import { errorCount, type Diagnostic } from '../../errors/diagnostic.js';
import { textReader } from '../../build/bodies.js';
import { RESERVED_IDS } from '../../shared/dom-ids.js';
import { quickCheck } from './quick.js';
import { markdownFacts, type MarkdownFacts } from './markdown-facts.js';
import type { SiteChecks } from '../../build/index.js';

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** A body's facts as `bodyFacts` stored them, or null for anything else (that body is then read). */
function storedFacts(value: unknown): MarkdownFacts | null {
  if (!Array.isArray(value) || value.length !== 2 || !isStrings(value[0]) || !isStrings(value[1])) return null;
  return { links: value[0], ids: new Set([...RESERVED_IDS, ...value[1]]) };
}

/** The site checks' warnings; none while the content has errors (they would mostly echo them). */
function siteWarnings(graph: SiteGraph, config: ResolvedConfig, found: readonly Diagnostic[], factsOf?: (route: Route) => unknown): Diagnostic[] {
  if (errorCount(found) > 0) return [];
  if (!factsOf) return quickCheck(graph, config);
  // Bodies the build cache did not read (or whose facts it does not know) are read for this.
  const read = textReader(config);
  return quickCheck(graph, config, (route) => storedFacts(factsOf(route)) ?? markdownFacts(read(route).markdown!.text));
}

/** The checks, and what of a body they read (the links it writes, the ids it gives): the build cache keeps their facts by it. */
export const siteChecks: SiteChecks = {
  run: siteWarnings,
  bodyFacts(text) {
    const { links, ids } = markdownFacts(text);
    // Every page has the reserved ids: they are put back (storedFacts), not stored with each body.
    return [links, [...ids].filter((id) => !RESERVED_IDS.includes(id))];
  },
};
