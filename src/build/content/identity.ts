// One content tree, two identities (site.config.ts `identities`): `{{token}}` in bodies,
// front matter and UI strings becomes the built identity's value, and a body block between
// `{{#only <identity...>}}` and `{{/only}}` lines is kept only in those identities' builds.
// Replacement is plain text before markdown is parsed: a body's result is sanitised like
// any body, so a token cannot add what the body could not have held.
import { createHash } from 'node:crypto';
import type { ResolvedConfig } from '../config/resolve.js';
import { byText } from '../../shared/order.js';

/** A token's value: one text, or one per locale (`{ en: ..., fr: ... }`). */
export type TokenValue = string | Readonly<Record<string, string>>;

export interface IdentityText {
  /** The identity being built. */
  key: string;
  /** Every configured identity, for `{{#only ...}}` names. */
  keys: readonly string[];
  /** Token name -> value, the built-in `site`, `name` and `siteUrl` included. */
  tokens: Readonly<Record<string, TokenValue>>;
  defaultLocale: string;
  /** Changes whenever any replacement could: mixed into body digests, so caches tell the identities apart. */
  signature: string;
}

export interface TextProblem {
  /** 1-based line within the text (0 in data, where `field` says where). */
  line: number;
  /** In data (front matter, a locale file): the top-level key whose value holds the problem. */
  field?: string;
  message: string;
  hint?: string;
}

const TOKEN = /\{\{\s*([A-Za-z][A-Za-z0-9_-]*)\s*\}\}/g;
const OPEN = /^\s*\{\{#only\s+([^}]*)\}\}\s*$/;
const CLOSE = /^\s*\{\{\/only\s*\}\}\s*$/;
/** Every form this module reads starts with `{{`: most texts are left at once. */
const MAY_HOLD = '{{';

export interface IdentityTextConfig extends Pick<ResolvedConfig, 'identityKey' | 'identityKeys' | 'defaultLocale'> {
  identity: Pick<ResolvedConfig['identity'], 'site' | 'name' | 'siteUrl' | 'tokens'>;
}

export function identityTextOf(config: IdentityTextConfig): IdentityText {
  const { site, name, siteUrl, tokens } = config.identity;
  const all: Record<string, TokenValue> = { ...tokens, site, name, siteUrl };
  const signature = createHash('sha256')
    .update(JSON.stringify([config.identityKey, config.identityKeys, Object.entries(all).sort(([a], [b]) => byText(a, b)), config.defaultLocale]))
    .digest('hex')
    .slice(0, 16);
  return { key: config.identityKey, keys: config.identityKeys, tokens: all, defaultLocale: config.defaultLocale, signature };
}

function valueOf(ctx: IdentityText, name: string, locale: string): string | undefined {
  const value = ctx.tokens[name];
  if (value === undefined || typeof value === 'string') return value;
  return value[locale] ?? value[ctx.defaultLocale];
}

const known = (ctx: IdentityText) => Object.keys(ctx.tokens).sort().join(', ');

/** One line's tokens replaced; an unknown name is a problem (a typo must not reach a visitor). */
function fillLine(text: string, ctx: IdentityText, locale: string, line: number, problems: TextProblem[]): string {
  return text.replace(TOKEN, (whole, name: string) => {
    const value = valueOf(ctx, name, locale);
    if (value !== undefined) return value;
    problems.push({
      line,
      message: `unknown identity token "{{${name}}}"`,
      hint: `tokens come from site.config.ts identities.${ctx.key}.tokens; known: ${known(ctx)}`,
    });
    return whole;
  });
}

/**
 * The text for the built identity. Lines are kept where they were (a dropped block and its
 * marker lines become empty lines), so a later message's line still points into the file.
 */
export function fillText(text: string, ctx: IdentityText, locale: string): { text: string; problems: TextProblem[] } {
  const problems: TextProblem[] = [];
  if (!text.includes(MAY_HOLD)) return { text, problems };
  const lines = text.split('\n');
  let open: { line: number; keep: boolean } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.includes(MAY_HOLD)) {
      if (open && !open.keep) lines[i] = '';
      continue;
    }
    const opening = OPEN.exec(line);
    if (opening) {
      if (open) problems.push({ line: i + 1, message: `"{{#only}}" inside another one (opened on line ${open.line}): blocks do not nest`, hint: 'close the first block with a {{/only}} line before opening the next' });
      const names = opening[1]!.trim().split(/[\s,]+/).filter(Boolean);
      const unknown = names.filter((n) => !ctx.keys.includes(n));
      if (names.length === 0 || unknown.length > 0) {
        problems.push({ line: i + 1, message: `"{{#only}}" names ${names.length === 0 ? 'no identity' : `an unknown identity: ${unknown.join(', ')}`}`, hint: `name one or more of: ${ctx.keys.join(', ')}` });
      }
      open = { line: i + 1, keep: names.includes(ctx.key) };
      lines[i] = '';
      continue;
    }
    if (CLOSE.test(line)) {
      if (!open) problems.push({ line: i + 1, message: '"{{/only}}" without a "{{#only ...}}" line before it' });
      open = null;
      lines[i] = '';
      continue;
    }
    lines[i] = open && !open.keep ? '' : fillLine(line, ctx, locale, i + 1, problems);
  }
  if (open) problems.push({ line: open.line, message: '"{{#only ...}}" is never closed', hint: 'end the block with a line that holds only {{/only}}' });
  return { text: lines.join('\n'), problems };
}

