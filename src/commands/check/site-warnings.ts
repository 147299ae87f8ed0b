// What every build (and dev) reports beyond the content's own errors: broken links and
// anchors in the bodies, missing translations, hreflang problems (quick.ts). Warnings: the site
// still builds; `build --strict` fails on them. The build gets this function as its
// `siteChecks` option (the CLI, the package's `build`, dev), so the build stage needs no check code.
import type { ResolvedConfig } from '../../build/config/resolve.js';
import type { SiteGraph } from '../../build/graph/model.js';
import { errorCount, type Diagnostic } from '../../errors/diagnostic.js';
import { textReader } from '../../build/bodies.js';
import { quickCheck, textFacts } from './quick.js';
import type { SiteChecks } from '../../build/index.js';

/** The site checks' warnings; none while the content has errors (they would mostly echo them). */
function siteWarnings(graph: SiteGraph, config: ResolvedConfig, found: readonly Diagnostic[]): Diagnostic[] {
  if (errorCount(found) > 0) return [];
  // Links and anchors are in the bodies: those the build cache did not read are read for this.
  return quickCheck({ ...graph, routes: graph.routes.map(textReader(config)) }, config);
}

/** The checks, and what of a body they read (the links it writes, the ids it gives): the build cache keys their warnings by it. */
export const siteChecks: SiteChecks = {
  run: siteWarnings,
  bodyFacts(text) {
    const { links, ids } = textFacts(text);
    return [links, [...ids]];
  },
};
