// Front-matter fields no schema knows are probably typos (`titel:`): they are kept out
// of the site but reported as warnings, with the field the editor most likely meant. So are
// the languages of a text-per-language map (`title: { en, FR }`) that the site does not have.
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import { closest } from '../../errors/did-you-mean.js';
import { fieldName, pathLine } from './field-line.js';

interface Where {
  file: string;
  fieldLines: Record<string, number>;
  /** Where `data` sits in the file: `[2]` for a list item, `['title']` for a field's map. */
  at?: readonly PropertyKey[];
}

/** `data`'s keys not in `known`, each a warning at its line. */
export function unknownFields(
  data: Record<string, unknown>,
  known: readonly string[],
  where: Where,
  say = { what: (key: string) => `unknown field "${key}" is ignored`, otherwise: `known fields: ${known.join(', ')}` },
): Diagnostic[] {
  return Object.keys(data)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const guess = closest(key, known);
      return diagnostic('content/unknown-field', {
        file: where.file,
        line: pathLine(where.fieldLines, [...(where.at ?? []), key]),
        field: fieldName([...(where.at ?? []), key]),
        message: say.what(key),
        hint: guess ? `did you mean "${guess}"?` : say.otherwise,
      });
    });
}

/** The keys of a text-per-language map that name no locale of the site: a typo, or a language never shown. */
export function unknownLocales(texts: Record<string, string>, locales: ReadonlySet<string>, where: Where): Diagnostic[] {
  return unknownFields(texts, [...locales], where, {
    what: (code) => `"${code}" is not a locale of site.config.ts: this text is never shown`,
    otherwise: `the locales are: ${[...locales].join(', ')}`,
  });
}
