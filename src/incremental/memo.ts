// The build cache as one memo: results of each kind (front matter, the validated graph, bundles,
// derived files, the offline worker, search indexes and documents, site warnings, compressed
// copies) kept under the key of what they were made from (keys.ts), each kind in a file of its
// own in the one envelope of files/cache-file.ts. A value that is missing, damaged, of another
// kind, made by another ir-site (the fingerprint) or of the wrong shape is a miss, never an error.
//
// Two stores hold them: the build cache's folder on disk (`build`), where a value is encoded when
// written and checked and decoded when read; and memory (`dev`, which keeps its site between
// edits), which holds the values themselves: they are shared with whoever reads them, who must
// not change them.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { encodeCacheFile, parseCacheFile, removeCacheFile, writeCacheFile, type CacheFile, type Codec } from '../files/cache-file.js';
import { worthRewriting } from './rewrite-policy.js';

/** A kind of result: its name (in each file's header), its file, and the check its payload must pass. */
export interface MemoKind<T> {
  readonly name: string;
  /** Relative to the store, with forward slashes. */
  readonly file: string;
  readonly accept: (value: unknown) => value is T;
  /** v8.serialize for payloads that share objects or hold what JSON cannot; JSON otherwise. */
  readonly codec?: Codec;
}

export const memoKind = <T>(name: string, accept: (value: unknown) => value is T, options: { file?: string; codec?: Codec } = {}): MemoKind<T> => ({
  name,
  file: options.file ?? `${name}.bin`,
  accept,
  codec: options.codec,
});

export interface Memo {
  /** toolFingerprint(): part of every key, and of every file's header, so a file another ir-site made is a miss. */
  readonly fingerprint: string;
  /** The stored value of `kind`, with its key, not yet decoded (its key can be compared first); null when there is none sound. */
  open(kind: MemoKind<unknown>): Promise<CacheFile | null>;
  /** The value of `kind` stored under `key`; null when there is none, or another key's. */
  read<T>(kind: MemoKind<T>, key?: string): Promise<T | null>;
  /**
   * Keeps `value` as the one of `kind`, under `key`, encoded at once when it is encoded (the
   * caller may change the value next). A write the disk refuses is a warning (files/cache-file.ts).
   */
  write<T>(kind: MemoKind<T>, value: T, key?: string): Promise<void>;
  /** Drops the value of a kind. */
  forget(kind: MemoKind<unknown>): Promise<void>;
  /** Drops the files of `folder` but `keep` (the names of files of a language the site no longer has, of an older layout). */
  prune(folder: string, keep: ReadonlySet<string>): Promise<void>;
}

/** Where the values are kept: a memo but for `read`, which every store answers by `open`, and keys always given. */
interface MemoBackend extends Omit<Memo, 'fingerprint' | 'read' | 'write'> {
  write<T>(kind: MemoKind<T>, value: T, key: string): Promise<void>;
}

function memoOf({ open, write, forget, prune }: MemoBackend, fingerprint: string): Memo {
  return {
    fingerprint,
    open,
    async read(kind, key = '') {
      const opened = await open(kind);
      return opened && opened.key === key ? opened.decode(kind.accept) : null;
    },
    write: (kind, value, key = '') => write(kind, value, key),
    forget,
    prune,
  };
}

/** The memo of the build cache in `cacheDir` (its `build` folder). */
export function diskMemo(cacheDir: string, fingerprint: string): Memo {
  const dir = path.join(cacheDir, 'build');
  return memoOf(
    {
      async open(kind) {
        const bytes = await readFile(path.join(dir, kind.file)).catch(() => null);
        return bytes && parseCacheFile(bytes, kind.name, fingerprint);
      },
      write: (kind, value, key) => writeCacheFile(path.join(dir, kind.file), encodeCacheFile(kind.name, fingerprint, value, { key, codec: kind.codec })),
      forget: (kind) => removeCacheFile(path.join(dir, kind.file)),
      async prune(folder, keep) {
        const names = await readdir(path.join(dir, folder)).catch(() => [] as string[]);
        await Promise.all(names.filter((name) => !keep.has(name)).map((name) => removeCacheFile(path.join(dir, folder, name))));
      },
    },
    fingerprint,
  );
}

