// Cache keys: SHA-256 of their parts, shortened to 128 bits as file digests are (files/digest.ts).
import { digestOf, sha256 } from '../files/digest.js';

/** A body's digest: the one the build cache knows, or its text's (a body not read always has one). */
export function bodyDigestOf(markdown: { text: string | null; digest?: string }): string {
  if (markdown.digest !== undefined) return markdown.digest;
  if (markdown.text === null) throw new Error('a body that was not read has no digest');
  return digestOf(markdown.text);
}

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
export function routeDataKey(route: { markdown: { text: string | null; digest?: string; offset?: number } | null }): string {
  const { markdown } = route;
  if (!markdown) return keyOf(route);
  // What the build knows of the body (text, digest, where it starts in its file) is keyed by routeKeyOf.
  const { text: _text, digest: _digest, offset: _offset, ...keyed } = markdown;
  return keyOf({ ...route, markdown: keyed });
}

/**
 * A route's key: what the page shows. Its data by routeDataKey (or that key as the caller
 * knows it), its markdown text by digest. The caller passes that digest (`digestOf(text)`)
 * so that a body is hashed once for both keys it is in.
 */
export function routeKeyOf<R extends { markdown: { text: string | null; digest?: string; offset?: number } | null }>(
  route: R,
  textDigest: string | null = route.markdown ? bodyDigestOf(route.markdown) : null,
  dataKey: string = routeDataKey(route),
): string {
  return keyOf(dataKey, textDigest);
}
