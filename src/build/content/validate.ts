// Stage 2: judge every loaded file against its schema. Pure: raw data in, typed
// entries and ALL diagnostics out, each naming file, line and field.
import path from 'node:path';
import * as z from 'zod';
import type { ResolvedConfig } from '../config/resolve.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import { fieldRule } from '../../errors/rules.js';
import type { ArticleEntry, BioEntry, Entry, EntryBase, PageEntry, PortfolioEntry, ValidSite, WrittenRedirect } from './entries.js';
import type { RawEntry, RawSite, RawYaml } from './raw.js';
import { unknownFields, unknownLocales } from './unknown-fields.js';
import {
  articleSchema,
  bioSchema,
  navigationSchema,
  pageSchema,
  portfolioSchema,
  redirectsSchema,
  stringsSchema,
  websiteSchema,
  withoutEmptyFields,
} from './schemas.js';
import { fieldLine, fieldName, pathLine } from './field-line.js';
import { byText } from '../../shared/order.js';

export interface ValidateResult {
  site: ValidSite;
  diagnostics: Diagnostic[];
}

/** What YAML made of a value, as an editor would say it. */
function yamlKind(input: unknown): string {
  if (Array.isArray(input)) return 'a list';
  if (input === null) return 'nothing (an empty value)';
  if (typeof input === 'object') return 'a mapping of fields';
  return typeof input === 'string' ? `the text "${input}"` : `the ${typeof input} ${String(input)}`;
}