/** Whether any string in parsed data may hold a token. */
const mayHoldToken = (value: unknown): boolean =>
  typeof value === 'string' ? value.includes(MAY_HOLD) : typeof value === 'object' && value !== null && Object.values(value).some(mayHoldToken);

/**
 * Front matter (or any parsed data) with tokens replaced in every string; the input is not
 * changed. Data without a token is returned as it is: most entries have none, and a copy of
 * every recalled front matter is work and garbage on every build.
 */
export function fillData<T>(data: T, ctx: IdentityText, locale: string, problems: TextProblem[] = []): T {
  if (!mayHoldToken(data)) return data;
  const walk = (value: unknown, field?: string): unknown => {
    if (typeof value === 'string') {
      if (!value.includes(MAY_HOLD)) return value;
      const before = problems.length;
      const filled = fillLine(value, ctx, locale, 0, problems);
      for (const problem of problems.slice(before)) if (field !== undefined) problem.field = field;
      return filled;
    }
    if (Array.isArray(value)) return value.map((item) => walk(item, field));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, field ?? k)]));
    return value;
  };
  return walk(data) as T;
}

/**
 * A body digest for the identity's text: the raw body's digest and the identity's signature,
 * side by side. Only keys are made from it, and they hash it again; hashing here cost a
 * createHash per entry (8000 at 4000 articles per language) on every warm build.
 */
export const identityDigest = (rawDigest: string, ctx: IdentityText) => `${rawDigest}.${ctx.signature}`;

/** `en.larkspur.md` is larkspur's variant of `en.md`: the file name's parts. */
export function variantOf(fileStem: string): { locale: string; variant?: string } {
  const dot = fileStem.indexOf('.');
  return dot === -1 ? { locale: fileStem } : { locale: fileStem.slice(0, dot), variant: fileStem.slice(dot + 1) };
}

/**
 * `report.larkspur.pdf` next to `report.pdf` is larkspur's own copy of that file, as
 * `en.larkspur.md` is of `en.md`: larkspur's build publishes it under the plain name
 * (`report.pdf`), the other identities never publish it. Only a configured identity's key
 * makes a variant; `chart.v2.png` is a file of its own.
 */
export function identityAssets<A extends { dir: string; name: string }>(assets: readonly A[], built: string, identities: readonly string[]): A[] {
  const variants = new Map<string, A>();
  const plain: A[] = [];
  for (const asset of assets) {
    const parts = /^(.+)\.([^.]+)(\.[^.]+)$/.exec(asset.name);
    if (!parts || !identities.includes(parts[2]!)) plain.push(asset);
    else if (parts[2] === built) variants.set(`${asset.dir}/${parts[1]}${parts[3]}`, { ...asset, name: `${parts[1]}${parts[3]}` });
  }
  const out = plain.map((asset) => variants.get(`${asset.dir}/${asset.name}`) ?? asset);
  const published = new Set(out.map((asset) => `${asset.dir}/${asset.name}`));
  return [...out, ...[...variants].filter(([key]) => !published.has(key)).map(([, asset]) => asset)];
}
