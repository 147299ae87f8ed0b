// Field names come from content: `constructor` or `toString` is a field like any other, never
// a property every object inherits, so a field's line is looked up as an own property only.

/** The line of a top-level field, or undefined. */
export function fieldLine(lines: Readonly<Record<string, number>>, name: string): number | undefined {
  return Object.hasOwn(lines, name) ? lines[name] : undefined;
}

/** Records a field's line; a field named `__proto__` becomes an own property like any other. */
export function setFieldLine(lines: Record<string, number>, name: string, line: number): void {
  if (name === '__proto__') Object.defineProperty(lines, name, { value: line, enumerable: true, writable: true, configurable: true });
  else lines[name] = line;
}
