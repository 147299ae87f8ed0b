// A small HTTP load generator for the server tests and bench/serve-load.ts: keep-alive clients
// that each send one request after another until told to stop, and judge every answer.
import http from 'node:http';

export interface LoadRequest {
  /** Request target, already percent-encoded (`/insights/`). */
  path: string;
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface LoadOptions {
  base: string;
  /** Concurrent connections, each one request at a time. */
  clients: number;
  /** The next request to send. */
  next: () => LoadRequest;
  /** A failure message for a wrong answer, or null. */
  check?: (request: LoadRequest, answer: Answer) => string | null;
  /** Clients stop sending once this returns false. */
  running: () => boolean;
  /** An answer not complete by then is a failure (not a timing assertion: a hang). */
  timeoutMs?: number;
}

export interface LoadReport {
  requests: number;
  statuses: Map<number, number>;
  failures: string[];
  /** Milliseconds from sending each request to its complete answer. */
  latencies: number[];
}

/** One request; rejects when the answer is not complete (short body, reset, timeout). */
export function request(base: string, req: LoadRequest, agent: http.Agent | false, timeoutMs = 30_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(`${base}${req.path}`, { method: req.method ?? 'GET', headers: req.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
      res.on('close', () => {
        if (!res.complete) reject(new Error(`answer ${res.statusCode} ended before its last byte (${Buffer.concat(chunks).length} bytes read)`));
      });
    });
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no complete answer within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

export async function load(options: LoadOptions): Promise<LoadReport> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.clients });
  const report: LoadReport = { requests: 0, statuses: new Map(), failures: [], latencies: [] };
  const client = async () => {
    while (options.running()) {
      const req = options.next();
      const t0 = performance.now();
      try {
        const answer = await request(options.base, req, agent, options.timeoutMs);
        report.latencies.push(performance.now() - t0);
        report.requests++;
        report.statuses.set(answer.status, (report.statuses.get(answer.status) ?? 0) + 1);
        const failure = options.check?.(req, answer);
        if (failure) report.failures.push(`${req.method ?? 'GET'} ${req.path}: ${failure}`);
      } catch (error) {
        report.requests++;
        report.failures.push(`${req.method ?? 'GET'} ${req.path}: ${(error as Error).message}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.clients }, client));
  } finally {
    agent.destroy();
  }
  return report;
}
