// The site as `dev` keeps it: built once into memory, then brought up to date file by file,
// the way a build decides, on a memo that lives in memory (incremental/memo.ts). The graph comes
// from the build's own choice (build/graph-or-snapshot.ts): the last graph when its inputs' key
// is the same (a body edit), with the new headlines put in when only articles' headlines
// changed, or validate and graph again. Then the build's page keys decide which pages are
// rendered again. The watcher only narrows what is asked: after an edit of entry files that
// kept the graph, only the routes of those files (or of the headlines put in) can have new
// keys. A language's search index is written again when its key changes. A change that does not
// compile leaves the last good output in place and reports its errors.
import path from 'node:path';
import { loadConfig } from '../../build/config/load.js';
import type { ResolvedConfig } from '../../build/config/resolve.js';
import { isEntryPath, loadContent, readEntryFile, readStylesheet, siteGuard } from '../../build/content/load.js';
import type { RawEntry, RawSite } from '../../build/content/raw.js';
import { compiledOf, type Compiled } from '../../build/compile.js';
import { bundleErrors, bundleTemplates, prepareRender, renderRoutes, type RenderSetup } from '../../build/render-setup.js';
import { writeShared, writeSiteShared } from '../../build/shared-files.js';
import type { ValidationCache } from '../../build/content/validate.js';
import { processImages, type ImageStageResult } from '../../build/images/process.js';
import { MemorySink, type BuildSink } from '../../build/emit/sink.js';
import { DiagnosticsError, errorCount, type Diagnostic } from '../../errors/diagnostic.js';
import type { Route, SiteGraph } from '../../build/graph/model.js';
import { bodyMessageWarnings, createRenderContext } from '../../build/render/context.js';
import type { BodyMessage } from '../../features/markdown/index.js';
import { bodyFacts, type BodyFacts } from '../../features/markdown/body-facts.js';
import { indexedDocumentOf, type IndexedDocument } from '../../features/search/index.js';
import { writeSearchIndexesCached, type SearchCacheInput } from '../../incremental/search-cache.js';
import { memoryMemo } from '../../incremental/memo.js';
import { htmlFileFor, pageDataUrl } from '../../shared/paths.js';
import { recordBody } from '../../shared/props.js';
import type { MarkdownTree, PageRecord } from '../../shared/types.js';
import { configKey } from '../../incremental/keys.js';
import { graphOrSnapshot, inputKeys } from '../../build/graph-or-snapshot.js';
import { readGraphSnapshot, writeGraphSnapshot } from '../../incremental/graph-snapshot.js';
import type { Timed } from '../../build/options-and-result.js';
import { toolFingerprint } from '../../incremental/fingerprint.js';
import { byText } from '../../shared/order.js';
import { isInside } from '../../files/real-path.js';

/** `body` and `headline`: entry edits that kept the graph (a body) or its frame (an article's headline), as a build keeps its snapshot. */
export type ChangeKind = 'initial' | 'config' | 'templates' | 'body' | 'headline' | 'content';

export interface ChangeReport {
  kind: ChangeKind;
  /** Site paths whose page was rewritten or removed; `*` when every page was. */
  changedPaths: string[] | '*';
  ms: number;
  /** Errors of this change (the output was left as it was), warnings otherwise. */
  diagnostics: Diagnostic[];
  ok: boolean;
}

export interface DevSiteOptions {
  root: string;
  site?: string;
}

/**
 * Resumes after the event loop has been through one poll phase, so requests that
 * arrived while we were busy (the editor's tab asking for the page) are answered first.
 */
