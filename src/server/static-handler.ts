// Answers a request the way a production host would: redirect rules (exact first),
// files, folder-slash redirects, case-insensitive rules, then the language's
// not-found page with status 404. GET and HEAD only.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { caseInsensitiveRedirect, exactRedirect, isSafeTarget, withQuery, type RedirectIndex } from '../shared/redirects.js';
import { cacheControlFor, contentTypeFor } from './content-type.js';
import type { FileSource, SourceFile } from './sources.js';
import { parseRequestPath } from './request-path.js';

export interface StaticHandlerOptions {
  source: FileSource;
  /** Current redirect rules (a function: dev swaps them on rebuild). */
  redirects: () => RedirectIndex;
  /** Not-found pages by path prefix, longest first: `/fr/` -> `/fr/404.html`; `/` last. */
  notFoundPages: () => { prefix: string; page: string }[];
  /** Dev: rewrite HTML on its way out (live-reload script, error overlay). */
  transformHtml?: (html: string) => string;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

function plain(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', ...extra });
  res.end(`${message}\n`);
}

function redirect(res: ServerResponse, status: 301 | 302, to: string): void {
  res.writeHead(status, { Location: to, 'Cache-Control': 'no-cache', 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`Redirecting to ${to}\n`);
}

export function createStaticHandler(options: StaticHandlerOptions) {
  const { source } = options;

  async function send(req: IncomingMessage, res: ServerResponse, sitePath: string, file: SourceFile, status = 200): Promise<void> {
    const type = contentTypeFor(sitePath);
    const headers: Record<string, string | number> = {
      'Content-Type': type,
      'Cache-Control': status === 404 ? 'no-cache' : cacheControlFor(sitePath),
      ETag: file.etag,
      'X-Content-Type-Options': 'nosniff',
    };
    if (file.lastModified) headers['Last-Modified'] = file.lastModified.toUTCString();
    if (status === 200 && etagMatches(req.headers['if-none-match'], file.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    let body = file.body();
    if (options.transformHtml && type.startsWith('text/html')) {
      const html = Buffer.isBuffer(body) ? body.toString('utf8') : await streamToString(body);
      body = Buffer.from(options.transformHtml(html));
    }
    headers['Content-Length'] = Buffer.isBuffer(body) ? body.length : file.size;
    res.writeHead(status, headers);
    if (req.method === 'HEAD') {
      if (!Buffer.isBuffer(body)) body.destroy();
      res.end();
    } else if (Buffer.isBuffer(body)) res.end(body);
    else body.pipe(res);
  }

  async function notFound(req: IncomingMessage, res: ServerResponse, sitePath: string): Promise<void> {
    const lower = sitePath.toLowerCase();
    for (const { prefix, page } of options.notFoundPages()) {
      if (!lower.startsWith(prefix)) continue;
      const file = await source.file(page);
      if (file) return send(req, res, page, file, 404);
    }
    plain(res, 404, 'Not found');
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
    const parsed = parseRequestPath(req.url);
    if (!parsed.ok) return plain(res, parsed.status, parsed.status === 404 ? 'Not found' : 'Bad request');
    const { path, search } = parsed;
    const rules = options.redirects();

    const exact = exactRedirect(rules, path) ?? (path.endsWith('/') ? undefined : exactRedirect(rules, `${path}/`));
    if (exact && isSafeTarget(exact.toPath)) return redirect(res, 302, withQuery(exact.toPath, search));

    const filePath = path.endsWith('/') ? `${path}index.html` : path;
    const file = await source.file(filePath);
    if (file) return send(req, res, filePath, file);
    if (!path.endsWith('/') && (await source.isDirectory(path))) {
      // Folder without its slash: the canonical URL has one (never `//...`: parseRequestPath refuses empty segments).
      return redirect(res, 301, `${path}/${search}`);
    }

    const loose = caseInsensitiveRedirect(rules, path) ?? (path.endsWith('/') ? undefined : caseInsensitiveRedirect(rules, `${path}/`));
    if (loose && isSafeTarget(loose.toPath)) return redirect(res, 302, withQuery(loose.toPath, search));

    return notFound(req, res, path);
  };
}

async function streamToString(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
