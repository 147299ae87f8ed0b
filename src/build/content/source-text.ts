// A content file's text as every stage counts positions in it, and where its top-level keys
// are: plain string work, with no parser to load.
import { fieldLine, setFieldLine } from './field-line.js';

/** The text front matter is read from (frontmatter.ts), and positions in a file count in: a BOM dropped, line ends made `\n`. */
export const normaliseText = (source: string) => source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

/** Top-level keys and the line each starts on, read straight from the text (cheap; no second parse). */
export function topLevelKeyLines(text: string, firstLine: number): Record<string, number> {
  const lines: Record<string, number> = {};
  text.split('\n').forEach((line, i) => {
    const m = /^(?:"([^"]+)"|'([^']+)'|([A-Za-z_][\w-]*))\s*:/.exec(line);
    const key = m?.[1] ?? m?.[2] ?? m?.[3];
    if (key && fieldLine(lines, key) === undefined) setFieldLine(lines, key, firstLine + i);
  });
  return lines;
}
