// Which content coding a request gets (RFC 9110 section 12.5.3), judged by negotiator from its
// Accept-Encoding: brotli when the client accepts it at least as well as gzip, then gzip, else
// the file as it is. No Accept-Encoding means the file as it is.
import type { IncomingHttpHeaders } from 'node:http';
import Negotiator from 'negotiator';
import { ENCODINGS, type Encoding } from '../../build/emit/compression.js';

const AVAILABLE = [...ENCODINGS, 'identity'];

/**
 * The coding to send, or null for none. A request that refuses every coding, identity included
 * (`identity;q=0, *;q=0`), still gets the file as it is, as nginx and Express answer it, rather than a 406.
 */
export function negotiateEncoding(headers: IncomingHttpHeaders): Encoding | null {
  const [best] = new Negotiator({ headers }).encodings(AVAILABLE, { preferred: ENCODINGS });
  return (ENCODINGS as readonly string[]).includes(best ?? '') ? (best as Encoding) : null;
}
