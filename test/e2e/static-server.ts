// Test-only static file server for a built site (the real `ir-site serve` is separate).
// `/x/` serves x/index.html; anything missing gets the matching locale's 404.html with
// status 404 (/fr/... -> fr/404.html, /cn/... -> cn/404.html, else 404.html).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.pdf': 'application/pdf',
  '.webmanifest': 'application/manifest+json',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticServer {
  /** `http://127.0.0.1:{port}`, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null))?.isFile() ?? false;
}

/** The file under `root` for a URL path, or null when it escapes the root. */
function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded.endsWith('/') ? `${decoded}index.html` : decoded;
  const file = path.join(root, relative);
  return file === root || file.startsWith(root + path.sep) ? file : null;
}

function notFoundPage(root: string, urlPath: string): string {
  const locale = /^\/(fr|cn)(?:\/|$)/.exec(urlPath)?.[1];
  return path.join(root, locale ? `${locale}/404.html` : '404.html');
}

export async function serveStatic(folder: string): Promise<StaticServer> {
  const root = path.resolve(folder);
  const server = http.createServer(async (req, res) => {
    const urlPath = new URL(req.url ?? '/', 'http://localhost').pathname;
    const send = async (file: string, status: number) => {
      res.writeHead(status, {
        'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') return void res.end();
      createReadStream(file).on('error', () => res.destroy()).pipe(res);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const file = resolveInside(root, urlPath);
    if (file === null) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('forbidden');
      return;
    }
    if (TYPES[path.extname(file).toLowerCase()] && (await isFile(file))) return send(file, 200);
    // A folder asked for without its trailing slash.
    if (!urlPath.endsWith('/') && (await isFile(path.join(file, 'index.html')))) {
      res.writeHead(301, { location: `${urlPath}/` }).end();
      return;
    }
    const missing = notFoundPage(root, urlPath);
    if (await isFile(missing)) return send(missing, 404);
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
