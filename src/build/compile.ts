// Validate and graph, as a pure function of the loaded content and the images: what `build`,
// `dev` and `check --dir` make of a site before anything is rendered, with every problem found.
import type { ResolvedConfig } from './config/resolve.js';
import type { ValidSite } from './content/entries.js';
import type { RawSite } from './content/raw.js';
import { errorCount, StrictBuildError, type Diagnostic } from '../errors/diagnostic.js';
import { RULES } from '../errors/rules.js';
import { buildGraph } from './graph/index.js';
import type { Route, SiteGraph } from './graph/model.js';
import { bodyMessageWarnings } from './render/context.js';
import type { BodyMessage } from '../features/markdown/index.js';
import type { ImageStageResult } from './images/process.js';

export interface Compiled {
  /** The site's stylesheet (templates/styles.css), as validated. */
  stylesheet: ValidSite['stylesheet'];
  graph: SiteGraph;
  /** Processed image files to publish: site path -> file in the image cache. */
  imageFiles: ReadonlyMap<string, string>;
  /** Everything found, warnings included; errors mean nothing may be rendered. */
  diagnostics: Diagnostic[];
  /** The key of the graph's inputs (incremental/keys.ts, graphKey), when the build cache knows it. */
  graphKey?: string | null;
}

/** Every problem of a run; graph findings that only echo a content error are dropped. */
function allDiagnostics(contentProblems: Diagnostic[], graph: SiteGraph): Diagnostic[] {
  // Graph findings that follow from an entry that already failed validation are its echo.
  const graphProblems = errorCount(contentProblems) > 0 ? graph.diagnostics.filter((d) => !RULES[d.rule].cascading) : graph.diagnostics;
  return [...contentProblems, ...graphProblems];
}

/**
 * With content errors, nothing is rendered: the bodies' missing images are looked for first
 * (body-images.ts). `always`: also without errors, for a caller that renders nothing (`check --dir`).
 */
async function withBodyImages(found: Diagnostic[], graph: SiteGraph, config: ResolvedConfig, always = false): Promise<Diagnostic[]> {
  if (!always && errorCount(found) === 0) return found;
  const { missingBodyImages } = await import('./body-images.js');
  return [...found, ...(await missingBodyImages(graph.routes, config))];
}

/**
 * The validate stage's module, loaded when something is validated: a build that takes the
 * graph from its snapshot validates nothing, and need not build the content schemas.
 */
export const validation = () => import('./content/validate.js');

/** Validate + graph, and all that is found, for a caller that renders nothing (`check --dir`): the bodies' missing images are looked for even without errors. */
export async function compile(loaded: { raw: RawSite; diagnostics: Diagnostic[] }, config: ResolvedConfig, images: ImageStageResult): Promise<Compiled> {
  const { validateContent } = await validation();
  const validated = validateContent(loaded.raw, config);
  const graph = buildGraph(validated.site, config, { includeDrafts: false, images: images.images });
  return compiledOf(loaded, images, { graph, validation: validated.diagnostics }, config, true);
}

/**
 * The site a graph compiles to, with everything found on the way: the load's, the images', the
 * validation's and the graph's findings (and the bodies' missing images, with errors).
 */
export async function compiledOf(
  loaded: { raw: RawSite; diagnostics: Diagnostic[] },
  images: ImageStageResult,
  made: { graph: SiteGraph; validation: Diagnostic[]; inputsKey?: string | null },
  config: ResolvedConfig,
  withoutRender = false,
): Promise<Compiled> {
  const { graph } = made;
  const diagnostics = await withBodyImages(allDiagnostics([...loaded.diagnostics, ...images.diagnostics, ...made.validation], graph), graph, config, withoutRender);
  return { stylesheet: loaded.raw.stylesheet, graph, imageFiles: images.files, diagnostics, graphKey: made.inputsKey };
}

/**
 * The warnings found once the pages are rendered: the site checks' (`site`), and what the
 * markdown plugins said about the bodies of `routes` (by page path). `build --strict` refuses
 * them here, with the content's own warnings (`found`), so that one run lists them all.
 */
export function laterWarnings(found: readonly Diagnostic[], site: Diagnostic[], routes: readonly Route[], messages: Readonly<Record<string, BodyMessage[]>> | undefined, strict = false): Diagnostic[] {
  const warnings = [...site, ...bodyMessageWarnings(routes, messages)];
  if (strict && found.length + warnings.length > 0) throw new StrictBuildError([...found, ...warnings]);
  return warnings;
}
