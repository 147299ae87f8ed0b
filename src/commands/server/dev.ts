// `ir-site dev`: build into memory, serve it, watch the site's files, bring the output
// up to date on every change and tell open tabs to reload (server-sent events).
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { formatDiagnostics, type Diagnostic } from '../../errors/diagnostic.js';
import { isQuickFinding, quickCheck } from '../check/quick.js';
import type { SiteGraph } from '../../build/graph/model.js';
import type { ResolvedConfig } from '../../build/config/resolve.js';
import { indexRedirects, type RedirectIndex } from '../../shared/redirects.js';
import { localizePath } from '../../shared/paths.js';
import { DEV_CLIENT_PATH, DEV_CLIENT_SCRIPT, DEV_EVENTS_PATH, injectDevClient } from './dev-client.js';
import { DevSite, type ChangeReport } from './dev-site.js';
import { MemorySource } from './sources.js';
import { failRequest, listen } from './listen.js';
import { ALLOWED_METHODS, createStaticHandler, plain } from './static-handler.js';
import { escapeHtml } from '../../build/render/escape.js';

/** Past chokidar's 50 ms change throttle: a write it swallowed shows by then. */
const RECHECK_MS = 80;

async function signature(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return 'gone';
  }
}

export interface DevOptions {
  root: string;
  site?: string;
  host?: string;
  port?: number;
  /** Called after the first build and after every change (the CLI prints these). */
  onReport?: (report: ChangeReport, site: DevSite) => void;
  /** Milliseconds to gather a burst of file events into one change. */
  debounceMs?: number;
}

