// Keys site.config.ts has and the schema does not: a typo (`legacyPrefix`, `integration`)
// that would otherwise be dropped without a word. Each is an error naming the key the
// editor most likely meant, at its line in the file.
import * as z from 'zod';
import { closest } from '../../errors/did-you-mean.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';

/** The schema of the value at `path` inside `schema`, through defaults, optionals, records and arrays. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | null {
  let current: z.ZodType = schema;
  const unwrap = (s: z.ZodType): z.ZodType => {
    if (s instanceof z.ZodPrefault || s instanceof z.ZodDefault || s instanceof z.ZodOptional || s instanceof z.ZodNullable) return unwrap(s.unwrap() as z.ZodType);
    if (s instanceof z.ZodPipe) return unwrap(s.in as z.ZodType);
    return s;
  };
  for (const key of path) {
    current = unwrap(current);
    if (current instanceof z.ZodObject) current = (current.shape as Record<string, z.ZodType>)[String(key)] ?? null!;
    else if (current instanceof z.ZodRecord) current = current.valueType as z.ZodType;
    else if (current instanceof z.ZodArray) current = current.element as z.ZodType;
    else return null;
    if (!current) return null;
  }
  return unwrap(current);
}

/** The keys an object of the schema may have at `path` ([] when it is not an object). */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const at = schemaAt(schema, path);
  return at instanceof z.ZodObject ? Object.keys(at.shape) : [];
}

/** The first line of `source` from line `from` (1-based) on that writes `key:` (or `'key':`, `"key":`), 1-based. */
function keyLine(source: string, key: string, from = 1): number | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(^|[\\s{,])(["']?)${escaped}\\2\\s*:`);
  const index = source.split('\n').findIndex((line, i) => i + 1 >= from && re.test(line));
  return index === -1 ? undefined : index + 1;
}

/**
 * The line that writes the value at `path` (`identities.second.tokens.a`): each key looked for
 * after the line of the one before it; the deepest found. A guess from the text, as for unknown keys.
 */
export function configPathLine(source: string, path: readonly PropertyKey[]): number | undefined {
  let line: number | undefined;
  for (const key of path) {
    if (typeof key !== 'string') continue;
    const next = keyLine(source, key, line ?? 1);
    if (next === undefined) break;
    line = next;
  }
  return line;
}

/** One `config/unknown-key` error per key a zod `unrecognized_keys` issue lists. */
export function unknownKeyDiagnostics(schema: z.ZodType, issue: { path: readonly PropertyKey[]; keys: readonly string[] }, file: string, source: string): Diagnostic[] {
  const known = knownKeysAt(schema, issue.path);
  const where = issue.path.map(String).join('.');
  return issue.keys.map((key) => {
    const guess = closest(key, known);
    return diagnostic('config/unknown-key', {
      file,
      line: keyLine(source, key),
      field: where ? `${where}.${key}` : key,
      message: `unknown key "${key}"${where ? ` in ${where}` : ''}: it would be ignored`,
      hint: guess ? `did you mean "${guess}"?` : `the keys here are: ${known.join(', ')}`,
    });
  });
}
