// Stage 5: the only writer. Each output kind has one small writer; all go through a sink.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { diagnostic, DiagnosticsError } from '../../errors/diagnostic.js';
import type { PublishedFile, SiteGraph } from '../graph/model.js';
import type { PageFiles } from './page-files.js';
import { htmlFileFor, pageDataUrl, staticQueryUrl } from '../../shared/paths.js';
import type { SiteMetadata } from '../../shared/types.js';
import { APP_DATA_PATH } from '../../shared/offline.js';
import { INLINE_SCRIPTS } from '../render/document.js';
import { headerRules, netlifyHeaders, nginxHeaders, NETLIFY_HEADERS_FILE, NGINX_HEADERS_FILE } from './host-headers.js';
import { netlifyRedirects, nginxRedirects, NETLIFY_REDIRECTS_FILE, NGINX_REDIRECTS_FILE } from './host-redirects.js';
import { caseInsensitiveRedirect, indexRedirects } from '../../shared/redirects.js';
import { MATCH_PATHS_FILE, matchPathsOf } from '../../shared/match-paths.js';
import type { BuildSink, OutputSink } from './sink.js';
import { sanitizeSvg, SVG_SANITISER } from './svg.js';
import { iconPng, PNG_ICONS, shareImagePath, sharePng } from './icons.js';
import { installedFonts } from '../../files/installed-fonts.js';
import { defaultFaviconSvg, pngToIco, robotsTxt, sitemapEntries, sitemapXml, webManifest } from './site-files.js';

const rel = (sitePath: string) => sitePath.replace(/^\/+/, '');

export const contentHash = (data: string | Uint8Array, length = 10) => createHash('sha256').update(data).digest('hex').slice(0, length);

/** The stylesheet at a content-hashed path, so hosts can cache it forever. */
export function stylesheetPath(css: string): string {
  return `/static/styles.${contentHash(css)}.css`;
}

/** The two files of a page: its HTML and its page data. */
export function pageFilePaths(pagePath: string): [html: string, json: string] {
  return [htmlFileFor(pagePath), rel(pageDataUrl(pagePath))];
}

export async function writePage(sink: BuildSink, page: PageFiles): Promise<void> {
  const rels = pageFilePaths(page.path);
  const data = [page.html, page.json];
  await Promise.all(rels.map((rel, i) => (page.written?.[i] ? sink.adopt(rel, page.digests[i]!, page.copies?.[i]) : sink.write(rel, data[i]!, page.digests[i]))));
}

export async function writeStaticQueries(sink: OutputSink, graph: SiteGraph): Promise<void> {
  await Promise.all(graph.staticQueries.map((q) => sink.write(rel(staticQueryUrl(q.hash)), JSON.stringify({ data: { [q.name]: q.data } }))));
}

/** The files next to entries, as they are; SVG files sanitised (svg.ts). */
export async function writePublishedFiles(sink: OutputSink, files: readonly PublishedFile[], derived: DerivedFile = makeNow(sink)): Promise<void> {
  await Promise.all(
    files.map(async (f) => {
      if (!/\.svg$/i.test(f.to)) return sink.copy(f.from, rel(f.to));
      const text = await readFile(f.from, 'utf8');
      await derived(rel(f.to), [SVG_SANITISER, text], async () => {
        const clean = await sanitizeSvg(text);
        if (clean) return clean;
        throw new DiagnosticsError(
          [diagnostic('content/invalid-svg', { file: f.file, message: 'this file is not an SVG image that can be published (well-formed XML with an <svg> root element)' })],
          'emit',
        );
      });
    }),
  );
}

/**
 * The rules the browser runtime applies, compact: one entry per legacy prefix instead of
 * one rule per page (`/cn/<path>` -> `/<path>`), `[from, to]` pairs for the rest. The legacy
 * lookup lowercases the rest of the path (a link may be in any case), so the pages whose own
 * path has capitals, and no rule from its lowercase spelling, are listed for it to find.
 */
export function browserRedirects(graph: SiteGraph, legacyPrefixes: string[]): BrowserRedirects {
  const rules = graph.redirects.filter((r) => r.kind !== 'legacy-prefix' && r.rule.redirectInBrowser).map((r) => r.rule);
  const index = indexRedirects(rules);
  const hasCapitals = (pagePath: string) => pagePath !== pagePath.toLowerCase();
  const casedPaths = legacyPrefixes.length === 0 ? [] : graph.routes.map((r) => r.path).filter((p) => hasCapitals(p) && caseInsensitiveRedirect(index, p.toLowerCase())?.toPath !== p);
  return { legacyPrefixes, rules: rules.map((r) => [r.fromPath, r.toPath]), ...(casedPaths.length > 0 && { casedPaths }) };
}

export interface BrowserRedirects {
  legacyPrefixes: string[];
  rules: [from: string, to: string][];
  /** Pages whose path has capitals no rule brings back (browserRedirects). */
  casedPaths?: string[];
}

/**
 * Writes the file `rel` made from `inputs` by `make`: the build cache skips making and
 * writing it when the inputs are those of an earlier build whose bytes are still in the
 * output (incremental/derived-files.ts); without a cache, `make` runs.
 */
