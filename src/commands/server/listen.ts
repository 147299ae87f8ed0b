// Starts an HTTP server on host:port and answers its URL (port 0 picks a free one).
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { messageOf } from '../../errors/thrown.js';

/**
 * Connections the kernel may hold for us before we accept them. Node's default, 511, drops
 * the handshakes of a burst of 1000 clients: each dropped one retries after 1 s, 3 s, 7 s.
 * The kernel caps this at net.core.somaxconn (4096 on current Linux).
 */
export const LISTEN_BACKLOG = 4096;

/** The server could not listen where it was asked to; the message says what to change. */
export class ListenError extends Error {}

/** A listen failure in words a person can act on; any other error as it is. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new ListenError(`port ${port} is already in use on ${host} (another server is listening at ${where}); stop it, or choose another port with --port <number> (--port 0 picks a free one)`, { cause: error });
    case 'EACCES':
      return new ListenError(`no permission to listen on port ${port} of ${host} (ports below 1024 need privileges); choose another port with --port <number>`, { cause: error });
    case 'EADDRNOTAVAIL':
      return new ListenError(`${host} is not an address of this machine, so nothing can listen at ${where}; choose another with --host (127.0.0.1 by default)`, { cause: error });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ListenError(`no address is known for the host name ${host}; give an address of this machine with --host (127.0.0.1 by default)`, { cause: error });
    default:
      return error;
  }
}

/** A CONNECT (a proxy's tunnel) is no request a static server takes: a 405, not a dropped connection. */
const refuseTunnel = (_req: unknown, socket: Duplex) => socket.end('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');

export async function listen(server: Server, host: string, port: number): Promise<string> {
  if (server.listenerCount('connect') === 0) server.on('connect', refuseTunnel);
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port));
    server.once('error', fail);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', fail);
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
  // A writeHead that threw (a header no response can carry) left its status text and headers set.
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(500, 'Internal Server Error', { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
  res.end(details ? `Internal error: ${messageOf(error)}\n` : 'Internal error\n');
}
