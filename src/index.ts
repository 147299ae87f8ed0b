// The public door of ir-site (`import ... from 'ir-site'`): what a site's configuration, a
// script that drives ir-site and a markdown plugin's author need. Templates import
// `ir-site/templates` (src/exports/templates.ts). test/unit/public-api.test.ts pins this list:
// a change to it is deliberate.
import type { SiteConfigInput } from './build/config/schema.js';

/**
 * Typed identity function for `site.config.ts`: `export default defineConfig({ ... })`.
 * The options are documented in docs/configuration.md.
 */
export function defineConfig(config: SiteConfigInput): SiteConfigInput {
  return config;
}
export type { SiteConfigInput };

import { build as buildStages, type BuildOptions, type BuildResult } from './build/index.js';
import { siteChecks } from './commands/check/site-warnings.js';

/**
 * Builds a site: `build({ root })` writes its output folder, as `ir-site build` does, with the
 * same warnings (broken links and anchors, missing translations). Rejects with a
 * DiagnosticsError when the content, configuration or templates have errors.
 */
export function build(options: BuildOptions): Promise<BuildResult> {
  return buildStages({ siteChecks, ...options });
}
/** What `build` takes and returns, how it reports progress, and the names of its timed stages. */
export type { BuildOptions, BuildResult, BuildReporter, Stage } from './build/options-and-result.js';
/** Where a build writes, for `build({ sink })`: the output folder by default. */
export type { OutputSink } from './build/emit/sink.js';
/** Checks a site's links, anchors, languages and redirects, as `ir-site check` does. */
export { check, type CheckOptions, type CheckResult, type Finding } from './commands/check/index.js';
/** Serves a built folder on loopback, as `ir-site serve` does. */
export { serve, type ServeOptions, type RunningServer } from './commands/server/serve.js';
/** Builds into memory, serves, watches and rebuilds, as `ir-site dev` does. */
export { dev, type DevOptions, type RunningDev } from './commands/server/dev.js';
/** The error a build rejects with, every problem as a Diagnostic (file, line, field, message, hint), and their printer. */
export { DiagnosticsError, formatDiagnostics, type Diagnostic } from './errors/diagnostic.js';
/** The `markdown` options of site.config.ts: remark and rehype plugins, French typography. */
export type { MarkdownOptions } from './features/markdown/index.js';
/** French typography for a string (what French bodies and UI strings get), for a plugin that makes French text. */
export { typesetFrench } from './features/markdown/index.js';
/** What every template receives and the page records' shapes (also in `ir-site/templates`). */
export type * from './shared/types.js';
