// Answers a request the way a production host would: redirect rules (exact first),
// files, folder-slash redirects, case-insensitive rules, then the language's
// not-found page with status 404. GET and HEAD only; conditional and range requests
// as `send` and `sirv` answer them (conditional.ts). A compressible file goes out in the
// coding the request prefers (encoding.ts): its precompressed copy when the build wrote one,
// or compressed on the fly (compressed-bodies.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import encodeUrl from 'encodeurl';
import vary from 'vary';
import { isCompressible, MIN_COMPRESS_SIZE, SUFFIX, type Encoding } from '../../build/emit/compression.js';
import { CompressedBodies, MAX_ON_THE_FLY } from './compressed-bodies.js';
import { etagOf } from './content-etag.js';
import { negotiateEncoding } from './encoding.js';
import { caseInsensitiveRedirect, exactRedirect, findRedirect, isSafeTarget, wildcardRedirect, withQuery, type RedirectIndex } from '../../shared/redirects.js';
import { matchPage, type MatchPath } from '../../shared/match-paths.js';
import { evaluate } from './conditional.js';
import { HOST_FILES } from '../../build/emit/host-files.js';
import { cacheControlFor, contentTypeFor } from './content-type.js';
import { SourceUnavailableError, type FileSource, type SourceFile } from './sources.js';
import { locationPath, parseRequestPath } from './request-path.js';

export interface StaticHandlerOptions {
  source: FileSource;
  /** Current redirect rules (a function: dev swaps them on rebuild). */
  redirects: () => RedirectIndex;
  /** The pages that answer any path under a prefix (`/search/*` -> `/search/`), with status 200. */
  matchPaths?: () => readonly MatchPath[];
  /** Not-found pages by path prefix, longest first: `/fr/` -> `/fr/404.html`; `/` last. */
  notFoundPages: () => { prefix: string; page: string }[];
  /** Dev: rewrite HTML on its way out (live-reload script, error overlay). */
  transformHtml?: (html: string) => string;
  /**
   * More headers for every answer that carries a file (200, 206, 304, and the not-found page's
   * 404), by the site path of the file served (`/fr/404.html`): a Content-Security-Policy, say.
   */
  headers?: (sitePath: string) => Record<string, string> | undefined;
}

export const ALLOWED_METHODS = 'GET, HEAD';

export function plain(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', ...extra });
  res.end(`${message}\n`);
}

/** `location` must already be percent-encoded: Node refuses characters above U+00FF in a header, and browsers misread Latin-1. */
function redirectTo(res: ServerResponse, status: 301 | 302, location: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { Location: location, 'Cache-Control': 'no-cache', 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...extra });
  res.end(`Redirecting to ${location}\n`);
}

/** What a file answer reads: the file itself, or (dev) its HTML rewritten. */
interface Body {
  size: number;
  read(start: number, end: number): AsyncIterable<Buffer> | Buffer;
}

const bufferBody = (data: Buffer): Body => ({ size: data.length, read: (start, end) => data.subarray(start, end + 1) });

/** A body in a coding, with its tag; `etag` null when the body is the file as it is (compressing did not make it smaller). */
type Encoded = { body: Body; etag: string } | { body: Body; etag: null };

async function collect(data: AsyncIterable<Buffer> | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(data)) return data;
  const chunks: Buffer[] = [];
  for await (const chunk of data) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const HANG_UPS = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * Streams to the client. pipeline ends the read (and the file is let go) however the answer
 * ends; a client that hangs up is no error. A read that fails has already cut the connection,
 * so the client sees a broken answer, never a short one that looks complete.
 */
function stream(data: AsyncIterable<Buffer>, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    pipeline(data, res, (error) => {
      if (!error || HANG_UPS.has((error as NodeJS.ErrnoException).code ?? '')) resolve();
      else reject(error);
    });
  });
}

/**
 * The body in `encoding`, with its tag: the copy the build wrote next to the file, unless it is
 * older than the file (written over by hand since), or else compressed here. Null when
 * compressing does not make it smaller. A copy opened is added to `opened`, to be closed.
 */
