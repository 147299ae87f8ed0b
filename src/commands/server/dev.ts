// `ir-site dev`: build into memory, serve it, watch the site's files, bring the output
// up to date on every change and tell open tabs to reload (server-sent events).
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import path from 'node:path';
import { DiagnosticsError, formatDiagnostics, type Diagnostic } from '../../errors/diagnostic.js';
import { noSiteAt } from '../../build/config/load.js';
import type { ResolvedConfig } from '../../build/config/resolve.js';
import { matchPathsOf, type MatchPath } from '../../shared/match-paths.js';
import { indexRedirects, type RedirectIndex } from '../../shared/redirects.js';
import { localizePath } from '../../shared/paths.js';
import { DEV_CLIENT_PATH, DEV_CLIENT_SCRIPT, DEV_EVENTS_PATH, injectDevClient } from './dev-client.js';
import { DevSite, type ChangeReport } from './dev-site.js';
import { DevWarnings, keptGraph } from './dev-warnings.js';
import { watchSiteFiles } from './dev-watch.js';
import { MemorySource } from './sources.js';
import { failRequest, listen } from './listen.js';
import { ALLOWED_METHODS, createStaticHandler, plain } from './static-handler.js';
import { escapeHtml } from '../../shared/escape.js';
import { realPathOr } from '../../files/real-path.js';

/** What `dev` is given: the site, where to listen, and who hears of each change. */
export interface DevOptions {
  root: string;
  site?: string;
  host?: string;
  port?: number;
  /** Called after the first build and after every change (the CLI prints these). */
  onReport?: (report: ChangeReport, site: DevSite) => void;
  /** Called when the site checks, run again a moment after an edit that kept the graph, find other warnings than its report said. */
  onWarnings?: (warnings: Diagnostic[]) => void;
  /** Milliseconds to gather a burst of file events into one change. */
  debounceMs?: number;
}

