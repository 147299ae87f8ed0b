// Bodies the build cache did not read. A warm build knows most entries by their file's size and
// time and reads no body (MarkdownSource.text is null, its digest known); the pages it renders,
// the search documents it analyses and `check` need the text, and get it here, from the file,
// checked against the digest the cache recorded.
import { readEntryBody } from './content/load.js';
import type { MarkdownSource, Route } from './graph/model.js';
import { digestOf } from '../files/digest.js';
import { diagnostic, DiagnosticsError } from '../errors/diagnostic.js';

/** A route whose body, if it has one, is read. */
export type RouteWithText = Route & { markdown: (MarkdownSource & { text: string }) | null };

/** `route` with its body's text, read from its file when the build cache did not read it. */
export function withText(root: string, route: Route): RouteWithText {
  const { markdown } = route;
  if (!markdown || markdown.text !== null) return route as RouteWithText;
  const text = readEntryBody(root, markdown.file, markdown.offset ?? 0);
  if (digestOf(text) !== markdown.digest) {
    const message = 'this file changed while the build was running (its body is no longer what the build read a moment ago)';
    throw new DiagnosticsError([diagnostic('content/changed-during-build', { file: markdown.file, message })], 'render');
  }
  return { ...route, markdown: { ...markdown, text } };
}
