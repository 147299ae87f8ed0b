// Whether a build may publish into its output folder. A build replaces that folder whole, or
// deletes in it what it does not make, so it must never be a folder of the site (through a link
// too: config/resolve.ts compares the paths as given, this compares where they lead) nor one
// that holds someone's files (`--out .git`, `--out docs`).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { outputClash, type ResolvedConfig } from './config/resolve.js';
import { journalFile } from './emit/journal.js';
import { publishedFolder } from './emit/published-folder.js';
import { folderProblem } from '../files/folder-problem.js';
import { realPathOr } from '../files/real-path.js';
import { APP_DATA_PATH } from '../shared/offline.js';

/** A file every build writes: an output folder that has it was made by a build (ir-site's, or Gatsby's before it). */
const BUILT_MARK = APP_DATA_PATH.slice(1);

/** Why the build must not publish into `config.dirs.out`, or null. */
export function outputRefusal(config: ResolvedConfig): { problem: string; hint: string } | null {
  const { out } = config.dirs;
  const unusable = folderProblem(out);
  if (unusable) return { problem: unusable, hint: 'move it away, or build elsewhere with --out (or paths.out in site.config.ts); nothing was written' };
  const { dir } = publishedFolder(out);
  const real = Object.fromEntries(Object.entries(config.dirs).map(([name, folder]) => [name, realPathOr(folder)]));
  const clash = outputClash({ ...(real as ResolvedConfig['dirs']), out: dir }, realPathOr(config.root));
  if (clash) return { problem: `${clash} (${out} leads to ${dir})`, hint: 'give the output a folder of its own, such as public/ next to content/; nothing was written' };
  if (existsSync(path.join(dir, BUILT_MARK)) || existsSync(journalFile(out))) return null;
  const names = existsSync(dir) ? readdirSync(dir) : [];
  if (names.length > 0) {
    return {
      problem: `it holds files that no build made (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', ...' : ''}), and a build replaces the whole folder`,
      hint: 'build into an empty or new folder with --out (or paths.out in site.config.ts), or move those files away; nothing was written',
    };
  }
  return null;
}
