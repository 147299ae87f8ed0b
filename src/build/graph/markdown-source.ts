// A route's markdown is where its body is (file, line, locale, resolved images) joined with
// the body itself. The graph stage joins them (route-context.ts), and so does whatever takes
// a graph made from the same front matter and gives it newer bodies: the build's graph
// snapshot and dev's body edits (incremental/keys.ts, graphKey).
import type { MarkdownSource } from './model.js';

/** A route's markdown without its body. */
export type MarkdownPlace = Omit<MarkdownSource, 'text' | 'digest' | 'offset'>;

/** The body as the loader gives it (RawEntry): null text when the build cache did not read it. */
export interface EntryBody {
  body: string | null;
  bodyDigest: string;
  bodyOffset?: number;
}

/** `markdown` without its body, whose text is not even read (the snapshot stores no body). */
export function markdownPlace(markdown: MarkdownSource): MarkdownPlace {
  const place: Record<string, unknown> = {};
  for (const field of Object.keys(markdown)) if (field !== 'text' && field !== 'digest' && field !== 'offset') place[field] = markdown[field as keyof MarkdownSource];
  return place as MarkdownPlace;
}

/** The markdown at `place` with `entry`'s body: its text, its digest and, when it was not read, where it starts in the file. */
export function withBody(place: MarkdownPlace, entry: EntryBody): MarkdownSource {
  return { text: entry.body, ...place, digest: entry.bodyDigest, ...(entry.body === null ? { offset: entry.bodyOffset } : {}) };
}
