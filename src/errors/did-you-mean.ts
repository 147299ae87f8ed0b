// "Did you mean": the known name closest to a misspelt one (a field, a config key, a page
// path, an image file), or nothing when none is close enough to be a likely typo.
import { distance } from 'fastest-levenshtein';

/** Edits a typo may take: 2 for short words, about a third of longer ones. */
const maxEdits = (word: string) => Math.max(2, Math.floor(word.length / 3));

/** The candidate fewest edits away from `word` (case ignored), within a typo's reach. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = maxEdits(word) + 1;
  const lower = word.toLowerCase();
  for (const c of candidates) {
    const d = distance(lower, c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}
