// Stage 4: each route -> its page record and HTML. No file system: the templates come
// in as a registry, the output goes out as values.
import { renderToString } from 'react-dom/server';
import { diagnostic } from '../../errors/diagnostic.js';
import type { Route } from '../graph/model.js';
import { MarkdownCompiler, MarkdownLimitError, MarkdownPluginError, type BodyMessage, type MarkdownOptions, type MissingImage } from '../../features/markdown/index.js';
import { appElement } from '../../shared/app.js';
import { CONFIG_FILE } from '../../shared/config-file.js';
import { chunkNameFor } from '../../shared/paths.js';
import { composeProps, type StaticQueryResult } from '../../shared/props.js';
import type { PageRecord } from '../../shared/types.js';
import { bodyMessageDiagnostic, missingImageDiagnostics, TemplateError, type BodyCompiler, type RenderContext } from './context.js';
import { renderDocument } from './document.js';
import { messageOf } from '../../errors/thrown.js';

export { createRenderContext, queryResultsOf, TemplateError, type BodyCompiler, type RenderContext, type TemplateRegistry } from './context.js';

export interface RenderedPage {
  path: string;
  html: string;
  record: PageRecord;
  /** The record serialised, as page-data.json holds it. */
  json: string;
  /** The plugins' warnings about its body, when it was compiled for this render. */
  messages?: BodyMessage[];
}

/** One compiler per set of markdown options (per thread: each thread has its own options object). */
const compilers = new WeakMap<MarkdownOptions, MarkdownCompiler>();

/** The body compiler of a site's markdown options and folder: what `RenderContext.markdownTree` stands in for. */
export function bodyCompiler(options: MarkdownOptions, root: string): BodyCompiler {
  let compiler = compilers.get(options);
  if (!compiler) compilers.set(options, (compiler = new MarkdownCompiler(options)));
  const use = compiler;
  return (source) => {
    // The build reads the bodies of the pages it renders first (src/build/bodies.ts).
    if (source.text === null) throw new Error(`the body of ${source.file} reached the renderer unread`);
    return use.compile(source.text, source.locale, source.folder, { path: source.file, cwd: root });
  };
}

export async function pageRecordOf(route: Route, staticQueryHashes: string[], compileBody: BodyCompiler): Promise<{ record: PageRecord; messages?: BodyMessage[] }> {
  const body = route.markdown ? await compileBody(route.markdown, route.path) : null;
  if (body?.missingImages?.length) throw missingImagesError(route, body.missingImages);
  const data = body ? { ...route.data, body: body.tree } : route.data;
  const record: PageRecord = {
    componentChunkName: chunkNameFor(route.template),
    path: route.path,
    result: {
      pageContext: {
        locale: route.locale,
        hrefLang: route.hrefLang,
        originalPath: route.originalPath,
        alternates: route.alternates,
        ...(route.canonicalPath !== route.path ? { canonicalPath: route.canonicalPath } : {}),
      },
      data,
    },
    staticQueryHashes,
  };
  if (route.matchPath) record.matchPath = route.matchPath;
  return { record, ...(body?.messages && { messages: body.messages }) };
}

/** A body's images that are not next to it, as the page's error. */
function missingImagesError(route: Route, missing: readonly MissingImage[]): TemplateError {
  const problems = missingImageDiagnostics(route.markdown!, missing);
  return new TemplateError(problems[0]!.message, route, problems);
}

/** Every page of a language carries the same static queries: serialise them once per context. */
const queriesJson = new WeakMap<RenderContext, Map<string, string>>();

function queriesJsonOf(ctx: RenderContext, hashes: string[], queries: StaticQueryResult[]): string {
  let byHashes = queriesJson.get(ctx);
  if (!byHashes) queriesJson.set(ctx, (byHashes = new Map()));
  const key = hashes.join(' ');
  let json = byHashes.get(key);
  if (json === undefined) byHashes.set(key, (json = JSON.stringify(queries)));
  return json;
}

/** A page's HTML and page data. */
export async function renderRoute(route: Route, ctx: RenderContext): Promise<RenderedPage> {
  const hashes = ctx.queryHashes[route.locale] ?? [];
  let record: PageRecord;
  let messages: BodyMessage[] | undefined;
  try {
    ({ record, messages } = await pageRecordOf(route, hashes, ctx.markdownTree ?? bodyCompiler(ctx.markdown, ctx.root)));
  } catch (error) {
    if (!route.markdown) throw error;
    const { file, line } = route.markdown;
    if (error instanceof MarkdownPluginError && error.attaching) {
      // The same for every body: reported once, at the configuration (render-pages.ts drops repeats).
      const hint = 'the plugin failed as it was attached, before any body: check its options in site.config.ts (docs/configuration.md "Markdown plugins"), or the version installed';
      throw new TemplateError(error.message, route, diagnostic('config/markdown-plugin', { file: CONFIG_FILE, message: error.message, hint }));
    }
    if (error instanceof MarkdownPluginError) {
      const message = `${error.message} (on this body)`;
      throw new TemplateError(message, route, diagnostic('config/markdown-plugin', { file, line, message }));
    }
    if (!(error instanceof MarkdownLimitError)) throw error;
    throw new TemplateError(
      error.message,
      route,
      diagnostic('content/body-limit', { file, line: line + error.line - 1, message: error.message, hint: `${error.hint} (docs/content.md "Limits")` }),
    );
  }
  const fatal = messages?.find((m) => m.fatal);
  if (fatal) throw new TemplateError(fatal.text, route, bodyMessageDiagnostic(route, fatal));
  const queries = hashes.map((h) => ctx.queryResults.get(h)!);
  const Template = ctx.templates[route.template];
  if (!Template) throw new TemplateError(`no template "${route.template}" (templates/pages/${route.template}.tsx)`, route);
  const props = composeProps(record, queries, { pathname: route.path, search: '', hash: '' });
  let appHtml: string;
  try {
    appHtml = renderToString(appElement(Template, props));
  } catch (error) {
    throw new TemplateError(`template "${route.template}" failed on ${route.path}: ${messageOf(error)}`, route);
  }
  const json = JSON.stringify(record);
  const html = renderDocument({ record, recordJson: json, queries, queriesJson: queriesJsonOf(ctx, hashes, queries), site: ctx.site, appHtml, assets: ctx.assets });
  return { path: route.path, html, record, json, ...(messages?.length && { messages }) };
}