function issueMessage(issue: z.core.$ZodIssue, field: string, input: unknown, language = 'YAML'): string {
  // `title:` with nothing after it: YAML reads null. An optional field left so is no field (withoutEmptyFields).
  if (input === null && issue.path.length === 1) return `"${field}" has no value`;
  if (input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) return `missing required field "${field}"`;
  if (issue.code === 'invalid_type') {
    // YAML reads 2025, true or 1.5 as a number or a boolean: the editor meant text.
    if (issue.expected === 'string' && (typeof input === 'number' || typeof input === 'boolean')) {
      return `${issue.message}: ${language} read ${String(input)} as a ${typeof input}; put the value in quotes, as written`;
    }
    // zod's own words ("Invalid input: expected record, received string") say it in its terms.
    if (issue.message.startsWith('Invalid input')) {
      const wanted = issue.expected === 'array' ? 'a list (- item lines, or [a, b])' : issue.expected === 'record' || issue.expected === 'object' ? 'a mapping of fields (name: value lines)' : issue.expected;
      return `expected ${wanted}, found ${yamlKind(input)}`;
    }
  }
  if (issue.code === 'invalid_value' && 'values' in issue) {
    return `"${String(input)}" is not a valid ${field}; expected one of: ${issue.values.map(String).join(', ')}`;
  }
  return issue.message;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = data;
  for (const part of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[part] : undefined;
  return v;
}

/**
 * Turns a schema failure into diagnostics that point at the field's line. Each field has its rule,
 * `content/invalid-<field>` (src/errors/rules.ts); a UI strings file's keys are not fields.
 */
function schemaDiagnostics(
  error: z.ZodError,
  where: { file: string; fieldLines: Record<string, number>; defaultLine?: number; data: unknown; strings?: boolean },
): Diagnostic[] {
  return error.issues.map((issue) => {
    const field = fieldName(issue.path);
    const top = String(issue.path[0] ?? '');
    const found = {
      file: where.file,
      line: pathLine(where.fieldLines, issue.path) ?? where.defaultLine,
      field: field || undefined,
      message: issueMessage(issue, field, valueAt(where.data, issue.path), where.strings ? 'JSON' : 'YAML'),
    };
    if (typeof issue.path[0] === 'number') return diagnostic('content/invalid-item', found);
    if (where.strings && top !== '') return diagnostic('locales/invalid-string', found);
    return diagnostic(fieldRule(top), found);
  });
}

function parseEntry<S extends z.ZodObject>(schema: S, raw: RawEntry, out: Diagnostic[]): z.output<S> | null {
  out.push(...unknownFields(raw.data, Object.keys(schema.shape), raw));
  const result = schema.safeParse(withoutEmptyFields(raw.data));
  if (result.success) return result.data;
  out.push(...schemaDiagnostics(result.error, { file: raw.file, fieldLines: raw.fieldLines, defaultLine: 1, data: raw.data }));
  return null;
}

/** Keys of a YAML file, or of a list file's items, that its schema does not know: likely typos (`footers:`), ignored otherwise. */
function unknownKeys(schema: z.ZodType, raw: RawYaml): Diagnostic[] {
  const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (schema instanceof z.ZodObject && isMapping(raw.data)) return unknownFields(raw.data, Object.keys(schema.shape), raw);
  const list = schema instanceof z.ZodNullable ? schema.unwrap() : schema;
  if (!(list instanceof z.ZodArray) || !(list.element instanceof z.ZodObject) || !Array.isArray(raw.data)) return [];
  const known = Object.keys(list.element.shape);
  return raw.data.flatMap((item, i) =>
    isMapping(item) ? unknownFields(item, known, { file: raw.file, fieldLines: raw.fieldLines, at: [i] }) : [],
  );
}

function parseYamlFile<S extends z.ZodType>(schema: S, raw: RawYaml, out: Diagnostic[]): z.output<S> | null {
  out.push(...unknownKeys(schema, raw));
  const result = schema.safeParse(raw.data);
  if (result.success) return result.data;
  out.push(...schemaDiagnostics(result.error, { file: raw.file, fieldLines: raw.fieldLines, data: raw.data }));
  return null;
}

/** What one entry file came to; entries are pure functions of their raw file, so dev caches them. */
export interface JudgedEntry {
  entry: Entry | null;
  diagnostics: Diagnostic[];
}

export type ValidationCache = WeakMap<RawEntry, JudgedEntry>;

function validateEntry(entry: RawEntry, locales: ReadonlySet<string>): JudgedEntry {
  const diagnostics: Diagnostic[] = [];
  if (!locales.has(entry.locale)) {
    diagnostics.push(
      diagnostic('content/unknown-locale', {
        file: entry.file,
        message: `"${entry.locale}" is not a configured locale`,
        hint: `name the file after a locale of site.config.ts: ${[...locales].map((l) => `${l}.md`).join(' or ')}`,
      }),
    );
    return { entry: null, diagnostics };
  }
  if (entry.collection === 'pages') {
    const fm = parseEntry(pageSchema, entry, diagnostics);
    return { entry: fm ? typedEntry(entry, { collection: 'pages', fm }) : null, diagnostics };
  }
  if (entry.collection === 'articles') {
    const fm = parseEntry(articleSchema, entry, diagnostics);
    return { entry: fm ? typedEntry(entry, { collection: 'articles', fm }) : null, diagnostics };
  }
  const fm = parseEntry(bioSchema, entry, diagnostics);
  return { entry: fm ? typedEntry(entry, { collection: 'team', fm }) : null, diagnostics };
}

/**
 * The validated entry: `fields` with the raw entry's positions and body. The body is passed
 * through rather than copied: the loader may read it only when something asks for it.
 */
function typedEntry<T extends Omit<Entry, keyof EntryBase>>(entry: RawEntry, fields: T): T & EntryBase {
  const typed = {
    key: entry.key,
    locale: entry.locale,
    file: entry.file,
    fieldLines: entry.fieldLines,
    bodyLine: entry.bodyLine,
    bodyDigest: entry.bodyDigest,
    ...fields,
    body: entry.body,
    ...(entry.body === null ? { bodyOffset: entry.bodyOffset } : {}),
  };
  return typed as T & EntryBase;
}

/**
 * Whether the entry is published in this identity's build: its file is no other identity's
 * variant, and its `identities` (when it has them) name this one. Unknown names are reported.
 */
function forThisIdentity(raw: RawEntry, entry: Entry, config: ResolvedConfig, out: Diagnostic[]): boolean {
  const known = config.identityKeys;
  if (raw.variant !== undefined && !known.includes(raw.variant)) {
    out.push(
      diagnostic('content/identity-text', {
        file: raw.file,
        message: `"${raw.variant}" in the file name is not an identity of site.config.ts`,
        hint: `an identity's variant of ${raw.locale}.md is named ${raw.locale}.<identity>.md, with one of: ${known.join(', ')}`,
      }),
    );
    return false;
  }
  const listed = entry.fm.identities;
  const unknown = (listed ?? []).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    out.push(
      diagnostic('content/invalid-identities', {
        file: raw.file,
        line: fieldLine(raw.fieldLines, 'identities'),
        field: 'identities',
        message: `not an identity of site.config.ts: ${unknown.join(', ')}`,
        hint: `the identities are: ${known.join(', ')}`,
      }),
    );
  }
  if (raw.variant !== undefined && raw.variant !== config.identityKey) return false;
  return listed === undefined || listed.includes(config.identityKey);
}

