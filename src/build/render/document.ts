// The HTML document around a rendered template: the head (from the shared headFor, so
// the runtime can re-apply it after a navigation) and the body containers the browser
// runtime uses.
import { ANNOUNCER_ID, CHUNKS_SCRIPT_ID, PAGE_DATA_SCRIPT_ID, ROOT_ID, STATIC_QUERIES_SCRIPT_ID } from '../../shared/dom-ids.js';
import { headFor, structuredDataFor } from '../../shared/head.js';
import type { StaticQueryResult } from '../../shared/props.js';
import type { PageRecord, SiteMetadata } from '../../shared/types.js';
import { contentSecurityPolicy } from './csp.js';
import { escapeHtml, jsonForScript, scriptSafe } from '../../shared/escape.js';
import { NOT_FOUND_REDIRECT_SCRIPT } from './not-found-redirect.js';

/** The browser runtime as the build bundled it. */
export interface ClientAssets {
  /** Site path of the runtime entry module. */
  runtime: string;
  /** Modules the runtime imports statically (React, shared code): preloaded on every page. */
  runtimeImports: string[];
  /** Per template chunk name: the module files to preload (its chunk and what it imports). */
  preload: Record<string, string[]>;
  /** componentChunkName -> URL of the template's module: the map every page carries. */
  chunks: Record<string, string>;
}

export interface DocumentAssets {
  /** Site path of the stylesheet (content-hashed), or null when the templates ship none. */
  stylesheet: string | null;
  /** Null when no runtime is bundled (tests of the render stage alone). */
  client: ClientAssets | null;
  /** Hash of this build's client code; the runtime compares it with app-data.json. */
  buildHash: string;
}

export interface DocumentInput {
  record: PageRecord;
  /** The record as page-data.json holds it (serialised once for both files). */
  recordJson?: string;
  queries: StaticQueryResult[];
  /** The static queries serialised (the same for every page of a language: serialised once). */
  queriesJson?: string;
  site: SiteMetadata;
  /** The rendered `#gatsby-focus-wrapper` element, template inside. */
  appHtml: string;
  assets: DocumentAssets;
}

/** Head elements the runtime replaces on navigation carry this attribute. */
export const MANAGED_HEAD_ATTRIBUTE = 'data-ir-head';

/**
 * Marks an image box loaded when its image fires load (or error), so the placeholder fades
 * out. Inline and in the head: it sees images that load before the runtime does, and the
 * ones client navigations add later (load events do not bubble, so it listens in capture).
 */
export const IMAGE_LOADED_SCRIPT =
  "(function(){function m(e){var t=e.target;if(t&&t.classList&&t.classList.contains('ir-image__main')){var b=t.closest('.ir-image');if(b)b.setAttribute('data-loaded','')}}document.addEventListener('load',m,true);document.addEventListener('error',m,true)})();";

/** Every inline script a page may carry: the Content-Security-Policy allows exactly these, by hash. */
export const INLINE_SCRIPTS: readonly string[] = [IMAGE_LOADED_SCRIPT, NOT_FOUND_REDIRECT_SCRIPT];

/** The policy is the same for every page of a site: made once per site object. */
const policies = new WeakMap<SiteMetadata, string>();

function policyFor(site: SiteMetadata): string {
  let policy = policies.get(site);
  if (policy === undefined) policies.set(site, (policy = contentSecurityPolicy({ integrations: site.integrations, inlineScripts: INLINE_SCRIPTS, delivery: 'meta' })));
  return policy;
}

const VISUALLY_HIDDEN =
  'position:absolute;top:0;width:1px;height:1px;padding:0;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0';

const attributes = (attrs: Record<string, string>) =>
  Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
    .join('');

/** The chunk map is the same on every page: serialised once per bundle. */
const chunksJson = new WeakMap<Record<string, string>, string>();

function chunksScript(chunks: Record<string, string>): string {
  let json = chunksJson.get(chunks);
  if (json === undefined) chunksJson.set(chunks, (json = jsonForScript(chunks)));
  return json;
}

export function renderDocument({ record, recordJson, queries, queriesJson, site, appHtml, assets }: DocumentInput): string {
  const head = headFor(record, site);
  const lines: string[] = [
    '<meta charset="utf-8">',
    // First after the charset: it governs only what comes after it.
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policyFor(site))}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(head.title)}</title>`,
  ];
  if (record.result.data.template === 'not-found') lines.push(`<script>${NOT_FOUND_REDIRECT_SCRIPT}</script>`);
  lines.push(`<script>${IMAGE_LOADED_SCRIPT}</script>`);
  for (const { tag, attrs } of head.tags) lines.push(`<${tag}${attributes({ ...attrs, [MANAGED_HEAD_ATTRIBUTE]: '' })}>`);
  // Data, never run (so the Content-Security-Policy needs no hash for it), escaped so that no
  // title can close the element. Managed: a client navigation puts the new page's in its place
  // (client/head.ts).
  const structured = structuredDataFor(record, site);
  if (structured) lines.push(`<script type="application/ld+json" ${MANAGED_HEAD_ATTRIBUTE}="">${jsonForScript(structured)}</script>`);
  lines.push(
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<link rel="icon" href="/favicon.ico" sizes="32x32">',
    '<link rel="apple-touch-icon" href="/apple-touch-icon.png">',
    '<meta name="theme-color" content="#0b3d5c">',
  );
  if (assets.stylesheet) lines.push(`<link rel="stylesheet" href="${escapeHtml(assets.stylesheet)}">`);
  const client = assets.client;
  if (client) {
    for (const href of [client.runtime, ...client.runtimeImports, ...(client.preload[record.componentChunkName] ?? [])]) {
      lines.push(`<link rel="modulepreload" href="${escapeHtml(href)}">`);
    }
  }

  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeHtml(head.lang)}">`,
    `<head>${lines.join('')}</head>`,
    '<body>',
    `<div id="${ROOT_ID}" data-component-chunk="${escapeHtml(record.componentChunkName)}" data-build="${escapeHtml(assets.buildHash)}">${appHtml}</div>`,
    `<div id="${ANNOUNCER_ID}" aria-live="assertive" aria-atomic="true" style="${VISUALLY_HIDDEN}"></div>`,
    `<script type="application/json" id="${PAGE_DATA_SCRIPT_ID}">${recordJson === undefined ? jsonForScript(record) : scriptSafe(recordJson)}</script>`,
    `<script type="application/json" id="${STATIC_QUERIES_SCRIPT_ID}">${queriesJson === undefined ? jsonForScript(queries) : scriptSafe(queriesJson)}</script>`,
    client ? `<script type="application/json" id="${CHUNKS_SCRIPT_ID}">${chunksScript(client.chunks)}</script>` : '',
    client ? `<script type="module" src="${escapeHtml(client.runtime)}"></script>` : '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
