// Front matter with gray-matter, made safe: YAML through `yaml` (core schema, so dates
// stay strings and `12:30:00` stays text), every code-running engine switched off.
// The build imports this module when a file is not in its cache (load.ts, frontMatterParsers):
// a warm build does without loading gray-matter, js-yaml and yaml.
import matter from 'gray-matter';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, YAMLParseError, type Node } from 'yaml';
import { digestOf } from '../../files/digest.js';
import { pathKey, setFieldLine } from './field-line.js';
import { normaliseText } from './source-text.js';
import { explainYamlError } from './yaml-errors.js';

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of the first body line in the file. */
  bodyLine: number;
  /** 1-based file line of each front-matter key and list item, by path (field-line.ts pathKey). */
  fieldLines: Record<string, number>;
  /** Digest of `body`: page keys use it. */
  bodyDigest: string;
  /**
   * Digest of the text before the body (front matter and its delimiters): all the later stages
   * read of a file but its body (incremental/keys.ts, graphKey).
   */
  matterDigest: string;
}

/**
 * Front matter the build cache knows without reading the file, with its body's digest and image
 * references; the body starts at `bodyOffset` in the file's normalised text (readEntryBody).
 */
export type RecalledFrontMatter = Omit<FrontMatter, 'body'> & { bodyOffset: number };

/**
 * A file as a stat saw it. Its change time counts as git counts it: an edit that keeps the size
 * and puts the modification time back (`touch -d`, a tool that restores times) still moves it.
 */
