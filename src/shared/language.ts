// A locale code's language, for the rules that follow the language and not the region: French
// typography, footnote labels, stemming. Site configurations name locales `fr`, `fr-CA` or `fr_CA`.

/** The language subtag of a locale code, lower-cased: `fr-CA` -> `fr`. */
export const languageOf = (locale: string): string => locale.split(/[-_]/, 1)[0]!.toLowerCase();
