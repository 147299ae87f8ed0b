// What a path an editor writes (a page's `path`, a redirect's `from`) may look like. A path is
// also a file name in the output folder and an address on every host: a `..` part would leave
// the folder, `//` reads as another host, `\` and `%` mean different things to different servers.

/** The identity tokens a page path may hold (build/graph/route-context.ts fillTokens). */
export const PATH_TOKENS = ['{site}', '{name}'] as const;

/** The longest part of a page's path, in UTF-8 bytes: room for `.br`/`.gz` names under the file systems' 255. */
export const MAX_PART_BYTES = 200;
const bytesOf = (text: string) => new TextEncoder().encode(text).length;

/**
 * Why `p`, a path that starts with "/", is not one a site can redirect from or, with `page`,
 * publish a page at (the page's files are named after it, so no %-codes, and its tokens are
 * known ones), or null.
 */
export function pathPartsProblem(p: string, options: { page?: boolean } = {}): string | null {
  if (p.includes('\\')) return 'a "\\" is not a path separator: use "/"';
  if (options.page && /[\s?#\u0000-\u001f\u007f-\u009f]/.test(p)) return 'no spaces, control characters, "?" or "#"';
  if (options.page && p.includes('%')) return 'write the characters themselves, not %-codes ("%" is not allowed)';
  const parts = p.split('/').slice(1);
  if (parts.at(-1) === '') parts.pop(); // the trailing slash
  if (parts.some((part) => part === '')) return '"//" leaves an empty part: a browser reads "//" as the start of another site\'s address';
  if (parts.some((part) => part === '.' || part === '..')) return 'a "." or ".." part would point outside the page\'s own place';
  if (options.page) {
    const long = parts.find((part) => bytesOf(part) > MAX_PART_BYTES);
    if (long) return `the part "${long.slice(0, 24)}…" is ${bytesOf(long)} bytes long, over ${MAX_PART_BYTES}: it names a folder of the output, and file systems allow 255`;
    const unknown = p.replaceAll(PATH_TOKENS[0], '').replaceAll(PATH_TOKENS[1], '').match(/\{[^}]*\}?|\}/);
    if (unknown) return `unknown token ${unknown[0]}: a path may hold ${PATH_TOKENS.join(' and ')}, filled from the site identity`;
  }
  return null;
}
