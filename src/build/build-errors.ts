// A build's failures as a person acts on them: a locked site, an interrupted commit, a full disk
// or a read-only folder become diagnostics that name the path and the cause.
import path from 'node:path';
import { CommitInterruptedError } from './emit/sink.js';
import { diagnostic, DiagnosticsError, type Diagnostic, type FailedStage } from '../errors/diagnostic.js';
import { BuildLockedError } from './lock.js';
import { takeCacheWriteFailures } from '../files/cache-file.js';
import { diskFailure } from '../errors/disk.js';

/** A site path relative to the root when inside it, with forward slashes; absolute otherwise. */
export const shown = (root: string, file: string) => {
  const rel = path.relative(root, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
};

/**
 * A locked site, a full disk or a read-only folder, as the diagnostic a person acts on; other
 * errors as they are. `writing`: the stage a disk failure is told of (the build's own files,
 * its locks and leftovers, or the site's output).
 */
export function asDiagnostics(error: unknown, root: string, outDir: string, writing: FailedStage): unknown {
  if (error instanceof BuildLockedError) {
    return new DiagnosticsError([diagnostic('build/locked', { file: shown(root, error.lockFile), message: error.message, ...(error.hint && { hint: error.hint }) })], 'build');
  }
  if (error instanceof CommitInterruptedError) {
    const disk = diskFailure(error.cause);
    const why = disk ? `cannot write ${disk.path}: ${disk.cause}` : `cannot finish the commit into ${error.outDir}: ${(error.cause as Error)?.message ?? String(error.cause)}`;
    const hint = 'fix the cause, then build again: the next build first finishes this update. Until then the output folder mixes two builds: `ir-site serve` refuses it, and it must not be deployed';
    return new DiagnosticsError([diagnostic('output/write-failed', { file: shown(root, disk?.path ?? error.outDir), message: `${why}; the output folder was updated part-way`, hint })], 'commit');
  }
  const disk = diskFailure(error, `${outDir} (or the folder next to it where the build is staged)`);
  if (!disk) return error;
  return new DiagnosticsError([diagnostic('output/write-failed', { file: shown(root, disk.path), message: `cannot write ${disk.path}: ${disk.cause}` })], writing);
}

/** One warning per cause: a full disk fails every cache write the same way. */
export function cacheWriteWarnings(root: string): Diagnostic[] {
  const byCause = new Map<string, string[]>();
  for (const { file, cause } of takeCacheWriteFailures()) byCause.set(cause, [...(byCause.get(cause) ?? []), file]);
  return [...byCause].map(([cause, files]) => {
    const [file = '', ...more] = files;
    const others = more.length === 0 ? '' : ` (and ${more.length} more cache file${more.length === 1 ? '' : 's'})`;
    return diagnostic('cache/write-failed', { file: shown(root, file), message: `the build cache cannot be written: ${file}${others}: ${cause}` });
  });
}