async function encodedBody(source: StaticHandlerOptions['source'], onTheFly: CompressedBodies, sitePath: string, file: SourceFile, body: Body, encoding: Encoding, opened: SourceFile[]): Promise<Encoded> {
  if (body === file) {
    const copy = await source.file(sitePath + SUFFIX[encoding]);
    if (copy) {
      opened.push(copy);
      const stale = copy.lastModified && file.lastModified && copy.lastModified < file.lastModified;
      if (!stale) return { body: copy, etag: copy.etag };
    }
  }
  if (body.size > MAX_ON_THE_FLY) return { body, etag: null };
  // The tag of the bytes compressed: the file's, or (dev) that of the page as rewritten.
  let bytes = body === file ? null : await collect(body.read(0, body.size - 1));
  const tag = bytes ? etagOf(bytes) : file.etag;
  const compressed = await onTheFly.get(tag, encoding, async () => (bytes = await collect(body.read(0, body.size - 1))));
  if (compressed) return { body: bufferBody(compressed.data), etag: compressed.etag };
  // Not smaller: the file as it is, from the bytes read (a disk file lets go of its descriptor once read).
  return { body: bytes ? bufferBody(bytes) : body, etag: null };
}

/** A request that finds the output folder missing is tried this many times, this far apart, before a 503. */
const UNAVAILABLE_TRIES = 4;
const UNAVAILABLE_RETRY_MS = 25;

/**
 * Runs `answer`, again while the source is unavailable and nothing is sent: a build swapping in a
 * whole new output leaves no folder between its two renames, for milliseconds. Then a 503.
 */
async function whenAvailable(answer: () => Promise<void>, res: ServerResponse): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await answer();
    } catch (error) {
      if (!(error instanceof SourceUnavailableError) || res.headersSent) throw error;
      if (attempt < UNAVAILABLE_TRIES) await new Promise((resolve) => setTimeout(resolve, UNAVAILABLE_RETRY_MS));
      else return plain(res, 503, 'The site is being rebuilt or the server is out of file handles; try again in a moment', { 'Retry-After': '1' });
    }
  }
}

/**
 * Where a wildcard rule's target goes: a legacy path matches without regard to case (SPEC.md
 * section 2), so the page as typed, else its lower-case spelling, or where a rule sends that
 * (a quarter's case) in the same hop, as the browser does.
 */
async function legacyTarget(rules: RedirectIndex, splat: string, source: FileSource): Promise<string> {
  const page = await source.file(splat.endsWith('/') ? `${splat}index.html` : splat);
  await page?.close(); // only its existence counts here
  if (page) return splat;
  const lower = splat.toLowerCase();
  const onward = findRedirect(rules, lower);
  return onward && isSafeTarget(onward.toPath) ? onward.toPath : lower;
}

