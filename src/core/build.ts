// `ir-site build`: the five stages chained in plain sight, each timed.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../config/load.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { loadContent } from '../content/load.js';
import { validateContent } from '../content/validate.js';
import { writePage, writePublishedFiles, writeSiteFiles, writeStaticQueries, stylesheetPath, contentHash } from '../emit/index.js';
import { StagedDiskSink, type OutputSink } from '../emit/sink.js';
import { DiagnosticsError, errorCount, type Diagnostic } from '../errors/diagnostic.js';
import { buildGraph } from '../graph/index.js';
import type { SiteGraph } from '../graph/model.js';
import { createRenderContext, renderRoute, TemplateError } from '../render/index.js';
import { loadTemplates } from './templates.js';

export type Stage = 'config' | 'load' | 'validate' | 'graph' | 'templates' | 'render' | 'emit';

export interface BuildReporter {
  stage?(stage: Stage, ms: number): void;
  progress?(done: number, total: number, elapsedMs: number): void;
}

export interface BuildOptions {
  root: string;
  /** Identity to build (`--site`); the config's `identity` otherwise. */
  site?: string;
  outDir?: string;
  /** Publish drafts (dev only). */
  drafts?: boolean;
  /** Write here instead of the output folder (tests, dev). */
  sink?: OutputSink;
  reporter?: BuildReporter;
}

export interface BuildResult {
  config: ResolvedConfig;
  graph: SiteGraph;
  pages: number;
  redirects: number;
  files: number;
  outDir: string | null;
  timings: Partial<Record<Stage, number>>;
  totalMs: number;
  /** Warnings (errors stop the build with a DiagnosticsError). */
  diagnostics: Diagnostic[];
}

/** Graph findings that follow from an entry that already failed validation. */
const CASCADING_RULES = new Set(['graph/unknown-page', 'redirects/missing-target', 'graph/unknown-section']);

export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const timings: Partial<Record<Stage, number>> = {};
  async function timed<T>(stage: Stage, work: () => T | Promise<T>): Promise<T> {
    const t0 = performance.now();
    const result = await work();
    timings[stage] = performance.now() - t0;
    options.reporter?.stage?.(stage, timings[stage]!);
    return result;
  }

  const config = await timed('config', () => loadConfig({ root: options.root, identity: options.site, outDir: options.outDir }));
  const loaded = await timed('load', () => loadContent(config));
  const validated = await timed('validate', () => validateContent(loaded.raw, config));
  const graph = await timed('graph', () => buildGraph(validated.site, config, { includeDrafts: options.drafts ?? false }));

  const contentProblems = [...loaded.diagnostics, ...validated.diagnostics];
  const graphProblems = errorCount(contentProblems) > 0 ? graph.diagnostics.filter((d) => !CASCADING_RULES.has(d.rule)) : graph.diagnostics;
  const problems = [...contentProblems, ...graphProblems];
  if (errorCount(problems) > 0) throw new DiagnosticsError(problems, 'build');

  const templates = await timed('templates', () => loadTemplates(config));
  const css = validated.site.stylesheet?.text ?? null;
  const stylesheet = css === null ? null : { path: stylesheetPath(css), text: css };
  const faviconSvg = await readFile(path.join(config.dirs.templates, 'favicon.svg'), 'utf8').catch(() => null);
  const buildHash = contentHash(`${templates.hash}\0${css ?? ''}`, 20);
  const ctx = createRenderContext(graph, templates.registry, { stylesheet: stylesheet?.path ?? null });

  const disk = options.sink ? null : new StagedDiskSink(config.dirs.out);
  const sink = options.sink ?? disk!;
  try {
    const renderErrors: Diagnostic[] = [];
    await timed('render', async () => {
      const total = graph.routes.length;
      const t0 = performance.now();
      const pending: Promise<void>[] = [];
      for (const [i, route] of graph.routes.entries()) {
        try {
          pending.push(writePage(sink, renderRoute(route, ctx)));
        } catch (error) {
          if (!(error instanceof TemplateError)) throw error;
          renderErrors.push({ severity: 'error', rule: 'render/template', file: route.file ?? `templates/pages/${route.template}.tsx`, message: error.message, hint: 'the template threw while rendering this page; fix the template or the data it reads' });
        }
        if (pending.length >= 64) await Promise.all(pending.splice(0));
        if ((i + 1) % 50 === 0 || i + 1 === total) options.reporter?.progress?.(i + 1, total, performance.now() - t0);
      }
      await Promise.all(pending);
    });
    if (renderErrors.length > 0) throw new DiagnosticsError(renderErrors, 'render');

    await timed('emit', async () => {
      await Promise.all([
        writeStaticQueries(sink, graph),
        writePublishedFiles(sink, graph.files),
        writeSiteFiles(sink, { graph, site: ctx.site, buildHash, stylesheet, faviconSvg }),
      ]);
      await disk?.commit();
    });
  } catch (error) {
    await disk?.discard();
    throw error;
  }

  return {
    config,
    graph,
    pages: graph.routes.length,
    redirects: graph.redirects.length,
    files: graph.files.length,
    outDir: disk ? config.dirs.out : null,
    timings,
    totalMs: performance.now() - started,
    diagnostics: problems,
  };
}
