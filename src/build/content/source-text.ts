// A content file's text as every stage counts positions in it: plain string work, with no
// parser to load.

/** The text front matter is read from (frontmatter.ts), and positions in a file count in: a BOM dropped, line ends made `\n`. */
export const normaliseText = (source: string) => source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

/**
 * A parsed YAML or JSON value made the same in a page's HTML and in its record: `-0` becomes 0
 * (the server would print "-0", the record's JSON has "0"), and a lone surrogate (a `"\ud800"`
 * escape) becomes U+FFFD, as the HTML's UTF-8 has it. Either would make the browser's render
 * differ from the server's. Changed in place; a key named `__proto__` stays an own property.
 * A YAML alias inside the node it names (`a: &x [*x]`) makes a value without end: an error.
 */
export function sameInHtmlAndJson<T>(value: T, holding: Set<object> = new Set()): T {
  if (typeof value === 'string') return value.toWellFormed() as T;
  if (Object.is(value, -0)) return 0 as T;
  if (value === null || typeof value !== 'object') return value;
  if (holding.has(value)) throw new Error('a YAML alias (*name) is used inside the node its anchor (&name) names: the value would never end');
  holding.add(value);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const before = record[key];
    const after = sameInHtmlAndJson(before, holding);
    if (!Object.is(before, after)) Object.defineProperty(record, key, { value: after, enumerable: true, writable: true, configurable: true });
  }
  holding.delete(value);
  return value;
}