export function createStaticHandler(options: StaticHandlerOptions) {
  const { source } = options;
  const onTheFly = new CompressedBodies();

  async function sendFile(req: IncomingMessage, res: ServerResponse, sitePath: string, file: SourceFile, status: 200 | 404): Promise<void> {
    const opened = [file];
    try {
      const type = contentTypeFor(sitePath);
      const headers: Record<string, string | number> = {
        'Content-Type': type,
        'Cache-Control': status === 404 ? 'no-cache' : cacheControlFor(sitePath),
        'X-Content-Type-Options': 'nosniff',
        ...options.headers?.(sitePath),
      };
      if (file.lastModified) headers['Last-Modified'] = file.lastModified.toUTCString();
      let body: Body = file;
      let etag = file.etag;
      if (options.transformHtml && type.startsWith('text/html')) {
        body = bufferBody(Buffer.from(options.transformHtml((await collect(file.read(0, file.size - 1))).toString('utf8'))));
      }
      let encoding: Encoding | null = null;
      if (isCompressible(sitePath)) {
        // The answer depends on Accept-Encoding, even when it is the file as it is.
        headers.Vary = vary.append(String(headers.Vary ?? ''), 'Accept-Encoding');
        // Ranges are of the file as it is: a range request gets no coding, as `send` (which never compresses) answers it.
        const wanted = body.size >= MIN_COMPRESS_SIZE && req.headers.range === undefined ? negotiateEncoding(req.headers) : null;
        const encoded = wanted ? await encodedBody(source, onTheFly, sitePath, file, body, wanted, opened) : null;
        if (encoded) body = encoded.body;
        if (encoded?.etag) {
          encoding = wanted;
          etag = encoded.etag;
        }
      }
      headers.ETag = etag;
      // Conditions and ranges apply to the file itself, not to a not-found page standing in for another path.
      const verdict = status === 200 ? evaluate(req.headers, { etag, lastModified: file.lastModified, size: body.size }) : { status };
      if (status === 200) headers['Accept-Ranges'] = 'bytes';
      if (verdict.status === 304) {
        // No representation metadata but what a cache updates (RFC 9110 section 15.4.5).
        const { 'Content-Type': _type, 'Accept-Ranges': _ranges, ...kept } = headers;
        res.writeHead(304, kept);
        res.end();
        return;
      }
      if (verdict.status === 412) return plain(res, 412, 'Precondition failed');
      if (verdict.status === 416) return plain(res, 416, 'Range not satisfiable', { 'Content-Range': `bytes */${body.size}`, 'Accept-Ranges': 'bytes' });
      const [start, end] = verdict.status === 206 ? [verdict.start, verdict.end] : [0, body.size - 1];
      if (verdict.status === 206) headers['Content-Range'] = `bytes ${start}-${end}/${body.size}`;
      if (encoding) headers['Content-Encoding'] = encoding;
      headers['Content-Length'] = end - start + 1;
      res.writeHead(verdict.status, headers);
      if (req.method === 'HEAD' || end < start) {
        res.end();
        return;
      }
      const data = body.read(start, end);
      if (Buffer.isBuffer(data)) res.end(data);
      else await stream(data, res);
    } finally {
      await Promise.all(opened.map((f) => f.close()));
    }
  }

  async function notFound(req: IncomingMessage, res: ServerResponse, sitePath: string): Promise<void> {
    const lower = sitePath.toLowerCase();
    for (const { prefix, page } of options.notFoundPages()) {
      if (!lower.startsWith(prefix)) continue;
      const file = await source.file(page);
      if (file) return sendFile(req, res, page, file, 404);
    }
    plain(res, 404, 'Not found');
  }

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed', { Allow: ALLOWED_METHODS });
    const parsed = parseRequestPath(req.url);
    if (!parsed.ok) return parsed.path === undefined ? plain(res, parsed.status, parsed.status === 404 ? 'Not found' : 'Bad request') : notFound(req, res, parsed.path);
    const { path, search } = parsed;
    const rules = options.redirects();
    // The folder's headers for the path redirected from, as the hosts send them (a Referrer-Policy
    // on a redirect is the one the next request goes out with).
    const redirect = (status: 301 | 302, location: string) => redirectTo(res, status, location, options.headers?.(path));

    const exact = exactRedirect(rules, path) ?? (path.endsWith('/') ? undefined : exactRedirect(rules, `${path}/`));
    if (exact && isSafeTarget(exact.toPath)) return redirect(302, encodeUrl(withQuery(exact.toPath, search)));

    const filePath = path.endsWith('/') ? `${path}index.html` : path;
    // The hosts that read these files never serve them.
    if (HOST_FILES.has(filePath)) return notFound(req, res, path);
    const file = await source.file(filePath);
    if (file) return sendFile(req, res, filePath, file, 200);
    if (!path.endsWith('/') && (await source.isDirectory(path))) {
      // Folder without its slash: the canonical URL has one (never `//...`: parseRequestPath refuses empty segments).
      return redirect(301, `${locationPath(path)}/${encodeUrl(search)}`);
    }

    const loose = caseInsensitiveRedirect(rules, path) ?? (path.endsWith('/') ? undefined : caseInsensitiveRedirect(rules, `${path}/`));
    if (loose && isSafeTarget(loose.toPath)) return redirect(302, encodeUrl(withQuery(loose.toPath, search)));

    const splat = wildcardRedirect(rules, path);
    if (splat) return redirect(302, encodeUrl(withQuery(await legacyTarget(rules, splat, source), search)));

    // A wildcard page (`/search/*`) answers with its own HTML; the runtime reads the address.
    const page = matchPage(options.matchPaths?.() ?? [], path);
    const pageFile = page ? await source.file(`${page}index.html`) : null;
    if (pageFile) return sendFile(req, res, `${page}index.html`, pageFile, 200);

    return notFound(req, res, path);
  }

  return (req: IncomingMessage, res: ServerResponse) => whenAvailable(() => answer(req, res), res);
}
