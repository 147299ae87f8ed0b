// Starts an HTTP server on host:port and answers its URL (port 0 picks a free one).
import type { Server } from 'node:http';

export async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
}
