// Content types for every kind of file the build writes; mrmime for anything else.
import { lookup } from 'mrmime';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  woff2: 'font/woff2',
  woff: 'font/woff',
  map: 'application/json; charset=utf-8',
};

export function contentTypeFor(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (path === '/_redirects') return 'text/plain; charset=utf-8';
  return TYPES[ext] ?? lookup(ext) ?? 'application/octet-stream';
}

/** Hashed assets never change; pages, page data and the worker must always revalidate. */
export function cacheControlFor(path: string): string {
  // Content-hashed names: esbuild's base32 (`runtime.UXIH22LX.js`) and our hex (`styles.390ccf7bad.css`).
  if (/^\/static\/.+\.[A-Za-z0-9]{8,}\.[a-z0-9]+$/.test(path)) return 'public, max-age=31536000, immutable';
  // The search index's shards and documents (`/search-index/en/t-di.0a1b2c3d4e.json`); its base names them.
  if (/^\/search-index\/[^/]+\/[^/]+\.[0-9a-f]{10}\.json$/.test(path)) return 'public, max-age=31536000, immutable';
  if (/\.(html|json|webmanifest|xml|txt)$/.test(path) || path === '/sw.js' || path.startsWith('/page-data/')) return 'no-cache';
  return 'public, max-age=3600';
}
