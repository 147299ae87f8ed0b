// Validate and graph, as a pure function of the loaded content and the images: what `build`,
// `dev` and `check --dir` make of a site before anything is rendered, with every problem found.
import type { ResolvedConfig } from './config/resolve.js';
import type { ValidSite } from './content/entries.js';
import type { RawSite } from './content/raw.js';
import type { ValidationCache } from './content/validate.js';
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
export function allDiagnostics(contentProblems: Diagnostic[], graph: SiteGraph): Diagnostic[] {
  // Graph findings that follow from an entry that already failed validation are its echo.
  const graphProblems = errorCount(contentProblems) > 0 ? graph.diagnostics.filter((d) => !RULES[d.rule].cascading) : graph.diagnostics;
  return [...contentProblems, ...graphProblems];
}

/**
 * With content errors, nothing is rendered: the bodies' missing images are looked for first
 * (body-images.ts). `always`: also without errors, for a caller that renders nothing (`check --dir`).
 */
export async function withBodyImages(found: Diagnostic[], graph: SiteGraph, config: ResolvedConfig, always = false): Promise<Diagnostic[]> {
  if (!always && errorCount(found) === 0) return found;
  const { missingBodyImages } = await import('./body-images.js');
  return [...found, ...(await missingBodyImages(graph.routes, config))];
}

const NO_IMAGES: ImageStageResult = { images: new Map(), files: new Map(), diagnostics: [], processed: 0, cached: 0 };

/**
 * The validate stage's module, loaded when something is validated: a build that takes the
 * graph from its snapshot validates nothing, and need not build the content schemas.
 */
export const validation = () => import('./content/validate.js');

/** Validate + graph, pure given the image stage's result: the same inputs always compile to the same graph. */
export async function compile(
  raw: RawSite,
  loadDiagnostics: Diagnostic[],
  config: ResolvedConfig,
  drafts: boolean,
  images: ImageStageResult = NO_IMAGES,
  cache?: ValidationCache,
  /** Look for the bodies' missing images even without other errors: the caller renders nothing (`check --dir`). */
  withoutRender = false,
): Promise<Compiled> {
  const { validateContent } = await validation();
  const validated = validateContent(raw, config, cache);
  const graph = buildGraph(validated.site, config, { includeDrafts: drafts, images: images.images });
  const diagnostics = await withBodyImages(allDiagnostics([...loadDiagnostics, ...images.diagnostics, ...validated.diagnostics], graph), graph, config, withoutRender);
  return {
    stylesheet: validated.site.stylesheet,
    graph,
    imageFiles: images.files,
    diagnostics,
  };
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
