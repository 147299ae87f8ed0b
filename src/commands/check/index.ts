// `ir-site check`: builds the site into memory (or reads a built folder), reads every page
// into facts, and runs the checks: links, languages, redirects, site quality. Every finding
// names the page that shows it and the source file and line it comes from.
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import pLimit from 'p-limit';
import { loadConfig } from '../../build/config/load.js';
import type { ResolvedConfig } from '../../build/config/resolve.js';
import { loadContent } from '../../build/content/load.js';
import { processImages } from '../../build/images/process.js';
import { build } from '../../build/index.js';
import { compile } from '../../build/compile.js';
import { changesSinceBuilt, type ChangesSinceBuilt } from '../../build/up-to-date.js';
import { MemorySink } from '../../build/emit/sink.js';
import { diagnostic, DiagnosticsError, type Diagnostic } from '../../errors/diagnostic.js';
import type { RedirectOrigin, Route, StaticQuery } from '../../build/graph/model.js';
import { readingOnce, textReader } from '../../build/bodies.js';
import { redirectKey } from '../../build/graph/redirects.js';
import type { LocaleConfig, RedirectRule } from '../../shared/types.js';
import { checkAddresses } from './addresses.js';
import { checkExternal, type ExternalLink } from './external.js';
import { pagePathOf, parsePage, type PageFacts } from './html.js';
import { checkFormTarget } from './forms.js';
import { checkDuplicateIds } from './ids.js';
import { checkOtherIdentity } from './identity.js';
import { checkCrossLanguage, checkHreflang, checkStrings, checkTranslations, type StringsFile } from './languages.js';
import { codeFiles } from './code-files.js';
import { checkLinks, checkNotFoundRelativeLinks, inboundLinks } from './links.js';
import type { CheckSite, Finding } from './model.js';
import { originOf } from './origin.js';
import { checkRedirectsOf } from './redirects.js';
import { resolveAll, Resolver } from './resolve.js';
import { checkDescriptions, checkImages, checkOrphans, checkTitles } from './site.js';
import { Sources } from './sources.js';
import { isQuickFinding } from './quick.js';
import { RULES } from '../../errors/rules.js';
import { byText } from '../../shared/order.js';
import { realPathOr } from '../../files/real-path.js';
import { journalFile, outputInterrupted } from '../../build/emit/journal.js';

export type { Finding } from './model.js';
export type { ExternalLink } from './external.js';

/** A usage problem (a --dir that does not exist): the CLI prints the message, not a stack. */
export class CheckInputError extends Error {
  override readonly name = 'CheckInputError';
}

/** What `check` is given: the site, and whether to check a built folder instead of building into memory. */
export interface CheckOptions {
  /** The site folder (site.config.ts, content/, ...). */
  root: string;
  /** Check this built folder instead of building first (`--dir`). */
  dir?: string;
  /** Site identity (`--site`). */
  site?: string;
  /** Fetch external links (`--external`); otherwise they are only listed. */
  external?: boolean | { timeoutMs?: number; concurrency?: number };
}

export interface CheckStats {
  pages: number;
  files: number;
  /** Internal references checked (href, src, srcset candidates, <link>). */
  links: number;
  /** Distinct external URLs (fetched only with --external). */
  external: number;
  redirects: number;
  /** Milliseconds per phase of the check: read (pages into facts), links, languages, redirects, site, external. */
  phases: Record<string, number>;
  /** Building into memory; null with --dir. */
  buildMs: number | null;
  /** Reading the pages and running the checks. */
  checkMs: number;
  totalMs: number;
}

/** What `check` found: every finding, the external links, and what it checked. */
export interface CheckResult {
  diagnostics: Finding[];
  stats: CheckStats;
  /** Every external link, with the pages that have it. */
  external: ExternalLink[];
  /** Whether they were fetched (`--external`). */
  externalFetched: boolean;
  /** False when the build failed: the diagnostics are then the build's errors, and no page was checked. */
  built: boolean;
}

