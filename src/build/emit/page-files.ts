// A rendered page as the two files it is written to, hashed where it was rendered: in a
// render worker, which also writes them itself where the sink lets it (the sink's directPath),
// with their .br and .gz copies when the sink asks for them there.
import { writeFileSync } from 'node:fs';
import { digestOf } from '../../files/digest.js';
import type { RenderedPage } from '../render/index.js';
import { encodedCopiesSync, type CopyDigests } from './compression.js';
import type { DirectTarget } from './sink.js';

/** Where a renderer writes a page's HTML and page data itself (the sink's `directPath`); null: it sends the text back. */
export type PageTargets = readonly [html: DirectTarget | null, json: DirectTarget | null];

export interface PageFiles {
  path: string;
  /** Empty when `written` says the renderer wrote it itself. */
  html: string;
  /** The page record, as page-data.json holds it (empty when written). */
  json: string;
  digests: [html: string, json: string];
  /** Files the renderer wrote at the sink's `directPath` (writePage adopts them). */
  written?: [html: boolean, json: boolean];
  /** Per file, the copies the renderer wrote next to it (when its target asked for them). */
  copies?: [html: CopyDigests | undefined, json: CopyDigests | undefined];
}

/**
 * The page's files, each written here when a target is given (the sink's `directPath`, whose
 * folder the sink has made): a render worker writes its pages itself instead of handing the
 * main thread each page's strings to copy, encode, write, read back and compress.
 * Each text is encoded once, for its digest, its file and its copies.
 */
export function pageFiles(page: RenderedPage, targets: PageTargets = [null, null]): PageFiles {
  const texts = [page.html, page.json];
  const digests: [string, string] = ['', ''];
  const written: [boolean, boolean] = [false, false];
  const copies: [CopyDigests | undefined, CopyDigests | undefined] = [undefined, undefined];
  texts.forEach((text, i) => {
    const target = targets[i];
    if (!target) {
      digests[i] = digestOf(text);
      return;
    }
    const bytes = Buffer.from(text);
    digests[i] = digestOf(bytes);
    writeFileSync(target.file, bytes);
    written[i] = true;
    if (target.copies) copies[i] = writeCopies(bytes, target.copies);
  });
  return { path: page.path, html: written[0] ? '' : page.html, json: written[1] ? '' : page.json, digests, written, copies };
}

function writeCopies(bytes: Uint8Array, files: readonly string[]): CopyDigests {
  return encodedCopiesSync(bytes).map((copy, i) => {
    if (!copy) return null;
    writeFileSync(files[i]!, copy);
    return digestOf(copy);
  });
}