export interface RunningDev {
  server: Server;
  url: string;
  site: DevSite;
  /** Resolves once the watcher is ready: edits after this are seen. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the site into memory (drafts included), serves it, watches its files, rebuilds what
 * each edit changes and reloads the tabs that show it; errors go to the terminal and over the page.
 */
export async function dev(options: DevOptions): Promise<RunningDev> {
  const root = path.resolve(options.root);
  const site = new DevSite({ root, site: options.site });
  const clients = new Set<ServerResponse>();
  let redirects: RedirectIndex = indexRedirects([]);

  const send = (event: string, data: unknown) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of clients) client.write(frame);
  };
  const errorMessage = () => formatDiagnostics(site.errors, { color: false });
  let warnings: Diagnostic[] = [];
  const warningsEvent = () => ({ count: warnings.length, message: formatDiagnostics(warnings, { color: false }) });

  const report = (r: ChangeReport) => {
    if (site.compiled) redirects = indexRedirects(site.compiled.graph.redirects.map((o) => o.rule));
    if (r.ok) {
      // An edit of one body updates the graph without a new compile: the site checks run again on it.
      warnings = site.compiled && site.config ? currentWarnings(r.diagnostics, site.compiled.graph, site.config) : [];
      r = { ...r, diagnostics: [...r.diagnostics.filter((d) => d.severity === 'error'), ...warnings] };
    }
    options.onReport?.(r, site);
    if (r.ok) {
      send('build-ok', { warnings: warnings.length });
      if (warnings.length > 0) send('build-warnings', warningsEvent());
      if (r.changedPaths === '*' || r.changedPaths.length > 0) send('reload', { paths: r.changedPaths });
    } else {
      send('build-error', { message: errorMessage() });
    }
  };

  report(await site.rebuildAll('initial'));

  const handle = createStaticHandler({
    source: new MemorySource(() => site.sink),
    redirects: () => redirects,
    notFoundPages: () => {
      const config = site.config;
      if (!config) return [{ prefix: '/', page: '/404.html' }];
      const prefixes = [
        ...config.legacyPrefixes.map((p) => ({ prefix: `/${p}/`, page: `/${p}/404.html` })),
        ...config.locales.filter((l) => l.code !== config.defaultLocale).map((l) => ({ prefix: `/${l.code}/`, page: localizePath('/404.html', l.code, config.defaultLocale) })),
      ];
      return [...prefixes, { prefix: '/', page: '/404.html' }];
    },
    transformHtml: injectDevClient,
  });

  function events(req: IncomingMessage, res: ServerResponse) {
    const headers = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' };
    if (req.method === 'HEAD') return res.writeHead(200, headers).end();
    res.writeHead(200, { ...headers, Connection: 'keep-alive' });
    res.write(': connected\n\n');
    if (site.errors.length > 0) res.write(`event: build-error\ndata: ${JSON.stringify({ message: errorMessage() })}\n\n`);
    else if (warnings.length > 0) res.write(`event: build-warnings\ndata: ${JSON.stringify(warningsEvent())}\n\n`);
    clients.add(res);
    req.on('close', () => clients.delete(res));
  }

  const server = createServer((req, res) => {
    // The same methods as every other path, dev's own included.
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed', { Allow: ALLOWED_METHODS });
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === DEV_EVENTS_PATH) return events(req, res);
    if (pathname === DEV_CLIENT_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Length': Buffer.byteLength(DEV_CLIENT_SCRIPT) });
      return res.end(req.method === 'HEAD' ? undefined : DEV_CLIENT_SCRIPT);
    }
    if (site.sink.files.size === 0 && site.errors.length > 0) {
      // Nothing has built yet: show the errors as a page that reloads once they are fixed.
      res.writeHead(500, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
      return res.end(
        injectDevClient(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Build error</title></head><body><main><h1>The site does not build yet</h1><pre>${escapeHtml(errorMessage())}</pre></main><script>new EventSource('${DEV_EVENTS_PATH}').addEventListener('reload',function(){location.reload()})</script></body></html>`),
      );
    }
    handle(req, res).catch((error: unknown) => failRequest(res, error, true));
  });

  // Watch folders, not globs (chokidar 4+ has none); ignore editor droppings and dotfiles.
  // Each watched folder is watched from its parent: chokidar stops watching a folder that is
  // deleted, and a parent sees it come back (and reports what it holds again).
  const config = site.config;
  const targets = config
    ? [config.dirs.content, config.dirs.locales, config.dirs.config, config.dirs.templates, path.join(root, 'site.config.ts')]
    : ['content', 'locales', 'config', 'templates', 'site.config.ts'].map((name) => path.join(root, name));
  const parents = [...new Set(targets.map((t) => path.dirname(t)))];
  const within = (file: string, dir: string) => file === dir || file.startsWith(dir + path.sep);
  const watcher: FSWatcher = watch(parents, {
    ignoreInitial: true,
    ignored: (file: string) => {
      const abs = path.resolve(file);
      if (parents.includes(abs)) return false;
      const target = targets.find((t) => within(abs, t));
      return !target || /(^|[\\/])\.[^\\/]|~$|\.sw[a-p]$|\.tmp$/.test(path.relative(target, abs));
    },
  });
  // chokidar drops a change that follows another within 50 ms and may report a write
  // at its truncation, before the content lands. So each file is signed (mtime, size)
  // before it is read; if the signature moved by the end, or moves within the throttle
  // window after, the file goes through again. No save is ever lost.
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const rechecks = new Set<NodeJS.Timeout>();
  let queue = Promise.resolve();
  let closed = false;
  const enqueue = (files: Iterable<string>, delay = options.debounceMs ?? 10) => {
    for (const f of files) pending.add(f);
    clearTimeout(timer);
    timer = setTimeout(flush, delay);
  };
  const flush = () => {
    const files = [...pending];
    pending = new Set();
    queue = queue
      .then(async () => {
        const before = await Promise.all(files.map(signature));
        report(await site.applyChanges(files));
        const moved = async () => {
          const now = await Promise.all(files.map(signature));
          return files.filter((_, i) => now[i] !== before[i]);
        };
        const late = await moved();
        if (late.length > 0) return enqueue(late, 0);
        const recheck = setTimeout(() => {
          rechecks.delete(recheck);
          if (!closed) void moved().then((changed) => changed.length > 0 && enqueue(changed, 0));
        }, RECHECK_MS);
        rechecks.add(recheck);
      })
      .catch((error: unknown) => console.error(error));
  };
  for (const event of ['add', 'change', 'unlink'] as const) watcher.on(event, (file: string) => enqueue([path.resolve(file)]));
  // A watched folder that goes or comes back (content/ deleted and made again) is a change of its
  // own, besides the files it held or holds: a folder left empty still changes the site.
  for (const event of ['addDir', 'unlinkDir'] as const) {
    watcher.on(event, (dir: string) => {
      if (targets.includes(path.resolve(dir))) enqueue([path.resolve(dir)]);
    });
  }
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  const url = await listen(server, options.host ?? '127.0.0.1', options.port ?? 8000);
  return {
    server,
    url,
    site,
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      for (const r of rechecks) clearTimeout(r);
      await watcher.close();
      for (const client of clients) client.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
      site.close();
    },
  };
}

/** The warnings of the site as it now is: the compile's own, and the site checks run on the current graph. */
function currentWarnings(reported: readonly Diagnostic[], graph: SiteGraph, config: ResolvedConfig): Diagnostic[] {
  return [...reported.filter((d) => d.severity === 'warning' && !isQuickFinding(d)), ...quickCheck(graph, config)];
}
