// A write that failed because of the disk or the folder, not because of ir-site: said in plain
// words, with the path, so the person can free space or fix the folder. Anything else is left
// to be reported as it is.

const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENAMETOOLONG: 'a file name in it is longer than the file system allows',
};

/**
 * The path and the plain cause of a disk-full, read-only or permission failure; null for any
 * other error. `where`: what to name when the error names no path (a failed write on a thread).
 */
export function diskFailure(error: unknown, where = '(a file whose path the system did not give)'): { path: string; cause: string } | null {
  const { code, path, dest, syscall, cause: inner } = (error ?? {}) as NodeJS.ErrnoException & { dest?: string };
  const cause = code ? CAUSES[code] : undefined;
  // A rename names its source first; the build renames only its own staged files, so the place
  // that refused is where they were going. (A copy's source is the site's own file: kept.)
  if (cause) return { path: (syscall === 'rename' ? dest : undefined) ?? path ?? where, cause };
  // An error that wraps the system's (`new Error(..., { cause })`) is judged by it.
  return inner ? diskFailure(inner, where) : null;
}
