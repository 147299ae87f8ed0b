// What rendering a page needs besides its route, and the error a template's failure becomes.
// Kept apart from index.ts (React's server renderer, the markdown pipeline) so that a build
// with no page to render never loads those.
import type { ComponentType } from 'react';
import type { MarkdownSource, Route, SiteGraph, StaticQuery } from '../graph/model.js';
import type { MarkdownOptions } from '../../features/markdown/index.js';
import type { StaticQueryResult } from '../../shared/props.js';
import type { MarkdownTree, SiteMetadata, TemplateId, TemplateProps } from '../../shared/types.js';
import type { Diagnostic } from '../../errors/diagnostic.js';
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
  markdownTree?: (source: MarkdownSource, pagePath: string) => MarkdownTree | Promise<MarkdownTree>;
}

/** A page's problem when it is the content's, not the template's (a body over a limit), as reported. */
export type ContentProblem = Diagnostic;

/** A page that cannot be rendered: its template threw, or (with `content`) its body cannot be compiled. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly route: Route,
    readonly content?: ContentProblem,
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
