// A write that failed because of the disk or the folder, not because of ir-site: said in plain
// words, with the path, so the person can free space or fix the folder. Anything else is left
// to be reported as it is.

const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** The path and the plain cause of a disk-full, read-only or permission failure; null for any other error. */
export function diskFailure(error: unknown): { path: string; cause: string } | null {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  const cause = code ? CAUSES[code] : undefined;
  return cause ? { path: path ?? '(unknown path)', cause } : null;
}