export type DerivedFile = (rel: string, inputs: readonly unknown[], make: () => string | Uint8Array | Promise<string | Uint8Array>) => Promise<void>;

const makeNow =
  (sink: OutputSink): DerivedFile =>
  async (rel, _inputs, make) =>
    sink.write(rel, await make());

/** The favicon's 32-pixel PNG, inside an ICO file. sharp (libvips) loads only when one is drawn. */
async function faviconIco(svg: string): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  return pngToIco(await sharp(Buffer.from(svg)).resize(32, 32).png().toBuffer(), 32);
}

export interface SiteFilesInput {
  legacyPrefixes: string[];
  graph: SiteGraph;
  site: SiteMetadata;
  buildHash: string;
  stylesheet: { path: string; text: string } | null;
  faviconSvg: string | null;
  /** For the files made from every route or redirect (sitemap, host redirect files) and the favicon. */
  derived?: (sink: BuildSink) => DerivedFile;
  /**
   * The key of everything the graph was made from, configuration included (incremental/keys.ts, graphKey),
   * when known: the files made from the graph alone are keyed by it instead of by their inputs,
   * which are every redirect rule, page path and sitemap entry: hashing those on every build is waste.
   */
  graphKey?: string | null;
}

/** The fonts an SVG's drawing depends on: this machine's when it has text. */
const fontsOf = (svg: string): string | null => (/<text\b/i.test(svg) ? installedFonts() : null);

export async function writeSiteFiles(sink: BuildSink, input: SiteFilesInput): Promise<void> {
  const { graph, site } = input;
  const svg = input.faviconSvg ?? defaultFaviconSvg(site.site.charAt(0));
  const rules = graph.redirects.map((r) => r.rule);
  const pagePaths = graph.routes.map((r) => r.path);
  const matchPaths = matchPathsOf(graph.routes);
  const derived = (input.derived ?? makeNow)(sink);
  const headers = { integrations: site.integrations, inlineScripts: INLINE_SCRIPTS, svgPaths: graph.files.filter((f) => /\.svg$/i.test(f.to)).map((f) => f.to) };
  let sitemap: ReturnType<typeof sitemapEntries> | undefined;
  const sitemapOf = () => (sitemap ??= sitemapEntries(graph.routes));
  // What a file made from the graph and the configuration alone depends on: the graph key when known.
  const fromGraph = (inputs: () => readonly unknown[]) => (input.graphKey ? ['graph', input.graphKey] : inputs());
  await Promise.all([
    sink.write(APP_DATA_PATH.slice(1), JSON.stringify({ webpackCompilationHash: input.buildHash })),
    derived('redirects.json', fromGraph(() => [rules]), () => `${JSON.stringify(rules, null, 2)}\n`),
    derived('page-data/redirects.json', fromGraph(() => [rules, pagePaths, input.legacyPrefixes]), () => JSON.stringify(browserRedirects(graph, input.legacyPrefixes))),
    // Pages that answer every path under a prefix (`/search/*`): for the runtime and `serve`.
    sink.write(MATCH_PATHS_FILE, JSON.stringify(matchPaths)),
    // The same rules for hosts that answer them before any JavaScript runs.
    derived(NETLIFY_REDIRECTS_FILE, fromGraph(() => [rules, pagePaths, matchPaths]), () => netlifyRedirects(rules, { pagePaths, matchPaths })),
    derived(NGINX_REDIRECTS_FILE, fromGraph(() => [rules, pagePaths, matchPaths]), () => nginxRedirects(rules, { pagePaths, matchPaths })),
    // The headers every response needs (the Content-Security-Policy above all), for the same hosts.
    derived(NETLIFY_HEADERS_FILE, [headers], () => netlifyHeaders(headerRules(headers))),
    derived(NGINX_HEADERS_FILE, [headers], () => nginxHeaders(headerRules(headers))),
    derived('sitemap.xml', fromGraph(() => [sitemapOf(), site.siteUrl, site.defaultLocale]), () => sitemapXml(sitemapOf(), site.siteUrl, site.defaultLocale)),
    sink.write('robots.txt', robotsTxt(site.siteUrl)),
    ...site.locales.map((l) => sink.write(`manifest_${l.code}.webmanifest`, webManifest(site, l.code))),
    sink.write('favicon.svg', svg),
    // Text is drawn with this machine's fonts: an icon with text and the share cards depend on them.
    derived('favicon.ico', [svg, fontsOf(svg)], () => faviconIco(svg)),
    // Home-screen and manifest icons from the same drawing, and each language's default share image.
    ...PNG_ICONS.map((icon) => derived(icon.file, [svg, icon, fontsOf(svg)], () => iconPng(svg, icon))),
    ...site.locales.map((l) => {
      const name = site.displayName[l.code] ?? site.displayName[site.defaultLocale] ?? site.site;
      return derived(shareImagePath(l.code).slice(1), [name, site.siteUrl, installedFonts()], () => sharePng(name, site.siteUrl));
    }),
    input.stylesheet ? sink.write(rel(input.stylesheet.path), input.stylesheet.text) : Promise.resolve(),
  ]);
}