export interface SourceFile {
  path: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface FrontMatterError {
  line: number;
  column?: number;
  field?: string;
  message: string;
  excerpt?: string;
  /** When the rule's hint (fix the YAML) is not the way out. */
  hint?: string;
}

/**
 * The top-level field a YAML error belongs to. An error at the very start of a key line
 * (an unclosed `[` or quote) is the previous value running on, so it names that one, unless the
 * error is the key's own (`ownKey`: a key written twice).
 */
export function fieldAtLine(keyLines: Record<string, number>, line: number, column: number | undefined, ownKey = false): string | undefined {
  const keys = Object.entries(keyLines)
    .filter(([key]) => !key.includes('\0'))
    .sort((a, b) => a[1] - b[1]);
  let index = keys.findLastIndex(([, l]) => l <= line);
  if (!ownKey && index > 0 && keys[index]![1] === line && (column ?? 1) === 1) index -= 1;
  return index >= 0 ? keys[index]![0] : undefined;
}

const refuse = (lang: string) => () => {
  throw new FrontMatterSyntax(`front matter in "${lang}" is not allowed: content may not run code; use YAML`, 1);
};

class FrontMatterSyntax extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * What `yaml` only warns of but reads otherwise than written: a tag it does not know (such as
 * `!!js/function`, read as plain text), a directive, a tag on the wrong kind of value. Errors
 * here, at their line. Its other warnings are about style (a closing bracket's indentation) and
 * the value is as written: they are not printed (the library would print them naming no file).
 */
const MISREAD = new Set(['TAG_RESOLVE_FAILED', 'BAD_DIRECTIVE', 'BAD_COLLECTION_TYPE']);

/** A YAML text's value, and the line of each key and list item in it by path (field-line.ts pathKey). */
export interface ParsedYaml {
  data: unknown;
  lines: Record<string, number>;
}

/**
 * The line each key and list item starts on, as the parser placed them; aliases are not followed.
 * A key or item on its parent's line is not recorded (pathLine answers with the parent's): a
 * portfolio of one-line rows records its rows, not every cell. Top-level keys always are.
 */
function linesOf(root: unknown, lineCounter: LineCounter): Record<string, number> {
  const lines: Record<string, number> = {};
  const walk = (node: unknown, path: readonly PropertyKey[], parentLine: number | undefined) => {
    // [what the parser placed, its value, its name in the data]: a map's keys, a list's items.
    const children: [unknown, unknown, PropertyKey | null][] = isMap(node)
      ? node.items.map((pair) => [pair.key, pair.value, keyName(pair.key)])
      : isSeq(node)
        ? node.items.map((item, i) => [item, item, i])
        : [];
    for (const [placed, value, part] of children) {
      if (part === null) continue; // a key with no plain name (an alias, a list): nothing in the data is found by it
      const start = (placed as Node | null)?.range?.[0];
      const line = start === undefined ? parentLine : lineCounter.linePos(start).line;
      if (line !== undefined && (path.length === 0 || line !== parentLine)) setFieldLine(lines, pathKey([...path, part]), line);
      walk(value, [...path, part], line);
    }
  };
  walk(root, [], undefined);
  return lines;
}

/** A key's name as the parsed value has it (`null:` and `: 1` are ""), or null for one that is not a plain value. */
function keyName(key: unknown): string | null {
  if (!isScalar(key)) return key === null ? '' : null;
  return key.value === null ? '' : String(key.value);
}

/** The line of the first of two equal keys of one mapping, the second of which starts at `offset`. */
function firstOfTwice(root: unknown, offset: number, lineCounter: LineCounter): number | undefined {
  let found: number | undefined;
  visit(root as Node, {
    Map(_, map) {
      const second = map.items.find((pair) => (pair.key as Node | null)?.range?.[0] === offset);
      if (!second) return undefined;
      const first = map.items.find((pair) => pair !== second && keyName(pair.key) === keyName(second.key));
      const start = (first?.key as Node | null)?.range?.[0];
      if (start !== undefined) found = lineCounter.linePos(start).line;
      return visit.BREAK;
    },
  });
  return found;
}

/** YAML text to its value, with the core schema, and where each of its keys is. */
export function parseYamlText(text: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { schema: 'core', lineCounter });
  const [problem] = [...doc.errors, ...doc.warnings.filter((w) => MISREAD.has(w.code))];
  if (problem) {
    const firstLine = problem.code === 'DUPLICATE_KEY' ? firstOfTwice(doc.contents, problem.pos[0], lineCounter) : undefined;
    throw Object.assign(new YAMLParseError(problem.pos, problem.code, problem.message), { linePos: problem.linePos, lines: linesOf(doc.contents, lineCounter), firstLine });
  }
  return { data: doc.toJS(), lines: linesOf(doc.contents, lineCounter) };
}

const refuseCode = {
  javascript: { parse: refuse('javascript'), stringify: () => '' },
  js: { parse: refuse('js'), stringify: () => '' },
  coffee: { parse: refuse('coffee'), stringify: () => '' },
  coffeescript: { parse: refuse('coffeescript'), stringify: () => '' },
};

type Parsed = { data: unknown; content: string; matter?: string };

/** gray-matter on the whole text, with YAML through `yaml` (with the lines it finds) and code refused. */
function grayMatter(text: string): Parsed & { lines: Record<string, number> } {
  let lines: Record<string, number> = {};
  const yaml = {
    parse: (s: string) => {
      const parsed = parseYamlText(s);
      lines = parsed.lines;
      return (parsed.data ?? {}) as object;
    },
    stringify: () => '',
  };
  const parsed = matter(text, { language: 'yaml', engines: { yaml, ...refuseCode } } as unknown as Parameters<typeof matter>[1]) as Parsed;
  return { ...parsed, lines };
}

export function readFrontMatter(source: string): FrontMatter | FrontMatterError {
  const text = normaliseText(source);
  let parsed: ReturnType<typeof grayMatter>;
  try {
    parsed = grayMatter(text);
  } catch (error) {
    if (error instanceof YAMLParseError) {
      // gray-matter hands the engine the text right after `---`, so line N of it is line N of the file.
      const matterText = text.slice(3, Math.max(3, text.indexOf('\n---', 3)));
      const problem = explainYamlError(matterText, error)!;
      return {
        ...problem,
        field: fieldAtLine((error as { lines?: Record<string, number> }).lines ?? {}, problem.line, problem.column, error.code === 'DUPLICATE_KEY'),
        message: `invalid YAML front matter: ${problem.message}`,
        excerpt: text.split('\n')[problem.line - 1],
      };
    }
    if (error instanceof FrontMatterSyntax) return { line: error.line, message: error.message, hint: 'start the file with --- and write the front matter in YAML' };
    // `---toml`, `---json`: gray-matter has no such engine here.
    const language = /^---[ \t]*([^\s-][^\s]*)/.exec(text)?.[1];
    if (language) return { line: 1, message: `front matter in "${language}" cannot be read: ir-site reads YAML only`, hint: 'start the file with --- alone on its line and write the front matter in YAML' };
    return { line: 1, message: `unreadable front matter: ${(error as Error).message}` };
  }
  const data = parsed.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { line: 2, message: 'front matter must be a YAML mapping of fields (`title: ...`)', hint: 'write one field: value per line, e.g. title: "Quarterly commentary"' };
  }
  const bodyOffset = text.length - parsed.content.length;
  const bodyLine = text.slice(0, bodyOffset).split('\n').length;
  const hasFrontMatter = text.startsWith('---');
  return {
    data: data as Record<string, unknown>,
    body: parsed.content,
    bodyLine,
    fieldLines: hasFrontMatter ? parsed.lines : {},
    bodyDigest: digestOf(parsed.content),
    matterDigest: digestOf(text.slice(0, bodyOffset)),
  };
}
