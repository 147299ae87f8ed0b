// External links: listed by default (no network); with --external, each distinct URL is
// asked once, HEAD first and GET when the server refuses HEAD, with a short timeout and a
// limit on requests in flight.
import pLimit from 'p-limit';
import { diagnostic } from '../../errors/diagnostic.js';
import type { Finding } from './model.js';
import type { Origin } from './origin.js';

export interface ExternalLink {
  url: string;
  /** Pages that link to it, in order. */
  pages: string[];
  /** Where the first of them writes it. */
  origin: Omit<Origin, 'fromTemplate'>;
}

export interface ExternalOptions {
  /** Per request, in ms (default 8000). */
  timeoutMs?: number;
  /** Requests in flight (default 8). */
  concurrency?: number;
}

interface ExternalResult {
  /** HTTP status, or null when no answer came (timeout, refused, DNS...). */
  status: number | null;
  error?: string;
}

async function ask(url: string, method: 'HEAD' | 'GET', timeoutMs: number): Promise<ExternalResult> {
  try {
    const res = await fetch(url, {
      method,
      redirect: 'follow',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'user-agent': 'ir-site-check (link checker)', accept: '*/*' },
    });
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { status: null, error: why };
  }
}

/** HEAD, then GET when HEAD is refused (405, 501, 403 from some CDNs) or fails outright. */
async function fetchStatus(url: string, timeoutMs: number): Promise<ExternalResult> {
  const head = await ask(url, 'HEAD', timeoutMs);
  if (head.status !== null && head.status < 400) return head;
  if (head.status === 404 || head.status === 410) return head;
  return ask(url, 'GET', timeoutMs);
}

export async function checkExternal(links: readonly ExternalLink[], options: ExternalOptions = {}): Promise<Finding[]> {
  const timeoutMs = options.timeoutMs ?? 8000;
  const limit = pLimit(options.concurrency ?? 8);
  const results = await Promise.all(links.map((l) => limit(() => fetchStatus(l.url, timeoutMs))));
  const findings: Finding[] = [];
  results.forEach((result, i) => {
    const link = links[i]!;
    if (result.status !== null && result.status < 400) return;
    // Gone for sure is an error; a server error or no answer may be passing trouble.
    const gone = result.status === 404 || result.status === 410;
    findings.push(diagnostic('links/external', {
      ...link.origin,
      severity: gone ? 'error' : 'warning',
      page: link.pages[0],
      morePages: link.pages.length > 1 ? link.pages.length - 1 : undefined,
      message: result.status !== null ? `the external link ${link.url} answers ${result.status}` : `the external link ${link.url} does not answer (${result.error})`,
      hint: gone ? 'the page is gone: update the link, or remove it' : 'it may be a passing outage; check it in a browser',
    }));
  });
  return findings;
}