/**
 * A memo that lives as long as the process: `dev`'s, from one edit to the next. It keeps values
 * as they were written, unencoded: decoding a language's search documents on every edit would
 * cost what the memo saves.
 */
export function memoryMemo(fingerprint: string): Memo {
  const values = new Map<string, { name: string; key: string; value: unknown }>();
  return memoOf(
    {
      async open(kind) {
        const kept = values.get(kind.file);
        if (!kept || kept.name !== kind.name) return null;
        return { key: kept.key, decode: <T>() => kept.value as T };
      },
      write: async (kind, value, key) => void values.set(kind.file, { name: kind.name, key, value }),
      forget: async (kind) => void values.delete(kind.file),
      async prune(folder, keep) {
        for (const file of values.keys()) if (path.posix.dirname(file) === folder && !keep.has(path.posix.basename(file))) values.delete(file);
      },
    },
    fingerprint,
  );
}

/** When a build's records are written back: whenever one changed, or only when enough did (rewrite-policy.ts). */
export type SavePolicy = 'on-change' | 'when-worth-it';

/**
 * The records of a kind that holds one per key (a derived file, a compressed copy's digests, a
 * body's facts, a page's search document, a bundle): the last build's, and those this build
 * used or made, which alone are saved, so the file never outgrows the site.
 */
export class Records<V> {
  private readonly used: Record<string, V> = {};
  /** Records this build made anew or changed. */
  private fresh = 0;

  private constructor(
    private readonly memo: Memo | null,
    private readonly kind: MemoKind<Record<string, V>>,
    private readonly key: string,
    private readonly stored: Readonly<Record<string, V>>,
  ) {}

  /**
   * The records `memo` holds of `kind`; none, and never saved, without a memo (a build without
   * the cache). `key`: what every record depends on besides its own key; records stored under
   * another are none.
   */
  static async open<V>(memo: Memo | null, kind: MemoKind<Record<string, V>>, key = ''): Promise<Records<V>> {
    return new Records(memo, kind, key, (memo && (await memo.read(kind, key))) ?? {});
  }

  /** The record of `key`, this build's or the last one's, without keeping it. */
  peek(key: string): V | undefined {
    return Object.hasOwn(this.used, key) ? this.used[key] : Object.hasOwn(this.stored, key) ? this.stored[key] : undefined;
  }

  /** The record of `key` if this build recalled or set it. */
  current(key: string): V | undefined {
    return Object.hasOwn(this.used, key) ? this.used[key] : undefined;
  }

  /** The record of `key`, kept as this build's. */
  recall(key: string): V | undefined {
    const value = this.peek(key);
    if (value !== undefined) this.used[key] = value;
    return value;
  }

  /** Keeps `value` as this build's record of `key`. */
  set(key: string, value: V): void {
    this.used[key] = value;
    if (!Object.hasOwn(this.stored, key) || !isDeepStrictEqual(this.stored[key], value)) this.fresh++;
  }

  /** Writes this build's records, by `policy`, when they are not the ones stored. */
  async save(policy: SavePolicy = 'on-change'): Promise<void> {
    if (!this.memo) return;
    const stored = Object.keys(this.stored).length;
    let kept = 0;
    for (const key in this.used) if (Object.hasOwn(this.stored, key)) kept++;
    const unused = stored - kept;
    if (this.fresh === 0 && unused === 0) return;
    if (policy === 'when-worth-it' && !worthRewriting({ stored, fresh: this.fresh, unused })) return;
    await this.memo.write(this.kind, this.used, this.key);
  }
}