const afterPendingIO = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * An edit that kept the graph (a body, an article's headline: `keptGraph`) leaves the search index
 * to catch up this long after the last such edit: off the edit's path, once per burst of saves.
 */
export const SEARCH_REFRESH_MS = 300;

/** dev times its changes as a whole (ChangeReport.ms), not by stage. */
const untimed: Timed = async (_stage, work) => work();

export class DevSite {
  /** The last good output. Replaced whole on a full rebuild, updated file by file otherwise. */
  sink = new MemorySink();
  config: ResolvedConfig | null = null;
  /** Errors of the latest change; empty when the output is current. */
  errors: Diagnostic[] = [];
  compiled: Compiled | null = null;

  private raw: RawSite | null = null;
  private loadDiagnostics: Diagnostic[] = [];
  private setup: RenderSetup | null = null;
  private images: ImageStageResult | null = null;
  /** Each page's key (the build's: build/render-pages.ts) as the sink holds it: a page is rendered again when its key changes. */
  private pages: Record<string, string> = {};
  /** Validation of unchanged entry files is reused (keyed by the raw entry object). */
  private validation: ValidationCache = new WeakMap();
  /** What the markdown plugins said about each page's body at its last render, by path (the build keeps these in its manifest). */
  private bodyMessages: Record<string, BodyMessage[]> = {};
  /** Each page's analysed search document, by path, from its last render. */
  private indexed = new Map<string, IndexedDocument | null>();
  /** What each page's body links to and the ids it gives, by path, from its last render (the site checks read them). */
  private facts = new Map<string, BodyFacts>();
  /** The build's memo, in memory: what the search indexes are made from is kept in it between edits. */
  private readonly memo = memoryMemo(toolFingerprint());
  private searchTimer: NodeJS.Timeout | undefined;
  /**
   * What a change that failed left unapplied (site.config.ts, the templates): the output still
   * holds the last good build, so the next change applies it too, whatever that change is.
   */
  private unapplied = { config: false, templates: false };
  /** One change at a time: an edit, a rebuild, or the search index catching up. */
  private turn: Promise<unknown> = Promise.resolve();
  /**
   * Whether the output is all the last change made it: false from the moment a change starts until
   * it succeeds, so a change that failed, or threw half-way, leaves the next one to ask every page.
   */
  private applied = false;

  constructor(private readonly options: DevSiteOptions) {}

  /** Runs `work` when no change is being applied, and holds the next one until it is done. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /**
   * Renders into `sink` those of `routes` whose page key is not the one in `previous`, with each
   * rendered page's search document and body facts (made from the body the page shows), which
   * `remember` keeps once the change applies. `rendered`: their paths; `pages`: every route's key.
   */
  private async render(config: ResolvedConfig, routes: readonly Route[], setup: RenderSetup, sink: BuildSink, previous: Record<string, string> | null) {
    const { errors, searchDocuments, pages, messages, bodyFacts } = await renderRoutes(config, routes, setup, sink, previous);
    const rendered = routes.filter((r) => pages[r.path] !== undefined && pages[r.path] !== previous?.[r.path]).map((r) => r.path);
    // What the plugins said about each rendered page's body: it replaces what they said last, once the change applies.
    const said: Record<string, BodyMessage[]> = Object.fromEntries(rendered.map((p) => [p, messages[p] ?? []]));
    return { errors, pages, rendered, said, searchDocuments, bodyFacts };
  }

  /** What the pages of a change that applies said and gave: kept for the search indexes, the site checks and the warnings. */
  private remember(outcome: Pick<Awaited<ReturnType<DevSite['render']>>, 'said' | 'searchDocuments' | 'bodyFacts'>): void {
    Object.assign(this.bodyMessages, outcome.said);
    for (const [pagePath, document] of outcome.searchDocuments) this.indexed.set(pagePath, document);
    for (const [pagePath, facts] of outcome.bodyFacts) this.facts.set(pagePath, facts);
  }

  /** A page's search document, from its last render; or from its page data in the output if none was kept. */
  private readonly searchDocumentOf = (route: Route): IndexedDocument | null => {
    let document = this.indexed.get(route.path);
    if (document === undefined) this.indexed.set(route.path, (document = indexedDocumentOf(route, this.renderedBody(route.path))));
    return document;
  };

  /** What a page's body links to and the ids it gives, from its last render; or from its page data in the output if none was kept. */
  readonly bodyFactsOf = (route: Route): BodyFacts => {
    let facts = this.facts.get(route.path);
    if (!facts) this.facts.set(route.path, (facts = bodyFacts(this.renderedBody(route.path) ?? { type: 'root', children: [] })));
    return facts;
  };

  private renderedBody(pagePath: string): MarkdownTree | null {
    const file = this.sink.files.get(pageDataUrl(pagePath).slice(1));
    return file === undefined ? null : recordBody(JSON.parse(file.toString('utf8')) as PageRecord);
  }

  /**
   * After an edit that kept the graph: the search indexes are rebuilt shortly after, those of the languages whose
   * pages changed (their key, as the build's search cache keys them). With every untouched
   * document's terms kept, a language costs its merge and encoding only.
   */
  private refreshSearchSoon(): void {
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => void this.refreshSearch().catch((error: unknown) => console.error(error)), SEARCH_REFRESH_MS);
    this.searchTimer.unref();
  }

  private refreshSearch(): Promise<void> {
    this.searchTimer = undefined;
    return this.exclusive(async () => {
      if (this.compiled && this.setup) this.replaceSearchFiles(await this.searchIndexFiles(this.compiled.graph, this.setup, this.pages));
    });
  }

  /**
   * The build's search cache over dev's memo, keyed by these pages' keys (which hold their route
   * keys). `fresh`: documents of pages just rendered, not yet remembered.
   */
  private searchCache(pages: Readonly<Record<string, string>>, fresh?: ReadonlyMap<string, IndexedDocument | null>): SearchCacheInput {
    const analyse = (route: Route) => (fresh?.has(route.path) ? fresh.get(route.path)! : this.searchDocumentOf(route));
    return { memo: this.memo, routeKeys: new Map(Object.entries(pages)), configKey: configKey(this.config!), analyse };
  }

  /**
   * The search index files as the build writes them, through its search cache: a language whose
   * pages all kept their keys gets its files from the memo.
   */
  private async searchIndexFiles(graph: SiteGraph, setup: RenderSetup, pages: Readonly<Record<string, string>>, fresh?: ReadonlyMap<string, IndexedDocument | null>): Promise<MemorySink> {
    const written = new MemorySink();
    await writeSearchIndexesCached(written, graph, setup.ctx.site.locales.map((l) => l.code), this.searchCache(pages, fresh));
    return written;
  }

  /** The search index files of the output as `written` holds them: one with the same bytes stays as it is; one no longer written goes. */
  private replaceSearchFiles(written: MemorySink): void {
    for (const rel of [...this.sink.files.keys()]) if (rel.startsWith('search-index/') && !written.files.has(rel)) this.sink.files.delete(rel);
    for (const [rel, bytes] of written.files) if (!this.sink.files.get(rel)?.equals(bytes)) this.sink.files.set(rel, bytes);
  }

  /** Resolves once the output is complete: a search index refresh still waiting is done now. */
  async settled(): Promise<void> {
    if (this.searchTimer) {
      clearTimeout(this.searchTimer);
      await this.refreshSearch();
    }
    await this.turn;
  }

  private cancelSearchRefresh(): void {
    clearTimeout(this.searchTimer);
    this.searchTimer = undefined;
  }

  /** Drops a search index refresh that is still waiting: the server is closing. */
  close(): void {
    this.cancelSearchRefresh();
  }

  /** Builds everything from scratch (start, and any change to site.config.ts). */
  rebuildAll(kind: ChangeKind = 'initial'): Promise<ChangeReport> {
    return this.exclusive(() => this.rebuildAllNow(kind));
  }

  private async rebuildAllNow(kind: ChangeKind): Promise<ChangeReport> {
    // Unapplied until it has built (it may also throw).
    this.unapplied.config = true;
    const report = await this.buildAllNow(kind);
    if (report.ok) this.unapplied = { config: false, templates: false };
    return report;
  }

  private async buildAllNow(kind: ChangeKind): Promise<ChangeReport> {
    const t0 = performance.now();
    try {
      const config = await loadConfig({ root: this.options.root, identity: this.options.site });
      const loaded = await loadContent(config);
      const images = await processImages(loaded.raw.assets, config.dirs.cache, config.root);
      const assets = bundleTemplates(config);
      const made = await this.graphOf(config, loaded.raw, loaded.diagnostics, images);
      if (!made.compiled) return this.failed(kind, [...made.diagnostics, ...(await bundleErrors(assets))], t0);
      const { compiled } = made;
      const setup = await prepareRender(config, compiled, assets);
      const sink = new MemorySink();
      const outcome = await this.render(config, compiled.graph.routes, setup, sink, null);
      if (outcome.errors.length > 0) return this.failed(kind, outcome.errors, t0);
      const { pages } = outcome;
      this.cancelSearchRefresh(); // writeShared writes every search index
      await writeShared(sink, compiled, setup, { search: this.searchCache(pages, outcome.searchDocuments) });
      Object.assign(this, { config, raw: loaded.raw, loadDiagnostics: loaded.diagnostics, compiled, setup, sink, images, pages, bodyMessages: {} });
      this.remember(outcome);
      return this.succeeded(kind, '*', compiled.diagnostics, t0);
    } catch (error) {
      if (error instanceof DiagnosticsError) return this.failed(kind, error.diagnostics, t0);
      throw error;
    }
  }

  /**
   * The graph as a build makes it (build/graph-or-snapshot.ts), from the snapshot in dev's memo;
   * a graph made from new inputs is kept there for the next change, as a build keeps it on disk.
   * Without `compiled`: the errors that stop the change.
   */
  private async graphOf(config: ResolvedConfig, raw: RawSite, loadDiagnostics: Diagnostic[], images: ImageStageResult) {
    const keys = inputKeys({ fingerprint: this.memo.fingerprint, configKey: configKey(config) }, raw, true);
    const stored = await readGraphSnapshot(this.memo);
    const loaded = { raw, diagnostics: loadDiagnostics };
    const made = await graphOrSnapshot({ stored, loaded, config, includeDrafts: true, timed: untimed, waitForImages: async () => images, keys, validationCache: this.validation });
    const compiled = await compiledOf(loaded, images, made, config);
    const { diagnostics } = compiled;
    if (errorCount(diagnostics) > 0) return { diagnostics, compiled: null, fromSnapshot: null, replaced: null };
    if (made.inputsKey !== null && made.fromSnapshot !== 'same') {
      await writeGraphSnapshot(this.memo, { graph: made.inputsKey, frame: keys.frame(images)! }, { graph: made.graph, validation: made.validation }, raw.entries);
    }
    return { diagnostics, compiled, fromSnapshot: made.fromSnapshot, replaced: made.replaced };
  }

  /** Brings the output up to date with changed, added or removed files (absolute paths). */
  applyChanges(files: string[]): Promise<ChangeReport> {
    return this.exclusive(() => this.applyChangesNow(files));
  }

  private async applyChangesNow(files: string[]): Promise<ChangeReport> {
    const config = this.config;
    if (!config || !this.raw || !this.compiled || !this.setup) return this.rebuildAllNow('initial');
    const t0 = performance.now();
    // site.config.ts, or a file bundled into it (a plugin of the site's own).
    const configFiles = new Set(config.module.files);
    if (this.unapplied.config || files.some((f) => configFiles.has(f) || (path.basename(f) === 'site.config.ts' && path.dirname(f) === config.root))) return this.rebuildAllNow('config');
    const templates = this.unapplied.templates || files.some((f) => isInside(f, [config.dirs.templates]));
    this.unapplied.templates = templates;
    const report = await this.applyFilesNow(config, files, templates, t0);
    if (report.ok) this.unapplied.templates = false;
    return report;
  }

  /** The changed files read again, then the output brought up to date (with the templates bundled again when `templates`). */
  private async applyFilesNow(config: ResolvedConfig, files: string[], templates: boolean, t0: number): Promise<ChangeReport> {
    const lastApplied = this.applied;
    this.applied = false;
    try {
      if (templates) {
        // Read as the build reads it: a link out of the site is reported, not read.
        const found: Diagnostic[] = [];
        const stylesheet = await readStylesheet(config, siteGuard(config.root, found));
        const file = path.relative(config.root, path.join(config.dirs.templates, 'styles.css')).split(path.sep).join('/');
        this.loadDiagnostics = [...this.loadDiagnostics.filter((d) => d.file !== file), ...found];
        this.raw = { ...this.raw!, stylesheet };
      }
      const contentFiles = files.filter((f) => !isInside(f, [config.dirs.templates]));
      const entryFiles = contentFiles.filter((f) => isInside(f, [config.dirs.content]) && isEntryPath(path.relative(config.dirs.content, f).split(path.sep).join('/')));
      const onlyEntries = !templates && contentFiles.length > 0 && entryFiles.length === contentFiles.length;
      if (onlyEntries) await this.patchEntries(entryFiles);
      else if (contentFiles.length > 0) await this.reloadContent(config);
      // After a change that failed, the output may be older than the last graph: every page is looked at.
      const narrow = onlyEntries && lastApplied;
      const change = { templates, edited: new Set(contentFiles.map((f) => this.siteFile(f))), narrow };
      try {
        return await this.update(config, change, t0);
      } catch (error) {
        // A file published as it is (an image, a PDF) gone before the watcher told of it (`rm -r`
        // of an article told one file at a time): the content is listed again, as a build lists it.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !onlyEntries) throw error;
        await this.reloadContent(config);
        return await this.update(config, { ...change, narrow: false }, t0);
      }
    } catch (error) {
      if (error instanceof DiagnosticsError) return this.failed(templates ? 'templates' : 'content', error.diagnostics, t0);
      throw error;
    }
  }

  /** The content read again whole, as a build reads it (the stylesheet aside: the templates' own). */
  private async reloadContent(config: ResolvedConfig): Promise<void> {
    const loaded = await loadContent(config);
    this.raw = { ...loaded.raw, stylesheet: this.raw!.stylesheet };
    this.loadDiagnostics = loaded.diagnostics;
    this.images = await processImages(loaded.raw.assets, config.dirs.cache, config.root);
  }

  /**
   * The output brought up to date with the site as it is read now: the graph as a build makes it,
   * then the pages whose keys changed. `narrow`: only the entry files `edited` changed since the
   * output was made, so with a graph kept from the snapshot only their routes (their bodies) and
   * the routes the new headlines were put into can have new keys; the other pages are not asked.
   */
  private async update(config: ResolvedConfig, change: { templates: boolean; edited: ReadonlySet<string>; narrow: boolean }, t0: number): Promise<ChangeReport> {
    // Bundled while the content compiles, so that an error in each is reported at once.
    const assets = change.templates ? bundleTemplates(config) : null;
    const made = await this.graphOf(config, this.raw!, this.loadDiagnostics, this.images!);
    const kept = change.narrow ? made.fromSnapshot : null;
    const kind: ChangeKind = change.templates ? 'templates' : kept === 'same' ? 'body' : kept === 'headlines' ? 'headline' : 'content';
    if (!made.compiled) return this.failed(kind, [...made.diagnostics, ...(await bundleErrors(assets))], t0);
    const { compiled } = made;
    const graph = compiled.graph;
    const setup = assets ? await prepareRender(config, compiled, assets) : { ...this.setup!, ctx: createRenderContext(graph, this.setup!.ctx.templates, this.setup!.ctx.assets, config.markdown, config.root) };
    // A kept graph: the edited files' routes (their bodies), and those the new headlines were put into.
    const asked = kept ? [...new Set([...(made.replaced ?? []), ...graph.routes.filter((r) => r.markdown && change.edited.has(r.markdown.file))])] : graph.routes;
    const isEdited = (r: Route) => change.edited.has(r.file ?? '');
    // Pages are rendered into the output dev serves, each as soon as it is made; if any fails, the
    // change is taken back whole, so nothing of a change that failed is served.
    const writes = new UndoableWrites(this.sink);
    const outcome = await this.renderEditedFirst(config, asked.filter(isEdited), asked.filter((r) => !isEdited(r)), setup, writes);
    if (outcome.errors.length > 0) {
      writes.undo();
      return this.failed(kind, outcome.errors, t0);
    }
    if (kept) {
      // The graph's frame is as it was: the shared files too. The search index follows shortly.
      this.remember(outcome);
      Object.assign(this.pages, outcome.pages);
      Object.assign(this, { compiled, setup });
      this.refreshSearchSoon();
      return this.succeeded(kind, outcome.rendered, compiled.diagnostics, t0);
    }
    this.cancelSearchRefresh(); // the search indexes are written here
    const shared = new MemorySink();
    const [, search] = await Promise.all([writeSiteShared(shared, compiled, setup), this.searchIndexFiles(graph, setup, outcome.pages, outcome.searchDocuments)]).catch((error: unknown) => {
      writes.undo();
      throw error;
    });
    const removed = Object.keys(this.pages).filter((p) => outcome.pages[p] === undefined);
    for (const p of removed) {
      this.indexed.delete(p);
      this.facts.delete(p);
      delete this.bodyMessages[p];
    }
    this.remember(outcome);
    this.replaceSharedFiles(shared, graph.routes);
    this.replaceSearchFiles(search);
    Object.assign(this, { compiled, setup, pages: outcome.pages });
    const everyPage = graph.routes.length > 0 && outcome.rendered.length === graph.routes.length;
    return this.succeeded(kind, everyPage ? '*' : [...outcome.rendered, ...removed], compiled.diagnostics, t0);
  }

  /** A site-relative path, as entries and diagnostics name files. */
  private siteFile(abs: string): string {
    return path.relative(this.config!.root, abs).split(path.sep).join('/');
  }

  /** Re-reads changed entry files into the raw site; removed files leave it. */
  private async patchEntries(files: string[]): Promise<void> {
    const reads = await Promise.all(files.map((f) => readEntryFile(this.config!, f).catch(() => null)));
    const gone = new Set(files.map((f) => this.siteFile(f)));
    const loadDiagnostics = this.loadDiagnostics.filter((d) => !gone.has(d.file));
    const read = new Map<string, RawEntry>();
    for (const result of reads) {
      if (Array.isArray(result)) loadDiagnostics.push(...result);
      else if (result) read.set(result.file, result);
    }
    // Edited files keep their place (one pass, no set of every file); the loader's order is made
    // again only when files come or go.
    let replaced = 0;
    let removed = false;
    const patched = this.raw!.entries.map((e) => {
      if (!gone.has(e.file)) return e;
      const now = read.get(e.file);
      if (now) replaced++;
      else removed = true;
      return now ?? e;
    });
    const comeOrGo = removed || replaced < read.size;
    const entries = comeOrGo ? [...this.raw!.entries.filter((e) => !gone.has(e.file)), ...read.values()].sort((a, b) => byText(a.file, b.file)) : patched;
    this.raw = { ...this.raw!, entries };
    this.loadDiagnostics = loadDiagnostics;
  }

  /**
   * Renders the pages of the edited files, lets the server answer the requests that came
   * meanwhile (the editor's tab asking for the page), then renders the rest (the lists that show them).
   */
  private async renderEditedFirst(config: ResolvedConfig, edited: readonly Route[], rest: readonly Route[], setup: RenderSetup, sink: BuildSink) {
    const first = await this.render(config, edited, setup, sink, this.pages);
    if (first.rendered.length > 0) await afterPendingIO();
    const then = await this.render(config, rest, setup, sink, this.pages);
    return {
      errors: [...first.errors, ...then.errors],
      pages: { ...first.pages, ...then.pages },
      rendered: [...first.rendered, ...then.rendered],
      said: { ...first.said, ...then.said },
      searchDocuments: new Map([...first.searchDocuments, ...then.searchDocuments]),
      bodyFacts: new Map([...first.bodyFacts, ...then.bodyFacts]),
    };
  }

  /**
   * The files that are not pages nor search index files as `shared` holds them, as a build would
   * leave them: a changed one replaced, one no longer made (a removed article's documents, an
   * old stylesheet, chunk or image variant) gone, and with it the files of removed pages.
   */
  private replaceSharedFiles(shared: MemorySink, routes: readonly Route[]): void {
    const pageFiles = new Set(routes.flatMap((r) => [htmlFileFor(r.path), pageDataUrl(r.path).slice(1)]));
    for (const rel of [...this.sink.files.keys()]) if (!shared.files.has(rel) && !pageFiles.has(rel) && !rel.startsWith('search-index/')) this.sink.files.delete(rel);
    for (const [rel, bytes] of shared.files) if (!this.sink.files.get(rel)?.equals(bytes)) this.sink.files.set(rel, bytes);
  }

  private succeeded(kind: ChangeKind, changedPaths: string[] | '*', diagnostics: Diagnostic[], t0: number): ChangeReport {
    this.errors = [];
    this.applied = true;
    const bodyWarnings = bodyMessageWarnings(this.compiled!.graph.routes, this.bodyMessages);
    return { kind, changedPaths, ms: performance.now() - t0, diagnostics: [...diagnostics, ...bodyWarnings], ok: true };
  }

  private failed(kind: ChangeKind, diagnostics: Diagnostic[], t0: number): ChangeReport {
    this.errors = diagnostics.filter((d) => d.severity === 'error');
    return { kind, changedPaths: [], ms: performance.now() - t0, diagnostics, ok: false };
  }
}

/** Writes into dev's output as they come, noting what each file held before, so that a change that fails can be taken back. */
class UndoableWrites implements BuildSink {
  private readonly before = new Map<string, Buffer | undefined>();
  constructor(private readonly output: MemorySink) {}
  keep(rel: string): boolean {
    return this.output.keep(rel);
  }
  previous(): null {
    return null;
  }
  directPath(): null {
    return null;
  }
  adopt(rel: string): void {
    this.output.adopt(rel);
  }
  async write(rel: string, data: string | Uint8Array): Promise<void> {
    if (!this.before.has(rel)) this.before.set(rel, this.output.files.get(rel));
    await this.output.write(rel, data);
  }
  async copy(fromAbs: string, rel: string): Promise<void> {
    if (!this.before.has(rel)) this.before.set(rel, this.output.files.get(rel));
    await this.output.copy(fromAbs, rel);
  }
  /** Every file written through this back as it was (gone if it was not there). */
  undo(): void {
    for (const [rel, bytes] of this.before) {
      if (bytes) this.output.files.set(rel, bytes);
      else this.output.files.delete(rel);
    }
  }
}
