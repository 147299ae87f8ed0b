// Content types by mrmime, but for the few a host should give otherwise, and UTF-8 for text:
// every text file the build writes is UTF-8.
import { lookup } from 'mrmime';
import { WORKER_PATH } from '../../shared/offline.js';

/** Favicons (mrmime has no `.ico`), source maps, and XML as sitemaps are served. */
const OWN: Record<string, string> = { ico: 'image/x-icon', map: 'application/json', xml: 'application/xml' };
const TEXT = /^(?:text\/|application\/(?:json|manifest\+json|xml)$)/;

export function contentTypeFor(path: string): string {
  if (path === '/_redirects') return 'text/plain; charset=utf-8';
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  const type = OWN[ext] ?? lookup(ext) ?? 'application/octet-stream';
  return TEXT.test(type) ? `${type}; charset=utf-8` : type;
}

/** Hashed assets never change; pages, page data and the worker must always revalidate. */
export function cacheControlFor(path: string): string {
  // Content-hashed names: esbuild's base32 (`runtime.UXIH22LX.js`) and our hex (`styles.390ccf7bad.css`).
  if (/^\/static\/.+\.[A-Za-z0-9]{8,}\.[a-z0-9]+$/.test(path)) return 'public, max-age=31536000, immutable';
  // The search index's shards and documents (`/search-index/en/t-di.0a1b2c3d4e.json`); its base names them.
  if (/^\/search-index\/[^/]+\/[^/]+\.[0-9a-f]{10}\.json$/.test(path)) return 'public, max-age=31536000, immutable';
  if (/\.(html|json|webmanifest|xml|txt)$/.test(path) || path === WORKER_PATH || path.startsWith('/page-data/')) return 'no-cache';
  return 'public, max-age=3600';
}
