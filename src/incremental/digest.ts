// Content digests and cache keys: SHA-256, shortened to 128 bits (plenty for telling files apart).
import crypto from 'node:crypto';

/**
 * SHA-256 in hex. Node's one-shot `crypto.hash` (20.12 and later) costs ~1 µs less per call
 * than a Hash object, which counts at the 30-50k digests and keys of a 4000-article build.
 */
export const sha256: (data: string | Uint8Array) => string =
  typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'hex') : (data) => crypto.createHash('sha256').update(data).digest('hex');

/** Digest of a file's bytes. */
export const digestOf = (data: string | Uint8Array): string => sha256(data).slice(0, 32);

/** A stable key of any JSON-able values, in order: each part's text followed by a NUL. */
export function keyOf(...parts: unknown[]): string {
  let text = '';
  for (const part of parts) text += `${typeof part === 'string' ? part : JSON.stringify(part)}\0`;
  return sha256(text).slice(0, 32);
}

/**
 * The key of what a route holds besides its markdown text: everything about it, the text
 * (and its digest) left out. It depends on the graph's inputs but for the bodies' text only
 * (graph-key.ts), so a build whose graph inputs did not change takes it from the last one.
 */
export function routeDataKey(route: { markdown: { text: string; digest?: string } | null }): string {
  const { markdown } = route;
  if (!markdown) return keyOf(route);
  // Field by field rather than spread, so that a body not yet read (a getter) is not read for its key.
  const keyed: Record<string, unknown> = {};
  for (const field of Object.keys(markdown) as (keyof typeof markdown)[]) if (field !== 'text' && field !== 'digest') keyed[field] = markdown[field];
  return keyOf({ ...route, markdown: keyed });
}

/**
 * A route's key: what the page shows. Its data by routeDataKey (or that key as the caller
 * knows it), its markdown text by digest. The caller passes that digest (`digestOf(text)`)
 * so that a body is hashed once for both keys it is in.
 */
export function routeKeyOf<R extends { markdown: { text: string; digest?: string } | null }>(
  route: R,
  textDigest: string | null = route.markdown ? (route.markdown.digest ?? digestOf(route.markdown.text)) : null,
  dataKey: string = routeDataKey(route),
): string {
  return keyOf(dataKey, textDigest);
}
