// A rendered page as the two files it is written to, hashed where it was rendered: in a
// render worker, which also writes them itself where the sink lets it (the sink's directPath).
import { writeFileSync } from 'node:fs';
import { digestOf } from '../../files/digest.js';
import type { RenderedPage } from '../render/index.js';

export interface PageFiles {
  path: string;
  /** Empty when `written` says the renderer wrote it itself. */
  html: string;
  /** The page record, as page-data.json holds it (empty when written). */
  json: string;
  digests: [html: string, json: string];
  /** Files the renderer wrote at the sink's `directPath` (writePage adopts them). */
  written?: [html: boolean, json: boolean];
}

/**
 * The page's files, each written here at its absolute path when one is given (the sink's
 * `directPath`, whose folder the sink has made): a render worker writes its pages itself
 * instead of handing the main thread 25 KB of strings per page to copy, encode and write.
 * Each text is encoded once, for its digest and its file.
 */
export function pageFiles(page: RenderedPage, paths: readonly [html: string | null, json: string | null] = [null, null]): PageFiles {
  const texts = [page.html, page.json];
  const digests: [string, string] = ['', ''];
  const written: [boolean, boolean] = [false, false];
  texts.forEach((text, i) => {
    const file = paths[i];
    if (!file) {
      digests[i] = digestOf(text);
      return;
    }
    const bytes = Buffer.from(text);
    digests[i] = digestOf(bytes);
    writeFileSync(file, bytes);
    written[i] = true;
  });
  return { path: page.path, html: written[0] ? '' : page.html, json: written[1] ? '' : page.json, digests, written };
}
