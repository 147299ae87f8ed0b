// Starts an HTTP server on host:port and answers its URL (port 0 picks a free one).
import type { Server, ServerResponse } from 'node:http';

/**
 * Connections the kernel may hold for us before we accept them. Node's default, 511, drops
 * the handshakes of a burst of 1000 clients: each dropped one retries after 1 s, 3 s, 7 s.
 * The kernel caps this at net.core.somaxconn (4096 on current Linux).
 */
export const LISTEN_BACKLOG = 4096;

export async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
}

/**
 * The last word on a request that failed unexpectedly: a 500 if nothing was sent yet;
 * otherwise the connection is cut, so the client sees a broken answer rather than a short one.
 */
export function failRequest(res: ServerResponse, error: unknown, details: boolean): void {
  console.error(error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
  res.end(details ? `Internal error: ${(error as Error).message}\n` : 'Internal error\n');
}
