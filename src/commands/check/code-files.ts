// The code the UI strings may be used from, as `usedKeys` (languages.ts) reads it: the site's
// templates and ir-site's own code (the browser runtime included).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { transform, type Loader } from 'esbuild';
import fg from 'fast-glob';
import { PACKAGE_ROOT } from '../../package-root.js';
import type { CodeFile } from './languages.js';

/**
 * A code file compiled by esbuild, so that its comments are gone and its JSX text is in quoted
 * strings: an apostrophe in a comment or in `<p>Don't</p>` would otherwise pair the quotes
 * after it wrongly and hide the keys they hold. A file esbuild cannot read is taken as it is.
 */
export async function scannableCode(file: string, text: string): Promise<string> {
  const extension = path.extname(file).slice(1);
  const loader: Loader = extension === 'mjs' ? 'js' : (extension as Loader);
  try {
    return (await transform(text, { loader, legalComments: 'none', logLevel: 'silent' })).code;
  } catch {
    return text;
  }
}

/** Every file the UI strings may be used from, named relative to `root`. */
export async function codeFiles(root: string, templatesDir: string): Promise<CodeFile[]> {
  const own = existsSync(path.join(PACKAGE_ROOT, 'src')) ? path.join(PACKAGE_ROOT, 'src') : path.join(PACKAGE_ROOT, 'dist', 'src');
  const [templates, runtime] = await Promise.all([
    fg(['**/*.{ts,tsx,js,jsx,mjs}'], { cwd: templatesDir, absolute: true }),
    fg(['**/*.{ts,tsx,js}'], { cwd: own, absolute: true, ignore: ['commands/check/**', '**/*.d.ts'] }),
  ]);
  const read = async (abs: string, scannable: boolean) => {
    const text = await readFile(abs, 'utf8');
    return { file: path.relative(root, abs).split(path.sep).join('/'), text: scannable ? await scannableCode(abs, text) : text };
  };
  // ir-site's own code is read as written, not compiled as the templates are (a cost paid on every check):
  // the demo's `check --strict` in CI would show a key its reading missed.
  return Promise.all([...templates.map((abs) => read(abs, true)), ...runtime.map((abs) => read(abs, false))]);
}
