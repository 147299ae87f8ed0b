// Front-matter fields no schema knows are probably typos (`titel:`): they are kept out
// of the site but reported as warnings, with the field the editor most likely meant.
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import { closest } from '../../errors/did-you-mean.js';
import { fieldLine } from './field-line.js';

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
