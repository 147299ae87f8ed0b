// Orders that output depends on (file names, hashes, sitemaps, reports) must be the same on
// every machine. String.prototype.localeCompare without a locale follows the machine's LANG
// (da_DK puts capitals first and reads "aa" as "å"), so machine-facing orders compare UTF-16
// code units instead; orders a reader sees name their language (Intl.Collator(locale)).

/** Code-unit order of two strings: the same on every machine and in every browser. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The order a reader of `tag` (a locale's hrefLang) expects of names; the root order for a tag Intl does not know. */
export function collatorFor(tag: string): Intl.Collator {
  try {
    return new Intl.Collator(tag);
  } catch {
    return new Intl.Collator('und');
  }
}
