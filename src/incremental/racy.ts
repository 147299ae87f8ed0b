// A cache that knows a file by its size and modification time must not trust a time too close
// to when it recorded it: a file written again within the file system's time resolution (or
// while the build was reading it) keeps its time but not its bytes. Git's index has the same
// rule ("racy git").

/** Modification times closer than this to the recording build's start are not trusted. */
export const RACY_MS = 2000;

/** Whether a file last modified at `mtimeMs` was so safely before a build that started at `since`. */
export const settledBefore = (mtimeMs: number, since: number): boolean => mtimeMs < since - RACY_MS;
