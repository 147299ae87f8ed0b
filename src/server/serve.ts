// `ir-site serve`: a built output folder over HTTP on loopback, answering like a
// production host (see static-handler.ts).
import { readFile, readdir, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { indexRedirects, type RedirectIndex } from '../shared/redirects.js';
import type { RedirectRule } from '../shared/types.js';
import { DiskSource } from './sources.js';
import { failRequest, listen } from './listen.js';
import { createStaticHandler } from './static-handler.js';

export interface ServeOptions {
  dir: string;
  host?: string;
  port?: number;
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** `/fr/404.html` serves unknown `/fr/...` paths; `/404.html` the rest. Longest prefix first. */
export async function notFoundPagesIn(dir: string): Promise<{ prefix: string; page: string }[]> {
  const pages: { prefix: string; page: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !entry.name.startsWith('.')) {
      const exists = await stat(path.join(dir, entry.name, '404.html')).then((s) => s.isFile(), () => false);
      if (exists) pages.push({ prefix: `/${entry.name.toLowerCase()}/`, page: `/${entry.name}/404.html` });
    }
  }
  pages.push({ prefix: '/', page: '/404.html' });
  return pages;
}

/** The rules, or null when redirects.json cannot be read (missing while a build swaps the folder, or invalid). */
async function readRules(dir: string): Promise<RedirectRule[] | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, 'redirects.json'), 'utf8')) as RedirectRule[];
  } catch {
    return null;
  }
}

/** Serves `dir`; picks up a rebuilt folder's redirects and not-found pages within a second. */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const dir = path.resolve(options.dir);
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new Error(`${dir} is not a folder; run \`ir-site build\` first, or name the output folder`);

  const redirectsFile = path.join(dir, 'redirects.json');
  let rules: RedirectIndex = indexRedirects((await readRules(dir)) ?? []);
  let notFound = await notFoundPagesIn(dir);
  let stamp = await stat(redirectsFile).then((s) => s.mtimeMs, () => 0);
  let checked = Date.now();
  const refresh = async () => {
    if (Date.now() - checked < 1000) return;
    checked = Date.now();
    // Missing or unreadable: a build is swapping the folder in. Keep the rules until the new file is there.
    const now = await stat(redirectsFile).then((s) => s.mtimeMs, () => null);
    if (now === null || now === stamp) return;
    const next = await readRules(dir);
    if (!next) return;
    stamp = now;
    rules = indexRedirects(next);
    notFound = await notFoundPagesIn(dir).catch(() => notFound);
  };

  const handle = createStaticHandler({ source: new DiskSource(dir), redirects: () => rules, notFoundPages: () => notFound });
  const server = createServer((req, res) => {
    refresh()
      .then(() => handle(req, res))
      .catch((error: unknown) => failRequest(res, error, false));
  });
  const url = await listen(server, options.host ?? '127.0.0.1', options.port ?? 8080);
  return {
    server,
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
