// When a cache file that is rewritten whole is worth rewriting. The front matter cache and a
// language's stored search documents are large to write, while a record they lack costs the
// next build little (a file read and parsed again, a document analysed again). So a build that
// changed a few records leaves the file as it was; the next build that changes more writes it.

/**
 * Whether to rewrite a file of `stored` records after a build that made `fresh` records anew
 * and no longer used `unused` of the stored ones: always when there was none, and otherwise
 * when either count passes 16, or 1/400 of the records.
 */
export function worthRewriting({ stored, fresh, unused }: { stored: number; fresh: number; unused: number }): boolean {
  if (stored === 0) return fresh > 0;
  const slack = Math.max(16, Math.floor(stored / 400));
  return fresh > slack || unused > slack;
}
