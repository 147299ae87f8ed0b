// Front matter with gray-matter, made safe (matter-block.ts): YAML through `yaml` (core schema,
// so dates stay strings and `12:30:00` stays text), every code-running engine switched off.
// The build imports this module when a file's front matter is not in its cache (load.ts,
// frontMatterParsers): a warm build, or one after a body edit, does without loading `yaml`.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, YAMLParseError, type Node } from 'yaml';
import { pathKey, setFieldLine } from './field-line.js';
import { normaliseText, sameInHtmlAndJson } from './source-text.js';
import { explainYamlError } from './yaml-errors.js';
import { frontMatterOf, matterBlock, type FrontMatter, type FrontMatterError, type MatterBlock, type ParsedYaml } from './matter-block.js';

export type { FrontMatter, FrontMatterError, ParsedYaml, RecalledFrontMatter, SourceFile } from './matter-block.js';

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

/**
 * What `yaml` only warns of but reads otherwise than written: a tag it does not know (such as
 * `!!js/function`, read as plain text), a directive, a tag on the wrong kind of value. Errors
 * here, at their line. Its other warnings are about style (a closing bracket's indentation) and
 * the value is as written: they are not printed (the library would print them naming no file).
 */
const MISREAD = new Set(['TAG_RESOLVE_FAILED', 'BAD_DIRECTIVE', 'BAD_COLLECTION_TYPE']);

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
  return { data: sameInHtmlAndJson(doc.toJS()), lines: linesOf(doc.contents, lineCounter) };
}


/** `block`'s YAML parsed, or the problem found in it, at its file line and field. */
export function parseMatterYaml(text: string, block: MatterBlock): ParsedYaml | FrontMatterError {
  if (block.yaml === null) return { data: {}, lines: {} };
  try {
    return parseYamlText(block.yaml);
  } catch (error) {
    if (!(error instanceof YAMLParseError)) return { line: 1, message: `unreadable front matter: ${(error as Error).message}` };
    // gray-matter hands the engine the text right after `---`, so line N of it is line N of the file.
    const problem = explainYamlError(block.yaml, error)!;
    return {
      ...problem,
      field: problem.field ?? fieldAtLine((error as { lines?: Record<string, number> }).lines ?? {}, problem.line, problem.column, error.code === 'DUPLICATE_KEY'),
      message: `invalid YAML front matter: ${problem.message}`,
      excerpt: text.split('\n')[problem.line - 1],
    };
  }
}

/** An entry file's front matter and body; its YAML parsed here. */
export function readFrontMatter(source: string): FrontMatter | FrontMatterError {
  const text = normaliseText(source);
  const block = matterBlock(text);
  return 'message' in block ? block : frontMatterOf(text, block, parseMatterYaml(text, block));
}
