// What a GET or HEAD for a file gets, given its conditional and range headers, in the order
// of RFC 9110 section 13.2.2: If-Match, If-Unmodified-Since (412), If-None-Match or else
// If-Modified-Since (304, judged by `fresh`), then Range (206 or 416, parsed by
// `range-parser`) unless If-Range names another version. The same rules as `send`.
import type { IncomingHttpHeaders } from 'node:http';
import fresh from 'fresh';
import parseRange from 'range-parser';

export interface Representation {
  /** Strong ETag. */
  etag: string;
  lastModified?: Date;
  size: number;
}

export type Verdict = { status: 200 } | { status: 206; start: number; end: number } | { status: 304 } | { status: 412 } | { status: 416 };

/** HTTP dates have whole seconds. */
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function parseDate(value: string | undefined): number | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : Math.floor(time / 1000);
}

/** Strong comparison: a weak tag never matches (If-Match, If-Range). */
function strongMatch(header: string, etag: string): boolean {
  return header.split(',').some((token) => {
    const tag = token.trim();
    return tag === '*' || (tag === etag && !tag.startsWith('W/'));
  });
}

function preconditionFailed(headers: IncomingHttpHeaders, rep: Representation): boolean {
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) return !strongMatch(ifMatch, rep.etag);
  const since = parseDate(headers['if-unmodified-since']);
  return since !== null && rep.lastModified !== undefined && seconds(rep.lastModified) > since;
}

/** If-Range: the client's partial copy is of this version (an ETag compared strongly, or exactly this date). */
function rangeStillValid(headers: IncomingHttpHeaders, rep: Representation): boolean {
  const ifRange = headers['if-range'];
  if (typeof ifRange !== 'string') return ifRange === undefined;
  if (ifRange.includes('"')) return ifRange.trim() === rep.etag;
  const date = parseDate(ifRange);
  return date !== null && rep.lastModified !== undefined && seconds(rep.lastModified) === date;
}

/**
 * What range-parser calls unsatisfiable, as RFC 9110 (section 14.1) has it: a spec whose last
 * byte is before its first makes the field invalid, so the whole file (200); a suffix longer
 * than the file is the whole file (206); anything else is past the end (416).
 */
function unsatisfiable(range: string, size: number): Verdict {
  const specs = /^\s*bytes\s*=(.*)$/i.exec(range)?.[1]!.split(',').map((s) => s.trim()) ?? [];
  const backwards = (spec: string) => {
    const [, first, last] = /^(\d+)-(\d+)$/.exec(spec) ?? [];
    return last !== undefined && Number(last) < Number(first);
  };
  if (specs.some(backwards)) return { status: 200 };
  if (size > 0 && specs.some((s) => /^-0*[1-9]\d*$/.test(s))) return { status: 206, start: 0, end: size - 1 };
  return { status: 416 };
}

export function evaluate(headers: IncomingHttpHeaders, rep: Representation): Verdict {
  if (preconditionFailed(headers, rep)) return { status: 412 };
  // fresh gives If-None-Match precedence over If-Modified-Since and honours a request's no-cache.
  if (fresh(headers, { etag: rep.etag, 'last-modified': rep.lastModified?.toUTCString() })) return { status: 304 };
  const range = headers.range;
  if (range === undefined || !rangeStillValid(headers, rep)) return { status: 200 };
  const ranges = parseRange(rep.size, range, { combine: true });
  if (ranges === -1) return unsatisfiable(range, rep.size);
  // Malformed, another unit, or several ranges (no multipart answers, like send): the whole file.
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return { status: 200 };
  const { start, end } = ranges[0]!;
  return { status: 206, start, end };
}
