// Bodies the build cache did not read. A warm build knows most entries by their file's size and
// time and reads no body (MarkdownSource.text is null, its digest known); the pages it renders,
// the search documents it analyses and `check` need the text, and get it here: read from the
// file, checked against the digest the cache recorded, the identity's tokens filled in as the
// load stage fills them (content/identity.ts).
import type { ResolvedConfig } from './config/resolve.js';
import { readEntryBody } from './content/load.js';
import { fillText, identityDigest, identityTextOf } from './content/identity.js';
import type { MarkdownSource, Route } from './graph/model.js';
import { digestOf } from '../files/digest.js';
import { goneAsNull } from '../files/gone.js';
import { diagnostic, DiagnosticsError } from '../errors/diagnostic.js';

/** An entry's body as readEntryBody reads it; null when the file is gone (removed since the build looked). */
function readBody(root: string, file: string, offset: number): string | null {
  try {
    return readEntryBody(root, file, offset);
  } catch (error) {
    return goneAsNull(error);
  }
}

/** A route whose body, if it has one, is read. */
export type RouteWithText = Route & { markdown: (MarkdownSource & { text: string }) | null };

/** For the site of `config`: a route with its body's text, read from its file when the build cache did not read it. */
export function textReader(config: ResolvedConfig): (route: Route) => RouteWithText {
  const identity = identityTextOf(config);
  return (route) => {
    const { markdown } = route;
    if (!markdown || markdown.text !== null) return route as RouteWithText;
    const raw = readBody(config.root, markdown.file, markdown.offset ?? 0);
    if (raw === null || identityDigest(digestOf(raw), identity) !== markdown.digest) {
      const what = raw === null ? 'it is gone' : 'its body is no longer what the build read a moment ago';
      const message = `this file changed while the build was running (${what})`;
      throw new DiagnosticsError([diagnostic('content/changed-during-build', { file: markdown.file, message })], 'render');
    }
    const filled = fillText(raw, identity, markdown.locale);
    const problem = filled.problems[0];
    if (problem) {
      const line = markdown.line + problem.line - 1;
      throw new DiagnosticsError([diagnostic('content/identity-text', { file: markdown.file, line, message: problem.message, hint: problem.hint })], 'render');
    }
    return { ...route, markdown: { ...markdown, text: filled.text } };
  };
}

/** `withText` reading each route's body once: a check's findings may point into one body many times. */
export function readingOnce(withText: (route: Route) => RouteWithText): (route: Route) => RouteWithText {
  const read = new Map<Route, RouteWithText>();
  return (route) => {
    let found = read.get(route);
    if (!found) read.set(route, (found = withText(route)));
    return found;
  };
}