interface Output {
  files: Set<string>;
  html: Map<string, string>;
  redirectsJson: string | null;
}

interface SourceSide {
  config: ResolvedConfig | null;
  /** Bodies not read yet (a warm build's): CheckSite.withText reads the few a finding needs. */
  routes: Route[];
  redirects: RedirectOrigin[];
  navigation: StaticQuery<'navigation'>[];
  diagnostics: Diagnostic[];
}

const posix = (p: string) => p.split(path.sep).join('/');

async function readOutputFolder(dir: string): Promise<Output> {
  // What a server serves: never a dotfile or anything in a dot folder (a staging folder left by a killed build).
  const all = await fg(['**/*'], { cwd: dir, onlyFiles: true, dot: false });
  const limit = pLimit(64);
  const html = new Map<string, string>();
  await Promise.all(
    all.filter((f) => f.endsWith('.html')).map((f) => limit(async () => html.set(f, await readFile(path.join(dir, f), 'utf8')))),
  );
  const redirectsJson = all.includes('redirects.json') ? await readFile(path.join(dir, 'redirects.json'), 'utf8') : null;
  return { files: new Set(all), html, redirectsJson };
}

/**
 * The content side for --dir: config, routes and redirect origins, as far as they compile; and
 * what changed since the folder was built, when a build into it is recorded (cannot tell is no finding).
 */
async function readSources(root: string, identity: string | undefined, outDir: string): Promise<{ sourceSide: SourceSide; changes: ChangesSinceBuilt | null }> {
  let config: ResolvedConfig;
  try {
    config = await loadConfig({ root, identity, outDir });
  } catch (error) {
    if (!(error instanceof DiagnosticsError)) throw error;
    return { sourceSide: { config: null, routes: [], redirects: [], navigation: [], diagnostics: error.diagnostics }, changes: null };
  }
  const changes = changesSinceBuilt(config).catch(() => null);
  const loaded = await loadContent(config);
  // The graph holds each cover's and body image's processed data: without it every cover is an error.
  const images = await processImages(loaded.raw.assets, config.dirs.cache, config.root);
  const compiled = await compile(loaded, config, images);
  const { routes, redirects, staticQueries } = compiled.graph;
  return { sourceSide: { config, routes, redirects, navigation: navigationQueries(staticQueries), diagnostics: compiled.diagnostics }, changes: await changes };
}

const navigationQueries = (queries: StaticQuery[]) => queries.filter((q): q is StaticQuery<'navigation'> => q.name === 'navigation');

/** The output's rules, each with the source the content gives it (file and line), if any. */
function redirectOrigins(json: string | null, known: RedirectOrigin[], redirectsFile: string): RedirectOrigin[] {
  if (json === null) return known;
  let rules: RedirectRule[];
  try {
    rules = JSON.parse(json) as RedirectRule[];
    if (!Array.isArray(rules)) return known;
  } catch {
    return known;
  }
  const byKey = new Map(known.map((o) => [redirectKey(o.rule), o]));
  return rules
    .filter((r) => typeof r?.fromPath === 'string' && typeof r.toPath === 'string')
    .map((rule) => {
      const source = byKey.get(redirectKey(rule));
      return source && source.rule.toPath === rule.toPath ? { ...source, rule } : { rule, kind: 'written' as const, file: redirectsFile };
    });
}

async function stringsFiles(root: string, localesDir: string): Promise<StringsFile[]> {
  const names = (await fg(['*.json'], { cwd: localesDir })).sort();
  return Promise.all(names.map(async (n) => ({ file: posix(path.relative(root, path.join(localesDir, n))), text: await readFile(path.join(localesDir, n), 'utf8') })));
}

