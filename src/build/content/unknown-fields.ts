// Front-matter fields no schema knows are probably typos (`titel:`): they are kept out
// of the site but reported as warnings, with the field the editor most likely meant.
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import { closest } from '../../errors/did-you-mean.js';
import { fieldName, pathLine } from './field-line.js';

/** `data`'s keys not in `known`, each a warning at its line; `at` is where `data` sits in the file (a list item: `[2]`). */
export function unknownFields(
  data: Record<string, unknown>,
  known: readonly string[],
  where: { file: string; fieldLines: Record<string, number>; at?: readonly PropertyKey[] },
): Diagnostic[] {
  return Object.keys(data)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const guess = closest(key, known);
      return diagnostic('content/unknown-field', {
        file: where.file,
        line: pathLine(where.fieldLines, [...(where.at ?? []), key]),
        field: fieldName([...(where.at ?? []), key]),
        message: `unknown field "${key}" is ignored`,
        hint: guess ? `did you mean "${guess}"?` : `known fields: ${known.join(', ')}`,
      });
    });
}