/** A running dev server: its URL, the site it keeps in memory, and how to stop it. */
export interface RunningDev {
  server: Server;
  url: string;
  site: DevSite;
  /** Resolves once the watcher is ready: edits after this are seen. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** The not-found page for each path prefix: legacy prefixes, then each other language's, then the default one. */
function notFoundPagesOf(config: ResolvedConfig | null): { prefix: string; page: string }[] {
  if (!config) return [{ prefix: '/', page: '/404.html' }];
  return [
    ...config.legacyPrefixes.map((p) => ({ prefix: `/${p}/`, page: `/${p}/404.html` })),
    ...config.locales.filter((l) => l.code !== config.defaultLocale).map((l) => ({ prefix: `/${l.code}/`, page: localizePath('/404.html', l.code, config.defaultLocale) })),
    { prefix: '/', page: '/404.html' },
  ];
}

/** What dev watches: the site's folders and config, and the modules the config imports. */
function watchTargets(root: string, config: ResolvedConfig | null): string[] {
  if (!config) return ['content', 'locales', 'config', 'templates', 'site.config.ts'].map((name) => path.join(root, name));
  return [config.dirs.content, config.dirs.locales, config.dirs.config, config.dirs.templates, path.join(root, 'site.config.ts'), ...config.module.files];
}

function sendDevClient(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Length': Buffer.byteLength(DEV_CLIENT_SCRIPT) });
  res.end(req.method === 'HEAD' ? undefined : DEV_CLIENT_SCRIPT);
}

/** Nothing has built yet: the errors as a page that reloads once they are fixed. */
function sendNotBuilt(res: ServerResponse, errors: string): void {
  res.writeHead(500, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
  res.end(
    injectDevClient(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Build error</title></head><body><main><h1>The site does not build yet</h1><pre>${escapeHtml(errors)}</pre></main><script>new EventSource('${DEV_EVENTS_PATH}').addEventListener('reload',function(){location.reload()})</script></body></html>`),
  );
}

/**
 * Builds the site into memory (drafts included), serves it, watches its files, rebuilds what
 * each edit changes and reloads the tabs that show it; errors go to the terminal and over the page.
 */
export async function dev(options: DevOptions): Promise<RunningDev> {
  // The site's real path, as the build resolves it (build/config/load.ts): the watcher sees the same paths.
  const root = realPathOr(path.resolve(options.root));
  // No site to watch at all: nothing an edit could fix while dev runs.
  const missing = noSiteAt(root);
  if (missing) throw new DiagnosticsError([missing], 'configuration');
  const site = new DevSite({ root, site: options.site });
  const clients = new Set<ServerResponse>();
  let redirects: RedirectIndex = indexRedirects([]);
  let matchPaths: MatchPath[] = [];

  const send = (event: string, data: unknown) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of clients) client.write(frame);
  };
  const errorMessage = () => formatDiagnostics(site.errors, { color: false });
  const sendWarnings = () => {
    send('build-ok', { warnings: warnings.current.length });
    if (warnings.current.length > 0) send('build-warnings', warningsEvent());
  };
  const warnings = new DevWarnings(site, (found) => {
    sendWarnings();
    options.onWarnings?.(found);
  });
  const warningsEvent = () => ({ count: warnings.current.length, message: warnings.message() });

  const report = (r: ChangeReport) => {
    // An edit that kept the graph changes no path: the redirects and match paths stay.
    if (site.compiled && !keptGraph(r)) {
      redirects = indexRedirects(site.compiled.graph.redirects.map((o) => o.rule));
      matchPaths = matchPathsOf(site.compiled.graph.routes);
    }
    if (r.ok) {
      warnings.afterChange(r);
      r = { ...r, diagnostics: [...r.diagnostics.filter((d) => d.severity === 'error'), ...warnings.current] };
    }
    options.onReport?.(r, site);
    if (r.ok) {
      sendWarnings();
      if (r.changedPaths === '*' || r.changedPaths.length > 0) send('reload', { paths: r.changedPaths });
    } else {
      send('build-error', { message: errorMessage() });
    }
  };

  const handle = createStaticHandler({
    source: new MemorySource(() => site.sink),
    redirects: () => redirects,
    matchPaths: () => matchPaths,
    notFoundPages: () => notFoundPagesOf(site.config),
    transformHtml: injectDevClient,
  });

  function events(req: IncomingMessage, res: ServerResponse) {
    const headers = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' };
    if (req.method === 'HEAD') return res.writeHead(200, headers).end();
    res.writeHead(200, { ...headers, Connection: 'keep-alive' });
    res.write(': connected\n\n');
    if (site.errors.length > 0) res.write(`event: build-error\ndata: ${JSON.stringify({ message: errorMessage() })}\n\n`);
    else if (warnings.current.length > 0) res.write(`event: build-warnings\ndata: ${JSON.stringify(warningsEvent())}\n\n`);
    clients.add(res);
    req.on('close', () => clients.delete(res));
  }

  // The port is taken before the first build, so a port in use is said at once, not after
  // building a large site; a request meanwhile waits for that build.
  let firstBuilt!: () => void;
  const built = new Promise<void>((resolve) => (firstBuilt = resolve));
  const server = createServer((req, res) => void built.then(() => answer(req, res)));
  function answer(req: IncomingMessage, res: ServerResponse) {
    // The same methods as every other path, dev's own included.
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed', { Allow: ALLOWED_METHODS });
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === DEV_EVENTS_PATH) return events(req, res);
    if (pathname === DEV_CLIENT_PATH) return sendDevClient(req, res);
    if (site.sink.files.size === 0 && site.errors.length > 0) return sendNotBuilt(res, errorMessage());
    handle(req, res).catch((error: unknown) => failRequest(res, error, true));
  }

  let url: string;
  try {
    url = await listen(server, options.host ?? '127.0.0.1', options.port ?? 8000);
    report(await site.rebuildAll('initial'));
  } catch (error) {
    // Nothing to serve (the port is taken, say): the server and the site must not keep the process alive.
    if (server.listening) {
      server.closeAllConnections(); // requests that waited for the first build
      await new Promise((resolve) => server.close(resolve));
    }
    warnings.close();
    site.close();
    throw error;
  }
  firstBuilt();

  const watcher = watchSiteFiles(watchTargets(root, site.config), async (files) => report(await site.applyChanges(files)), options.debounceMs);
  return {
    server,
    url,
    site,
    ready: watcher.ready,
    async close() {
      const watching = watcher.close();
      for (const client of clients) client.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await watching;
      warnings.close();
      site.close();
    },
  };
}