/** Findings that come from a template repeat on every page: keep one, with the count of the others. Two places in one line (a column each) are two findings. */
export function mergeRepeats(findings: Finding[]): Finding[] {
  const byKey = new Map<string, Finding>();
  const out: Finding[] = [];
  for (const f of findings) {
    const key = `${f.rule}\0${f.file}\0${f.line ?? ''}\0${f.column ?? ''}\0${f.message}`;
    const first = byKey.get(key);
    if (first) {
      if (f.page !== first.page) first.morePages = (first.morePages ?? 0) + 1 + (f.morePages ?? 0);
      continue;
    }
    const copy = { ...f };
    byKey.set(key, copy);
    out.push(copy);
  }
  return out;
}

/** The output and its sources: built into memory, or read from `options.dir`; null when the build failed. */
async function outputAndSources(
  options: CheckOptions,
  root: string,
): Promise<{ output: Output; sourceSide: SourceSide; buildMs: number | null; outRel: string; changes?: ChangesSinceBuilt | null } | { failed: Diagnostic[] }> {
  if (options.dir !== undefined) {
    const dir = path.resolve(root, options.dir);
    if (!existsSync(dir)) throw new CheckInputError(`--dir: no such folder: ${dir}`);
    if (!statSync(dir).isDirectory()) throw new CheckInputError(`--dir: ${dir} is a file, not a folder: name the built output folder (public/ by default)`);
    if (outputInterrupted(dir)) throw new CheckInputError(`--dir: ${dir} is half updated: the build that was publishing it was interrupted (${journalFile(dir)}). Run \`ir-site build\`: it finishes that update first.`);
    if (!existsSync(path.join(dir, 'index.html'))) throw new CheckInputError(`--dir: ${dir} holds no index.html; is it a built site? (ir-site build writes one)`);
    const [output, { sourceSide, changes }] = await Promise.all([readOutputFolder(dir), readSources(root, options.site, dir)]);
    return { output, sourceSide, buildMs: null, outRel: posix(path.relative(root, dir)) || '.', changes };
  }
  const sink = new MemorySink();
  let result;
  try {
    result = await build({ root, site: options.site, sink });
  } catch (error) {
    if (!(error instanceof DiagnosticsError)) throw error;
    return { failed: error.diagnostics };
  }
  const html = new Map<string, string>();
  for (const [rel, data] of sink.files) if (rel.endsWith('.html')) html.set(rel, data.toString('utf8'));
  return {
    output: { files: new Set(sink.files.keys()), html, redirectsJson: sink.files.get('redirects.json')?.toString('utf8') ?? null },
    sourceSide: {
      config: result.config,
      routes: result.graph.routes,
      redirects: result.graph.redirects,
      navigation: navigationQueries(result.graph.staticQueries),
      diagnostics: result.diagnostics,
    },
    buildMs: result.totalMs,
    outRel: posix(path.relative(root, result.config.dirs.out)) || '.',
  };
}

/** Every page of the output as facts, with what the content says about them. */
function checkSiteOf(root: string, output: Output, sourceSide: SourceSide, outRel: string): CheckSite {
  const pages = new Map<string, PageFacts>();
  for (const [rel, text] of output.html) {
    const p = pagePathOf(rel);
    pages.set(p, parsePage(text, p));
  }
  const config = sourceSide.config;
  const locales: LocaleConfig[] = config?.locales ?? inferLocales(pages);
  const rel = (abs: string | undefined, fallback: string) => (abs ? posix(path.relative(root, abs)) : fallback);
  return {
    root,
    siteUrl: config?.identity.siteUrl ?? inferSiteUrl(pages),
    defaultLocale: config?.defaultLocale ?? locales[0]?.code ?? 'en',
    locales,
    files: output.files,
    pages,
    redirects: redirectOrigins(output.redirectsJson, sourceSide.redirects, `${outRel}/redirects.json`),
    routes: new Map(sourceSide.routes.map((r) => [r.path, r])),
    // Without a configuration nothing compiled: no route, so no body to read.
    withText: config ? readingOnce(textReader(config)) : () => { throw new Error('no route without a configuration'); },
    navigation: sourceSide.navigation,
    outDir: outRel,
    templatesDir: rel(config?.dirs.templates, 'templates'),
    localesDir: rel(config?.dirs.locales, 'locales'),
    navigationFile: `${rel(config?.dirs.config, 'config')}/navigation.yaml`,
    sources: new Sources(root),
  };
}

