// Turns a request target into a safe site path, or the status that refuses it.
// Nothing that could reach outside the output folder gets through: `..` in any
// encoding, backslashes, NUL bytes, empty segments, dotfiles.

/** A refusal; `path`: the decoded site path when it is one, only not served (a dotfile), for the 404 page of its language. */
export type RequestPath = { ok: true; path: string; search: string } | { ok: false; status: 400 | 403 | 404; reason: string; path?: string };

/** `http://host:port` before the path of an absolute-form target, which a server must accept (RFC 9112 section 3.2.2). */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

export function parseRequestPath(rawUrl: string | undefined): RequestPath {
  const given = rawUrl ?? '/';
  const authority = ABSOLUTE_FORM.exec(given)?.[0];
  const rest = authority === undefined ? given : given.slice(authority.length);
  const raw = authority !== undefined && !rest.startsWith('/') ? `/${rest}` : rest;
  // Origin-form (`/path?query`), or absolute-form made so; `*` and anything else is refused.
  if (!raw.startsWith('/')) return { ok: false, status: 400, reason: 'request target must start with /' };
  const q = raw.indexOf('?');
  const rawPath = q === -1 ? raw : raw.slice(0, q);
  const search = q === -1 ? '' : raw.slice(q);
  if (/%00|\0/.test(rawPath)) return { ok: false, status: 400, reason: 'NUL byte in path' };
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { ok: false, status: 400, reason: 'malformed percent-encoding' };
  }
  if (path.includes('\\')) return { ok: false, status: 400, reason: 'backslash in path' };
  const segments = path.split('/').slice(1);
  for (const [i, segment] of segments.entries()) {
    if (segment === '..' || segment === '.') return { ok: false, status: 400, reason: 'dot segment in path' };
    if (segment === '' && i < segments.length - 1) return { ok: false, status: 400, reason: 'empty path segment' };
    if (segment.startsWith('.')) return { ok: false, status: 404, reason: 'dotfiles are never served', path };
    if (/[\u0000-\u001f\u007f]/.test(segment)) return { ok: false, status: 400, reason: 'control character in path' };
  }
  // A `/` inside a segment: no file is named so; decoded, it would give a page a second address.
  if (/%2f/i.test(rawPath)) return { ok: false, status: 404, reason: 'encoded slash in path', path };
  return { ok: true, path, search };
}

/**
 * A decoded site path as a `Location` header carries it: UTF-8 percent-encoded (a header is
 * Latin-1 at most, and browsers read raw bytes there as Latin-1), with `%`, `?` and `#`
 * encoded too, so that it names exactly this path again.
 */
export function locationPath(path: string): string {
  return encodeURI(path).replace(/[?#]/g, encodeURIComponent);
}
