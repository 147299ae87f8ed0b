// The checks every build runs: links and #anchors written in the bodies, missing translations,
// hreflang. The same check functions as `ir-site check`, fed from the site graph and each
// body's compiled tree (its links and ids: features/markdown/body-facts.ts) instead of the
// rendered HTML, so they cost a few milliseconds, not a parse of every page. Their findings are
// warnings for the build (errors with `build --strict`); `ir-site check` reads the output and
// finds more (links a template makes, images, duplicate ids).
import path from 'node:path';
import type { ResolvedConfig } from '../../build/config/resolve.js';
import type { Route, SiteGraph, StaticQuery } from '../../build/graph/model.js';
import { readingOnce, textReader, type RouteWithText } from '../../build/bodies.js';
import type { BodyFacts } from '../../features/markdown/body-facts.js';
import type { Diagnostic } from '../../errors/diagnostic.js';
import { RULES } from '../../errors/rules.js';
import { xDefaultOf } from '../../shared/paths.js';
import { RESERVED_IDS } from '../../shared/dom-ids.js';
import { addContentAlias, type LinkFact, type PageFacts } from './html.js';
import { checkHreflang, checkTranslations } from './languages.js';
import { checkLinks, isInternalFile } from './links.js';
import type { CheckSite, Finding } from './model.js';
import { resolveAll, Resolver } from './resolve.js';
import { Sources } from './sources.js';


const posix = (p: string) => p.split(path.sep).join('/');

/**
 * Files the build writes itself and the graph does not list (sitemap.xml, the manifests, the
 * favicon, scripts): the graph cannot tell a link to one from a broken link; check can.
 */
const builtByTheSite = (url: string) => /^\/[^/?#]+\.[a-z0-9]+([?#]|$)/i.test(url) || isInternalFile(url.replace(/[?#].*$/, ''));

/** The links and ids of a route's body. */
type FactsOf = (route: Route) => BodyFacts;

/**
 * The ids a link's fragment can name on a page with this body: the page's own, the body's, and
 * a content id without its prefix, which the runtime finds as GitHub does (client/own-elements.ts).
 */
function fragmentTargets(ids: readonly string[]): Set<string> {
  const targets = new Set([...RESERVED_IDS, ...ids]);
  for (const id of ids) addContentAlias(targets, id);
  return targets;
}

/** A page as its <head> will have it (shared/head.ts), with the links and ids of its body. */
function pageFacts(route: Route, siteUrl: string, defaultLocale: string, factsOf: FactsOf): PageFacts {
  const notFound = route.template === 'not-found';
  const body = route.markdown ? factsOf(route) : { links: [], ids: [] };
  const fallback = xDefaultOf(route.alternates, defaultLocale);
  const alternates = notFound ? [] : route.alternates.map((a) => ({ hreflang: a.hrefLang, href: `${siteUrl}${a.path}` }));
  if (!notFound && fallback) alternates.push({ hreflang: 'x-default', href: `${siteUrl}${fallback.path}` });
  const links: LinkFact[] = body.links.filter((url) => !builtByTheSite(url)).map((url) => ({ tag: 'a', attr: 'href', url, place: 'body' }));
  return {
    path: route.path,
    lang: route.hrefLang,
    title: null,
    description: null,
    siteName: null,
    noindex: notFound,
    canonical: notFound ? null : `${siteUrl}${route.canonicalPath}`,
    alternates,
    ids: fragmentTargets(body.ids),
    duplicateIds: new Map(),
    links,
    images: [],
    linksWithoutHref: [],
    template: route.template,
    matchPath: route.matchPath ?? null,
  };
}

/** The site as `check` sees it, made from the graph: the pages the build is about to write. */
function siteOf(graph: SiteGraph, config: ResolvedConfig, factsOf: FactsOf, withText: (route: Route) => RouteWithText): CheckSite {
  const siteUrl = config.identity.siteUrl;
  const pages = new Map(graph.routes.map((r) => [r.path, pageFacts(r, siteUrl, config.defaultLocale, factsOf)]));
  const rel = (abs: string) => posix(path.relative(config.root, abs)) || '.';
  return {
    root: config.root,
    siteUrl,
    defaultLocale: config.defaultLocale,
    locales: config.locales,
    // Published files (documents, images next to entries); the build's own files are never linked from a body.
    files: new Set(graph.files.map((f) => f.to.slice(1))),
    pages,
    redirects: graph.redirects,
    routes: new Map(graph.routes.map((r) => [r.path, r])),
    withText,
    navigation: graph.staticQueries.filter((q): q is StaticQuery<'navigation'> => q.name === 'navigation'),
    outDir: rel(config.dirs.out),
    templatesDir: rel(config.dirs.templates),
    localesDir: rel(config.dirs.locales),
    navigationFile: `${rel(config.dirs.config)}/navigation.yaml`,
    sources: new Sources(config.root),
  };
}

/** Whether a build's diagnostic is one of these warnings: `check` finds them again, on the output, as errors. */
export const isQuickFinding = (d: Diagnostic) => d.severity === 'warning' && RULES[d.rule].inBuild === true;

/**
 * Broken links and anchors in the bodies, missing translations and hreflang problems, as
 * warnings. `factsOf` gives each body's links and ids; a body is read only to place a warning in it.
 */
export function quickCheck(graph: SiteGraph, config: ResolvedConfig, factsOf: FactsOf): Diagnostic[] {
  const site = siteOf(graph, config, factsOf, readingOnce(textReader(config)));
  const links = resolveAll(site, new Resolver(site));
  const findings: Finding[] = [
    // Of the link findings, those the catalogue marks (where a reader lands nowhere).
    ...checkLinks(site, links, (rule) => RULES[rule].inBuild === true),
    ...checkTranslations(site),
    ...checkHreflang(site),
  ].filter((f) => RULES[f.rule].inBuild);
  return findings.map(({ page, morePages: _, ...d }) => ({ ...d, severity: 'warning' as const, message: page && d.file !== page ? `${d.message} (on ${page})` : d.message }));
}
