/**
 * For `.catch(goneAsNull)` on a read: null when the file is gone (removed since the build listed
 * it), any other error as it is.
 */
export const goneAsNull = (error: unknown): null => {
  if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') return null;
  throw error;
};
