// Which files of the previous build are still in the output folder as it left them (same
// size and times, or the same bytes: stillAsLeft): the files a build may keep instead of
// writing. Their states come from the up-to-date check's helper thread when it statted the same
// files (output-states.ts), or from a helper of its own, while the main thread loads the content.
// A file reached through a link, or of another kind than a file, is not intact: the build writes
// it again, replacing what is in the way (emit/placing.ts).
import { stillAsLeft, withChangeTime, type FileState } from '../files/digest.js';
import { outputStatsHelper, type OutputStates } from './output-states.js';

const sameNames = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((name, i) => name === b[i]);

/**
 * The files of `files` (paths relative to `outDir`) still as the build that recorded them left
 * them (stillAsLeft), each with its state now: its change time may have moved. `taken`: their
 * states as the up-to-date check is taking them, used when it took the same files.
 */
export async function intactFiles(outDir: string, files: Readonly<Record<string, FileState>>, taken?: OutputStates | null): Promise<ReadonlyMap<string, FileState>> {
  const rels = Object.keys(files);
  const states = taken && sameNames(taken.names, rels) ? taken : outputStatsHelper().stat(rels, outDir);
  const now = await states.settled();
  const intact = new Map<string, FileState>();
  for (let i = 0; i < rels.length; i++) {
    const rel = rels[i]!;
    const state = files[rel]!;
    const [size, mtimeMs, ctimeMs] = [now[3 * i]!, now[3 * i + 1]!, now[3 * i + 2]!];
    if (!Number.isNaN(size) && stillAsLeft(state, { size, mtimeMs, ctimeMs }, outDir, rel)) intact.set(rel, ctimeMs === state[3] ? state : withChangeTime(state, ctimeMs));
  }
  return intact;
}
