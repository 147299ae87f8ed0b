// The checks every build runs: links and #anchors written in the bodies, missing translations,
// hreflang. The same check functions as `ir-site check`, fed from the site graph instead of
// the rendered HTML (pages' links and ids from their markdown: markdown-facts.ts), so they
// cost a few milliseconds, not a parse of every page. Their findings are warnings for the
// build (errors with `build --strict`); `ir-site check` reads the output and finds more.
import path from 'node:path';
import type { ResolvedConfig } from '../../build/config/resolve.js';
import type { Route, SiteGraph, StaticQuery } from '../../build/graph/model.js';
import { readingOnce, textReader, type RouteWithText } from '../../build/bodies.js';
import type { Diagnostic } from '../../errors/diagnostic.js';
import { RULES } from '../../errors/rules.js';
import { xDefaultOf } from '../../shared/paths.js';
import { RESERVED_IDS } from '../../shared/dom-ids.js';
import type { LinkFact, PageFacts } from './html.js';
import { checkHreflang, checkTranslations } from './languages.js';
import { checkLinks, isInternalFile } from './links.js';
import { markdownFacts, type MarkdownFacts } from './markdown-facts.js';
import type { CheckSite, Finding } from './model.js';
import { resolveAll, Resolver } from './resolve.js';
import { Sources } from './sources.js';


const posix = (p: string) => p.split(path.sep).join('/');

/**
 * Files the build writes itself and the graph does not list (sitemap.xml, the manifests, the
 * favicon, scripts): the graph cannot tell a link to one from a broken link; check can.
 */
const builtByTheSite = (url: string) => /^\/[^/?#]+\.[a-z0-9]+([?#]|$)/i.test(url) || isInternalFile(url.replace(/[?#].*$/, ''));

/**
 * The facts of each body by its text, from the last run and since: dev checks the site again
 * after every edit, and only the edited bodies are scanned again; a build that asked for a
 * body's facts (textFacts) does not scan it twice. Holds the current bodies only after a run.
 */
let knownFacts = new Map<string, MarkdownFacts>();

/** A body's links and ids. */
export function textFacts(text: string): MarkdownFacts {
  let facts = knownFacts.get(text);
  if (!facts) knownFacts.set(text, (facts = markdownFacts(text)));
  return facts;
}

/** The links and ids of a route's body. */
type BodyFacts = (route: Route & { markdown: object }) => MarkdownFacts;

/** A page as its <head> will have it (shared/head.ts), with the links and ids of its body. */
function pageFacts(route: Route, siteUrl: string, defaultLocale: string, bodyFacts: BodyFacts): PageFacts {
  const notFound = route.template === 'not-found';
  const body = route.markdown ? bodyFacts(route as Route & { markdown: object }) : { links: [], ids: new Set(RESERVED_IDS) };
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
    ids: body.ids,
    duplicateIds: new Map(),
    links,
    images: [],
    linksWithoutHref: [],
    template: route.template,
    matchPath: route.matchPath ?? null,
  };
}

/** Each body's facts from its text, read when the build did not; the facts are kept for the next run (textFacts). */
function factsFromText(withText: (route: Route) => RouteWithText): { bodyFacts: BodyFacts; keep: () => void } {
  const facts = new Map<string, MarkdownFacts>();
  const bodyFacts: BodyFacts = (route) => {
    const { text } = withText(route).markdown!;
    const body = textFacts(text);
    facts.set(text, body);
    return body;
  };
  return { bodyFacts, keep: () => (knownFacts = facts) };
}

/** The site as `check` sees it, made from the graph: the pages the build is about to write. */
function siteOf(graph: SiteGraph, config: ResolvedConfig, bodyFacts: BodyFacts, withText: (route: Route) => RouteWithText): CheckSite {
  const siteUrl = config.identity.siteUrl;
  const pages = new Map(graph.routes.map((r) => [r.path, pageFacts(r, siteUrl, config.defaultLocale, bodyFacts)]));
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
 * warnings. `bodyFacts` gives each body's links and ids; without it, they are read from the text.
 */
export function quickCheck(graph: SiteGraph, config: ResolvedConfig, bodyFacts?: BodyFacts): Diagnostic[] {
  const withText = readingOnce(textReader(config));
  const fromText = bodyFacts ? null : factsFromText(withText);
  const site = siteOf(graph, config, bodyFacts ?? fromText!.bodyFacts, withText);
  fromText?.keep();
  const links = resolveAll(site, new Resolver(site));
  const findings: Finding[] = [
    // Of the link findings, those the catalogue marks (where a reader lands nowhere).
    ...checkLinks(site, links, (rule) => RULES[rule].inBuild === true),
    ...checkTranslations(site),
    ...checkHreflang(site),
  ].filter((f) => RULES[f.rule].inBuild);
  return findings.map(({ page, morePages: _, ...d }) => ({ ...d, severity: 'warning' as const, message: page && d.file !== page ? `${d.message} (on ${page})` : d.message }));
}
