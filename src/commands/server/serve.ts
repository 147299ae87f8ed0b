// `ir-site serve`: a built output folder over HTTP on loopback, answering like a
// production host (see static-handler.ts).
import { readFile, readdir, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { journalFile, outputInterrupted } from '../../build/emit/journal.js';
import { MATCH_PATHS_FILE, parseMatchPaths, type MatchPath } from '../../shared/match-paths.js';
import { indexRedirects } from '../../shared/redirects.js';
import type { RedirectRule } from '../../shared/types.js';
import { NETLIFY_HEADERS_FILE } from '../../build/emit/host-headers.js';
import { headersFor, parseHeaders } from './host-headers.js';
import { DiskSource } from './sources.js';
import { failRequest, listen } from './listen.js';
import { createStaticHandler } from './static-handler.js';

/** What `serve` is given: the built folder, and where to listen (127.0.0.1:8080 by default; port 0 picks a free one). */
export interface ServeOptions {
  dir: string;
  host?: string;
  port?: number;
}

/** A running server: its URL, and how to stop it. */
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

/**
 * A file of the folder, parsed, and parsed again when its time changes. Missing, unreadable or
 * invalid (a build is swapping the folder in), the last value stays until the new file is there.
 */
function followed<T>(file: string, parse: (text: string) => T, initial: T) {
  let value = initial;
  let stamp: number | null = null;
  return {
    current: () => value,
    /** True when the file changed and was read again. */
    async refresh(): Promise<boolean> {
      const now = await stat(file).then((s) => s.mtimeMs, () => null);
      if (now === null || now === stamp) return false;
      try {
        value = parse(await readFile(file, 'utf8'));
      } catch {
        return false;
      }
      stamp = now;
      return true;
    },
  };
}

/** A folder `serve` will not serve (none there, or one a build left half updated); the message says what to do. */
export class ServeInputError extends Error {}

export { ListenError } from './listen.js';

/** Serves `dir`; picks up a rebuilt folder's redirects and not-found pages within a second. */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const dir = path.resolve(options.dir);
  if (outputInterrupted(dir)) {
    throw new ServeInputError(`${dir} is half updated: the build that was publishing it was interrupted (${journalFile(dir)}). Run \`ir-site build\`: it finishes that update first.`);
  }
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new ServeInputError(`${dir} is not a folder; run \`ir-site build\` first, or name the output folder`);

  const rules = followed(path.join(dir, 'redirects.json'), (text) => indexRedirects(JSON.parse(text) as RedirectRule[]), indexRedirects([]));
  const headerRules = followed(path.join(dir, NETLIFY_HEADERS_FILE), parseHeaders, []);
  const matchPaths = followed(path.join(dir, ...MATCH_PATHS_FILE.split('/')), (text) => parseMatchPaths(JSON.parse(text)), [] as MatchPath[]);
  let notFound = await notFoundPagesIn(dir);
  await Promise.all([rules.refresh(), headerRules.refresh(), matchPaths.refresh()]);
  let checked = Date.now();
  const refresh = async () => {
    if (Date.now() - checked < 1000) return;
    checked = Date.now();
    const [rebuilt] = await Promise.all([rules.refresh(), headerRules.refresh(), matchPaths.refresh()]);
    if (rebuilt) notFound = await notFoundPagesIn(dir).catch(() => notFound);
  };

  const handle = createStaticHandler({
    source: new DiskSource(dir),
    redirects: rules.current,
    matchPaths: matchPaths.current,
    notFoundPages: () => notFound,
    headers: (sitePath) => headersFor(headerRules.current(), sitePath),
  });
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