/** The UI strings: in every locale file, and used by a template or the runtime. */
async function stringFindings(site: CheckSite, config: ResolvedConfig | null): Promise<Finding[]> {
  if (!config) return [];
  const [strings, code] = await Promise.all([stringsFiles(site.root, config.dirs.locales), codeFiles(site.root, config.dirs.templates)]);
  return checkStrings(strings, code, `${site.localesDir}/${config.defaultLocale}.json`);
}

/**
 * What the content side reports, less what the checks below find again on the output: the
 * build's own warnings for links and languages (commands/check/quick.ts), and a missing UI
 * string, which checkStrings reports with every file that has it.
 */
const contentFindings = (side: SourceSide): Finding[] => side.diagnostics.filter((d) => !isQuickFinding(d) && !RULES[d.rule].checkedAgain);

/**
 * Builds the site into memory (or reads `options.dir`) and checks every page: links, files and
 * anchors, languages and hreflang, redirects, titles, descriptions, alt text (docs/check.md).
 */
export async function check(options: CheckOptions): Promise<CheckResult> {
  const started = performance.now();
  // The site's real path, as the build resolves it (build/config/load.ts): file names in findings are relative to it.
  const root = realPathOr(path.resolve(options.root));
  const input = await outputAndSources(options, root);
  if ('failed' in input) {
    const totalMs = performance.now() - started;
    const stats = { pages: 0, files: 0, links: 0, external: 0, redirects: 0, phases: {}, buildMs: totalMs, checkMs: 0, totalMs };
    return { diagnostics: input.failed, stats, external: [], externalFetched: false, built: false };
  }
  const { output, sourceSide, buildMs, outRel, changes = null } = input;

  const checkStart = performance.now();
  const phases: Record<string, number> = {};
  let mark = checkStart;
  const lap = (phase: string) => {
    const now = performance.now();
    phases[phase] = (phases[phase] ?? 0) + now - mark;
    mark = now;
  };
  const site = checkSiteOf(root, output, sourceSide, outRel);
  lap('read');

  const links = resolveAll(site, new Resolver(site));
  const findings: Finding[] = contentFindings(sourceSide);
  if (options.dir !== undefined) findings.push(...staleOutput(site, sourceSide.routes, outRel, changes), ...redirectsFileProblems(output.redirectsJson, `${outRel}/redirects.json`));
  findings.push(...checkLinks(site, links), ...checkAddresses(site, links), ...checkNotFoundRelativeLinks(site, links));
  lap('links');
  findings.push(...checkTranslations(site), ...(await stringFindings(site, sourceSide.config)), ...checkHreflang(site), ...checkCrossLanguage(site, links));
  lap('languages');
  findings.push(...checkRedirectsOf(site, `${outRel}/redirects.json`));
  lap('redirects');
  findings.push(...checkOrphans(site, inboundLinks(links, site)), ...checkTitles(site), ...checkDescriptions(site), ...checkImages(site), ...checkDuplicateIds(site));
  const { config } = sourceSide;
  if (config) findings.push(...checkFormTarget(site, config.integrations.botCheck.formAction, config.contactEmail));
  if (config) findings.push(...checkOtherIdentity(site, output.html, config.otherIdentityWords));
  lap('site');

  const external = externalLinks(site, links);
  if (options.external) findings.push(...(await checkExternal(external, typeof options.external === 'object' ? options.external : {})));
  lap('external');

  const checkMs = performance.now() - checkStart;
  return {
    diagnostics: mergeRepeats(findings),
    stats: {
      pages: site.pages.size,
      files: output.files.size,
      links: links.filter((l) => l.to.kind !== 'external' && l.to.kind !== 'skip').length,
      external: external.length,
      redirects: site.redirects.length,
      phases,
      buildMs,
      checkMs,
      totalMs: performance.now() - started,
    },
    external,
    externalFetched: Boolean(options.external),
    built: true,
  };
}

