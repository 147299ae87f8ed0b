// Field names come from content: `constructor` or `toString` is a field like any other, never
// a property every object inherits, so a field's line is looked up as an own property only.
//
// A file's lines are recorded by path: a top-level field by its name (`title`), a deeper key or
// list item by its path's parts joined by NUL (pathKey), which no YAML key an editor types holds.

/** The key a path's line is recorded under: `title`, or `identities\0larkspur\0displayName`. */
export const pathKey = (path: readonly PropertyKey[]): string => path.map(String).join('\0');

/** A path as an editor reads it: `identities.larkspur.displayName`, `holdings[2].weight`. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)), '');
}

/** The line of a top-level field, or undefined. */
export function fieldLine(lines: Readonly<Record<string, number>>, name: string): number | undefined {
  return Object.hasOwn(lines, name) ? lines[name] : undefined;
}

/** The line of the deepest part of `path` that has one (a value written inline has its key's line). */
export function pathLine(lines: Readonly<Record<string, number>>, path: readonly PropertyKey[]): number | undefined {
  for (let n = path.length; n > 0; n--) {
    const line = fieldLine(lines, pathKey(path.slice(0, n)));
    if (line !== undefined) return line;
  }
  return undefined;
}

/** Records a field's line; a field named `__proto__` becomes an own property like any other. */
export function setFieldLine(lines: Record<string, number>, name: string, line: number): void {
  if (name === '__proto__') Object.defineProperty(lines, name, { value: line, enumerable: true, writable: true, configurable: true });
  else lines[name] = line;
}
