// Sends a request target byte for byte (fetch and http.request normalise `..`, so
// traversal tests need a raw socket).
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function rawRequest(baseUrl: string, target: string, method = 'GET', extraHeaders: Record<string, string> = {}, timeoutMs = 15_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    // An answer that never ends (a stream) fails the test instead of hanging it.
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`${method} ${target}: no complete answer within ${timeoutMs} ms`)));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    const extra = Object.entries(extraHeaders).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${hostname}\r\n${extra}Connection: close\r\n\r\n`);
  });
}