function externalLinks(site: CheckSite, links: ReturnType<typeof resolveAll>): ExternalLink[] {
  const byUrl = new Map<string, ExternalLink>();
  for (const l of links) {
    if (l.to.kind !== 'external') continue;
    const known = byUrl.get(l.to.url);
    if (known) {
      if (known.pages[known.pages.length - 1] !== l.from) known.pages.push(l.from);
      continue;
    }
    const { fromTemplate: _, ...origin } = originOf(site, l.from, l.link);
    byUrl.set(l.to.url, { url: l.to.url, pages: [l.from], origin });
  }
  return [...byUrl.values()].sort((a, b) => byText(a.url, b.url));
}

/** --dir on a folder without the build's redirects.json: the links are judged by the content's rules, but nothing would serve them. */
function redirectsFileProblems(json: string | null, file: string): Finding[] {
  let why: string | null = null;
  if (json === null) why = 'the folder has no redirects.json';
  else {
    try {
      const rules = JSON.parse(json) as unknown;
      if (!Array.isArray(rules) || !rules.every((r) => typeof r?.fromPath === 'string' && typeof r?.toPath === 'string')) why = 'redirects.json is not a list of rules ({ fromPath, toPath, ... })';
    } catch (error) {
      why = `redirects.json is not JSON: ${(error as Error).message}`;
    }
  }
  return why === null ? [] : [diagnostic('check/redirects-file', { file, message: `${why}; the links were judged by the content's redirect rules instead` })];
}

/**
 * --dir on a folder built from other content: pages of the content not in it or in it with no
 * source (an example each way), and the files changed since the build recorded for it.
 */
function staleOutput(site: CheckSite, routes: Route[], outRel: string, changes: ChangesSinceBuilt | null): Finding[] {
  const found: Finding[] = [];
  const missing = routes.filter((r) => !site.pages.has(r.path)).map((r) => r.path);
  const extra = routes.length === 0 ? [] : [...site.pages.keys()].filter((p) => !site.routes.has(p));
  const parts = [
    missing.length > 0 ? `${missing.length} page(s) of the content are not in it (e.g. ${missing[0]})` : '',
    extra.length > 0 ? `${extra.length} page(s) in it have no source (e.g. ${extra[0]})` : '',
  ].filter(Boolean);
  if (parts.length > 0) found.push(diagnostic('check/stale-output', { file: outRel, message: `the folder does not match the content: ${parts.join('; ')}` }));
  if (changes?.config) {
    found.push(diagnostic('check/stale-output', { file: outRel, message: 'the folder was built with another configuration (or with --drafts): its pages may differ from what a build makes now' }));
  } else if (changes && changes.files.length > 0) {
    const [first, ...more] = changes.files;
    const others = more.length === 0 ? '' : ` and ${more.length} more file${more.length === 1 ? '' : 's'}`;
    found.push(diagnostic('check/stale-output', {
      file: outRel,
      message: `the folder was built before ${first}${others} changed: a finding may point at a template or a line when what the page shows was in the old text`,
    }));
  }
  return found;
}

/** Without a config: one locale per `<html lang>`, the home page's first (it is the unprefixed one). */
function inferLocales(pages: Map<string, PageFacts>): LocaleConfig[] {
  const langs = new Map<string, string>();
  const primary = (lang: string) => lang.split('-')[0]!.toLowerCase();
  const home = pages.get('/')?.lang;
  if (home) langs.set(primary(home), home);
  for (const p of pages.values()) if (p.lang && !langs.has(primary(p.lang))) langs.set(primary(p.lang), p.lang);
  return [...langs].map(([code, hrefLang]) => ({ code, hrefLang }));
}

function inferSiteUrl(pages: Map<string, PageFacts>): string | null {
  for (const p of pages.values()) {
    if (!p.canonical) continue;
    try {
      return new URL(p.canonical).origin;
    } catch {
      continue;
    }
  }
  return null;
}
