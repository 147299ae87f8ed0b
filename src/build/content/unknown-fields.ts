// Front-matter fields no schema knows are probably typos (`titel:`): they are kept out
// of the site but reported as warnings, with the field the editor most likely meant.
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import { fieldLine } from './field-line.js';

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

export function unknownFields(
  data: Record<string, unknown>,
  known: readonly string[],
  where: { file: string; fieldLines: Record<string, number> },
): Diagnostic[] {
  return Object.keys(data)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const guess = closest(key, known);
      return diagnostic('content/unknown-field', {
        file: where.file,
        line: fieldLine(where.fieldLines, key),
        field: key,
        message: `unknown field "${key}" is ignored`,
        hint: guess ? `did you mean "${guess}"?` : `known fields: ${known.join(', ')}`,
      });
    });
}
