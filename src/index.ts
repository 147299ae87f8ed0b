// The public door of ir-site: what a site's config and a program may import.
import type { SiteConfigInput } from './config/schema.js';

export { build, type BuildOptions, type BuildResult, type BuildReporter, type Stage } from './core/build.js';
export { loadConfig } from './config/load.js';
export type { ResolvedConfig } from './config/resolve.js';
export { loadContent } from './content/load.js';
export { validateContent } from './content/validate.js';
export { buildGraph } from './graph/index.js';
export { renderRoute, createRenderContext } from './render/index.js';
export { MemorySink, StagedDiskSink, type OutputSink } from './emit/sink.js';
export { DiagnosticsError, formatDiagnostics, type Diagnostic } from './errors/diagnostic.js';
export { check, type CheckOptions, type CheckResult, type Finding } from './check/index.js';
export { serve } from './server/serve.js';
export { dev } from './server/dev.js';
export type * from './shared/types.js';

/** Typed identity function for `site.config.ts`. */
export function defineConfig(config: SiteConfigInput): SiteConfigInput {
  return config;
}
