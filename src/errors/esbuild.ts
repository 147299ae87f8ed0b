// esbuild's errors (syntax errors in site.config.ts, templates or the runtime; esbuild gives
// files relative to its working folder, which every caller sets to the site's root) as the
// fields of diagnostics: the file relative to the site, line, column and the source line. The
// caller makes them diagnostics of its own rule (`config/syntax`, `templates/compile`, ...).
import path from 'node:path';
import type { Diagnostic } from './diagnostic.js';

interface EsbuildMessage {
  text: string;
  location?: { file: string; line: number; column: number; lineText: string } | null;
}

export type EsbuildProblem = Pick<Diagnostic, 'file' | 'line' | 'column' | 'excerpt' | 'message'>;

/** Each error of an esbuild failure, or null when `error` is not one. */
export function esbuildProblems(error: unknown, options: { root: string; file: string }): EsbuildProblem[] | null {
  const errors = (error as { errors?: EsbuildMessage[] } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  return errors.map((e) => ({
    file: e.location ? path.relative(options.root, path.resolve(options.root, e.location.file)).split(path.sep).join('/') : options.file,
    line: e.location?.line,
    column: e.location ? e.location.column + 1 : undefined,
    excerpt: e.location?.lineText,
    message: e.text,
  }));
}
