// Content digests and cache keys: SHA-256, shortened to 128 bits (plenty for telling files apart).
import { createHash } from 'node:crypto';

/** Digest of a file's bytes. */
export const digestOf = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex').slice(0, 32);

/** A stable key of any JSON-able values, in order. */
export function keyOf(...parts: unknown[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(typeof part === 'string' ? part : JSON.stringify(part)).update('\0');
  return hash.digest('hex').slice(0, 32);
}

/**
 * A route's key: what the page shows. Its markdown text counts by digest, and the caller
 * passes that digest (`digestOf(text)`) so that a body is hashed once for both keys it is in.
 */
export function routeKeyOf<R extends { markdown: { text: string; digest?: string } | null }>(
  route: R,
  textDigest: string | null = route.markdown ? (route.markdown.digest ?? digestOf(route.markdown.text)) : null,
): string {
  const { markdown } = route;
  if (!markdown) return keyOf(route);
  // Field by field rather than spread, so that a body not yet read (a getter) is not read for its key.
  const keyed: Record<string, unknown> = {};
  for (const field of Object.keys(markdown) as (keyof typeof markdown)[]) keyed[field] = field === 'text' ? textDigest : markdown[field];
  return keyOf({ ...route, markdown: keyed });
}
