// What rendering a page needs besides its route, and the error a template's failure becomes.
// Kept apart from index.ts (React's server renderer, the markdown pipeline) so that a build
// with no page to render never loads those.
import type { ComponentType } from 'react';
import type { MarkdownSource, Route, SiteGraph, StaticQuery } from '../graph/model.js';
import { fileNameIn } from '../../shared/image-data.js';
import type { BodyMessage, MarkdownOptions, MissingImage } from '../../features/markdown/index.js';
import { didYouMean, dirOf } from '../graph/route-context.js';
import type { StaticQueryResult } from '../../shared/props.js';
import type { MarkdownTree, SiteMetadata, TemplateId, TemplateProps } from '../../shared/types.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import type { DocumentAssets } from './document.js';

export type TemplateRegistry = Record<TemplateId, ComponentType<TemplateProps<any>>>;

export interface RenderContext {
  templates: TemplateRegistry;
  /** Static query file contents by hash: `{ [name]: data }`. */
  queryResults: Map<string, StaticQueryResult>;
  queryHashes: Record<string, string[]>;
  site: SiteMetadata;
  assets: DocumentAssets;
  /** The site's markdown plugins and options (config.markdown): bodies are compiled with them. */
  markdown: MarkdownOptions;
  /** The site's folder: a body is compiled as its file there (the plugins' `file.path` and `file.cwd`). */
  root: string;
  /** A page's body tree, when not compiled with `markdown` (the build reuses the previous output's here). */
  markdownTree?: BodyCompiler;
}

/**
 * A page's body tree, and the plugins' messages about it and the images it names that are not
 * next to it, when it was compiled for this render (none when it was taken from the previous
 * output: the build knows the messages, and a body with missing images leaves no output).
 */
export type BodyCompiler = (source: MarkdownSource, pagePath: string) => Promise<{ tree: MarkdownTree; messages?: BodyMessage[]; missingImages?: MissingImage[] }>;

/** A page's problem when it is the content's, not the template's (a body over a limit), as reported. */
export type ContentProblem = Diagnostic;

/** A page that cannot be rendered: its template threw, or (with `content`) its body cannot be compiled. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly route: Route,
    readonly content?: ContentProblem | readonly ContentProblem[],
  ) {
    super(message);
  }
}

export function queryResultsOf(queries: StaticQuery[]): Map<string, StaticQueryResult> {
  return new Map(queries.map((q) => [q.hash, { [q.name]: q.data } as StaticQueryResult]));
}

export function createRenderContext(graph: SiteGraph, templates: TemplateRegistry, assets: DocumentAssets, markdown: MarkdownOptions, root: string): RenderContext {
  const site = graph.staticQueries.find((q) => q.name === 'site-metadata')!.data as SiteMetadata;
  return { templates, queryResults: queryResultsOf(graph.staticQueries), queryHashes: graph.queryHashes, site, assets, markdown, root };
}

/** A body's images that are not next to it: one error each, at its line in the body's file. */
export function missingImageDiagnostics({ file, line, folder }: MarkdownSource, missing: readonly MissingImage[]): Diagnostic[] {
  const names = Object.keys(folder).map((name) => ({ name }));
  return missing.map(({ src, line: at }) =>
    diagnostic('content/missing-image', {
      file,
      line: line + (at ?? 1) - 1,
      message: `the image "${src}" is not next to this entry`,
      hint: didYouMean(fileNameIn(src), names) ?? `put the file in ${dirOf(file)}/, or fix the name (names are case-sensitive)`,
    }),
  );
}

/** A plugin's message about a route's body, at its line in the body's file: an error when the plugin marked it fatal. */
export function bodyMessageDiagnostic(route: Route, message: BodyMessage): Diagnostic {
  const { file, line } = route.markdown!;
  const at = message.line === undefined ? { line } : { line: line + message.line - 1, ...(message.column !== undefined && { column: message.column }) };
  return diagnostic('config/markdown-message', { severity: message.fatal ? 'error' : 'warning', file, ...at, message: message.text });
}

/**
 * The markdown plugins' warnings about the bodies of `routes`, from what they said about each
 * page's body (by page path); a body published at two paths (an article at the root too) is one.
 */
export function bodyMessageWarnings(routes: readonly Route[], messages: Readonly<Record<string, BodyMessage[]>> = {}): Diagnostic[] {
  // Most often no body said anything: then no route need be looked at (dev asks after every edit).
  if (Object.values(messages).every((said) => said.length === 0)) return [];
  const warnings = new Map<string, Diagnostic>();
  for (const route of routes) {
    for (const message of (route.markdown && messages[route.path]) || []) {
      const warning = bodyMessageDiagnostic(route, message);
      warnings.set(JSON.stringify([warning.file, warning.line, warning.column, warning.message]), warning);
    }
  }
  return [...warnings.values()];
}
