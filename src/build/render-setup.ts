// What the pages are made with: the templates bundled for the server and the browser, loaded
// into a render context, and renderRoutes for a caller that renders in this thread (`dev`).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ResolvedConfig } from './config/resolve.js';
import { contentHash, stylesheetPath } from './emit/index.js';
import type { BuildSink } from './emit/sink.js';
import { DiagnosticsError, type Diagnostic } from '../errors/diagnostic.js';
import type { Route } from './graph/model.js';
import { createRenderContext, type RenderContext } from './render/context.js';
import { configKey } from '../incremental/keys.js';
import type { BundleCache } from '../incremental/bundle-cache.js';
import { toolFingerprint } from '../incremental/fingerprint.js';
import { renderStage } from './render-pages.js';
import type { IndexedDocument } from '../features/search/index.js';
import { textReader } from './bodies.js';
import type { BodyMessage } from '../features/markdown/index.js';
import type { BodyFacts } from '../features/markdown/body-facts.js';
import { bundleClient, type ClientBundle } from './templates/client-bundle.js';
import { bundleTemplatesForServer, importTemplates, type ServerBundle } from './templates/server-bundle.js';
import type { Compiled } from './compile.js';

export interface RenderSetup {
  ctx: RenderContext;
  /** The server template bundle, for render workers; `cached`: taken from the build cache. */
  templates: { module: string; hash: string; cached: boolean };
  client: ClientBundle;
  buildHash: string;
  stylesheet: { path: string; text: string } | null;
  faviconSvg: string | null;
  legacyPrefixes: string[];
}

/** What the pages are made with, before any of it is loaded: the two bundles and the favicon. */
export interface TemplateAssets {
  server: ServerBundle;
  client: ClientBundle;
  faviconSvg: string | null;
}

/**
 * The templates bundled for the server and, with the runtime, for the browser, and the
 * favicon. They depend on no content, and esbuild works in its own process: a build starts
 * this before loading the content, so the two overlap. With the build cache (`cache`), bundles
 * whose inputs did not change are taken from it (bundle-cache.ts).
 */
export function bundleTemplates(config: ResolvedConfig, cache: Promise<BundleCache | null> = Promise.resolve(null)): Promise<TemplateAssets> {
  const assets = cache.then(async (bundleCache) => {
    const [server, client, faviconSvg] = await Promise.all([
      bundleTemplatesForServer(config, bundleCache),
      bundleClient(config, bundleCache),
      readFile(path.join(config.dirs.templates, 'favicon.svg'), 'utf8').catch(() => null),
    ]);
    await bundleCache?.save();
    return { server, client, faviconSvg };
  });
  // Awaited once the content is known to be sound, or for its errors beside the content's (bundleErrors).
  assets.catch(() => undefined);
  return assets;
}

/**
 * The errors of the templates' bundles, for a build that stops on the content's: both are
 * reported at once, not the templates' only after the content is fixed. Other failures
 * of the bundling are left for the build that gets that far.
 */
export async function bundleErrors(assets: Promise<unknown> | null): Promise<Diagnostic[]> {
  try {
    await assets;
    return [];
  } catch (error) {
    return error instanceof DiagnosticsError ? error.diagnostics : [];
  }
}

/** Loads the templates for the server, and the assets every page links. */
export async function prepareRender(config: ResolvedConfig, compiled: Compiled, assets: TemplateAssets | Promise<TemplateAssets> = bundleTemplates(config)): Promise<RenderSetup> {
  const { server, client, faviconSvg } = await assets;
  const registry = await importTemplates(server);
  const css = compiled.stylesheet?.text ?? null;
  const stylesheet = css === null ? null : { path: stylesheetPath(css), text: css };
  // A new deploy is one whose client code or styles differ: open tabs must then load in full.
  const buildHash = contentHash(`${client.hash}\0${css ?? ''}`, 20);
  const ctx = createRenderContext(compiled.graph, registry, { stylesheet: stylesheet?.path ?? null, client: client.assets, buildHash }, config.markdown, config.root);
  return { ctx, templates: { module: server.file, hash: server.hash, cached: server.cached }, client, buildHash, stylesheet, faviconSvg, legacyPrefixes: config.legacyPrefixes };
}

export interface RenderedRoutes {
  /** A diagnostic per page whose template threw. */
  errors: Diagnostic[];
  /** The search document of each page rendered (null: not searchable), by path. */
  searchDocuments: ReadonlyMap<string, IndexedDocument | null>;
  /** Each route's page key (render-pages.ts), by path: what decides, next time, whether it is rendered again. */
  pages: Record<string, string>;
  /** What the markdown plugins said about the bodies of the pages rendered, by path (pages they said nothing about are left out). */
  messages: Record<string, BodyMessage[]>;
  /** What the body of each page rendered links to and the ids it gives, by path. */
  bodyFacts: ReadonlyMap<string, BodyFacts>;
}

/**
 * Renders routes of the site of `config` in this thread into `sink` (dev's memory), deciding by
 * the build's own page keys: a route whose key is the one in `previous` (the last call's
 * `pages`) is left as the sink holds it.
 */
export async function renderRoutes(
  config: ResolvedConfig,
  routes: readonly Route[],
  setup: RenderSetup,
  sink: BuildSink,
  previous: Readonly<Record<string, string>> | null = null,
): Promise<RenderedRoutes> {
  const { errors, searchDocuments, pages, messages, bodyFacts } = await renderStage({
    withText: textReader(config),
    routes,
    ctx: setup.ctx,
    templates: { ...setup.templates, configModule: config.module.path },
    sink,
    previous: previous && { pages: previous, bodies: {}, files: {} },
    cache: { fingerprint: toolFingerprint(), configKey: configKey(config) },
    workers: 0,
  });
  return { errors, searchDocuments, pages, messages, bodyFacts };
}
