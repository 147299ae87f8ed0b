// What the fonts of this machine are, as a digest: sharp draws an SVG's text (the default share
// image, a favicon with a letter) with the fonts fontconfig finds, so an image made before a
// font was installed or removed is not the image this machine makes now. The folders are
// fontconfig's usual ones and its configuration; each file counts by path, size and time.
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { sha256 } from './digest.js';

const FONT_FOLDERS = ['/etc/fonts', '/usr/share/fonts', '/usr/local/share/fonts', path.join(homedir(), '.fonts'), path.join(homedir(), '.local/share/fonts')];

/** The digest of the font files and font configuration under `folders`. */
export function fontsDigest(folders: readonly string[] = FONT_FOLDERS): string {
  const seen: string[] = [];
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(folder, { recursive: true, encoding: 'utf8' });
    } catch {
      continue; // no such folder here
    }
    for (const name of names.sort()) {
      const file = path.join(folder, name);
      const info = statSync(file, { throwIfNoEntry: false });
      if (info?.isFile()) seen.push(`${file}\0${info.size}\0${info.mtimeMs}`);
    }
  }
  return sha256(seen.join('\n')).slice(0, 32);
}

let installed: string | null = null;

/** fontsDigest of this machine's folders, once per process. */
export const installedFonts = (): string => (installed ??= fontsDigest());
