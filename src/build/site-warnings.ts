// What every build (and dev) reports beyond the content's own errors: broken links and
// anchors in the bodies, missing translations, hreflang problems (commands/check/quick.ts).
// Warnings: the site still builds; `build --strict` fails on them.
import type { ResolvedConfig } from './config/resolve.js';
import type { SiteGraph } from './graph/model.js';
import { errorCount, type Diagnostic } from '../errors/diagnostic.js';
import { quickCheck } from '../commands/check/quick.js';

/** The site checks' warnings; none while the content has errors (they would mostly echo them). */
export function siteWarnings(graph: SiteGraph, config: ResolvedConfig, found: readonly Diagnostic[]): Diagnostic[] {
  return errorCount(found) > 0 ? [] : quickCheck(graph, config);
}
