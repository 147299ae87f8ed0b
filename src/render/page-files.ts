// A rendered page as the two files it is written to, serialised and hashed where it was
// rendered (in a worker, so the main thread only writes).
import { digestOf } from '../cache/digest.js';
import type { RenderedPage } from './index.js';

export interface PageFiles {
  path: string;
  html: string;
  /** The page record, as page-data.json holds it. */
  json: string;
  digests: [html: string, json: string];
}

export function pageFiles(page: RenderedPage): PageFiles {
  return { path: page.path, html: page.html, json: page.json, digests: [digestOf(page.html), digestOf(page.json)] };
}