export function validateContent(raw: RawSite, config: ResolvedConfig, cache?: ValidationCache): ValidateResult {
  const diagnostics: Diagnostic[] = [];
  const locales = new Set(config.locales.map((l) => l.code));
  const pages: PageEntry[] = [];
  const articles: ArticleEntry[] = [];
  const bios: BioEntry[] = [];

  // An identity's variant (`en.larkspur.md`) stands in for the entry (`en.md`) in its build.
  const variants = new Set<string>();
  const placeOf = (e: { collection: string; key: string; locale: string }) => `${e.collection}/${e.key}/${e.locale}`;
  const chosen: { entry: Entry; variant: boolean }[] = [];
  for (const raw_ of raw.entries) {
    let judged = cache?.get(raw_);
    if (!judged) {
      judged = validateEntry(raw_, locales);
      cache?.set(raw_, judged);
    }
    diagnostics.push(...judged.diagnostics);
    const entry = judged.entry;
    if (!entry || !forThisIdentity(raw_, entry, config, diagnostics)) continue;
    if (raw_.variant !== undefined) variants.add(placeOf(entry));
    chosen.push({ entry, variant: raw_.variant !== undefined });
  }
  for (const { entry, variant } of chosen) {
    if (!variant && variants.has(placeOf(entry))) continue;
    if (entry.collection === 'pages') pages.push(entry);
    else if (entry.collection === 'articles') articles.push(entry);
    else bios.push(entry);
  }

  const portfolio: PortfolioEntry[] = [];
  for (const file of raw.portfolio) {
    const before = diagnostics.length;
    const data = parseYamlFile(portfolioSchema, file, diagnostics);
    // A series' title is one per language, not an entry's text (the rule's own hint).
    for (let i = before; i < diagnostics.length; i++) {
      if (diagnostics[i]!.field?.split('.')[0] === 'title') diagnostics[i] = { ...diagnostics[i]!, hint: 'give the series a title in each language: title: { en: Core holdings, fr: Placements principaux }' };
    }
    const key = file.file.replace(/^.*\/|\.ya?ml$/g, '');
    if (data) {
      diagnostics.push(...unknownLocales(data.title, locales, { ...file, at: ['title'] }));
      portfolio.push({ key, file: file.file, ...data });
    }
  }
  portfolio.sort((a, b) => a.order - b.order || byText(a.key, b.key));

  // Where the content folder is (paths.content), not where it usually is.
  const siteYaml = `${path.relative(config.root, config.dirs.content).split(path.sep).join('/') || '.'}/site.yaml`;
  let website: ValidSite['website'] = { performanceApprovalDate: '', asAtDate: '', displayName: {}, file: siteYaml };
  if (!raw.website) {
    const hint = `create ${siteYaml} with performanceApprovalDate, asAtDate and identities.<key>.displayName, or point paths.content in site.config.ts at the content folder`;
    diagnostics.push(diagnostic('content/missing-website', { file: siteYaml, message: 'the website record is missing', hint }));
  } else {
    const data = parseYamlFile(websiteSchema, raw.website, diagnostics);
    if (data) {
      for (const [identity, { displayName }] of Object.entries(data.identities)) {
        diagnostics.push(...unknownLocales(displayName, locales, { ...raw.website, at: ['identities', identity, 'displayName'] }));
      }
      const displayName = data.identities[config.identityKey]?.displayName;
      if (!displayName) {
        diagnostics.push(diagnostic('content/missing-identity', {
          file: raw.website.file,
          line: raw.website.fieldLines['identities'],
          field: `identities.${config.identityKey}`,
          message: `no display name for the identity "${config.identityKey}" being built`,
          hint: `add identities: { ${config.identityKey}: { displayName: { en: ..., fr: ... } } }`,
        }));
      }
      website = { performanceApprovalDate: data.performanceApprovalDate, asAtDate: data.asAtDate, displayName: displayName ?? {}, file: raw.website.file };
    }
  }

  let navigation: ValidSite['navigation'] = { main: [], footer: [], file: 'config/navigation.yaml', fieldLines: {} };
  if (raw.navigation) {
    const data = parseYamlFile(navigationSchema, raw.navigation, diagnostics);
    if (data) navigation = { ...data, file: raw.navigation.file, fieldLines: raw.navigation.fieldLines };
  }

  const redirects: WrittenRedirect[] = [];
  if (raw.redirects) {
    const data = parseYamlFile(redirectsSchema, raw.redirects, diagnostics);
    const { file, fieldLines } = raw.redirects;
    (data ?? []).forEach((rule, i) => redirects.push({ ...rule, file, line: pathLine(fieldLines, [i]) ?? 1 }));
  }

  const strings: Record<string, Record<string, string>> = {};
  for (const s of raw.strings) {
    const result = stringsSchema.safeParse(s.data);
    if (result.success) strings[s.locale] = result.data;
    else {
      // Its keys all count as written, whatever their values: a value of the wrong kind is its
      // own error, and the keys around it are not missing (the build stops before any page).
      const data = s.data !== null && typeof s.data === 'object' && !Array.isArray(s.data) ? (s.data as Record<string, unknown>) : {};
      strings[s.locale] = Object.fromEntries(Object.entries(data).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value) ?? '']));
      diagnostics.push(...schemaDiagnostics(result.error, { file: s.file, fieldLines: s.keyLines, data: s.data, strings: true }));
    }
  }

  diagnostics.push(...missingStrings(raw.strings, strings));

  return {
    site: {
      pages,
      articles,
      bios,
      portfolio,
      website,
      navigation,
      redirects,
      strings,
      teamHandles: new Set(raw.entries.filter((e) => e.collection === 'team').map((e) => e.key)),
      assets: raw.assets,
      stylesheet: raw.stylesheet,
    },
    diagnostics,
  };
}

/**
 * A UI string one locale file has and another lacks: the template would show the key itself
 * (`home.latest`) on that language's pages, so the build refuses it, naming the file that has it.
 */
function missingStrings(all: RawSite['strings'], strings: Record<string, Record<string, string>>): Diagnostic[] {
  const files = all.filter((f) => !f.unreadable);
  const found: Diagnostic[] = [];
  const keys = new Set(files.flatMap((f) => Object.keys(strings[f.locale] ?? {})));
  for (const f of files) {
    const own = strings[f.locale] ?? {};
    for (const key of [...keys].sort()) {
      if (Object.hasOwn(own, key)) continue;
      const other = files.find((o) => Object.hasOwn(strings[o.locale] ?? {}, key))!;
      const text = strings[other.locale]![key]!;
      found.push(diagnostic('locales/missing-string', {
        file: f.file,
        field: key,
        message: `the UI string "${key}" is missing here (${other.file}:${other.keyLines[key] ?? 1} has it); its pages would show "${key}" as text`,
        hint: `add "${key}": "<the ${f.locale} text of ${JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text)}>" to ${f.file}`,
      }));
    }
  }
  return found;
}
