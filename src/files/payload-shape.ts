// The shape checks of cache payloads: readCacheFile's `accept` (files/cache-file.ts). The
// envelope and checksum prove that some ir-site wrote a payload, not that it has the shape this
// one reads: a build of other code with the same fingerprint, or a crafted file, can hold a
// number where a string was. Every field a reader dereferences or writes out is checked for
// type, so such a file is a miss like any damaged one.
//
// Payloads are described with zod, but the entries of a record with one per content file,
// output file or page are checked with typeof tests (`checked`, `recordOf`): a warm build reads
// them all, and zod over tens of thousands of records is a large part of that build (figures
// in bench/HISTORY.md). Tables of files are kept in columns (incremental/file-table.ts),
// checked with a loop over their names.
import * as z from 'zod';

/**
 * A check that types what it accepts. Invariant in T (the phantom field): a check of a number
 * cannot stand for one of an optional number, which must also accept undefined.
 */
export type Guard<T> = ((value: unknown) => value is T) & { readonly type?: (value: T) => T };

/** readCacheFile's `accept` for `schema`. */
export const accepts =
  <S extends z.ZodType>(schema: S) =>
  (value: unknown): value is z.output<S> =>
    schema.safeParse(value).success;

/**
 * `schema`, when its output is exactly `T`: for a payload whose type is declared elsewhere, a
 * field added to one and not to the other fails to compile.
 */
export const schemaOf =
  <T>() =>
  <S extends z.ZodType>(schema: S & (Same<T, z.output<S>> extends true ? unknown : never)): S =>
    schema;

/** Each assignable to the other, with the same fields (an optional field missing from one is still assignable). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? ([keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false) : false) : false;

/** An object as JSON.parse and v8.deserialize make them: not an array, Map, Date or class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A plain object every value of which `isEntry` accepts. */
export function recordOf<T>(isEntry: Guard<T>): Guard<Record<string, T>> {
  return (value): value is Record<string, T> => {
    if (!isPlainObject(value)) return false;
    for (const key in value) if (!isEntry(value[key])) return false;
    return true;
  };
}

/** A part of a zod schema checked by `guard`: typeof tests where a record has an entry per content file, output file or page (see above). */
export const checked = <T>(guard: Guard<T>) => z.custom<T>(guard);

/**
 * `true` when `Checked` names every field of T: next to a check written out field by field (for
 * its cost), so that a field added to T cannot go unchecked.
 */
export type AllFields<T, Checked extends keyof T> = [Exclude<keyof T, Checked>] extends [never] ? true : { unchecked: Exclude<keyof T, Checked> };

/** An unchecked value's fields, under the names T gives them. */
export type Unchecked<T> = { readonly [K in keyof T]-?: unknown };

export const isString: Guard<string> = (value): value is string => typeof value === 'string';
/** A finite number, as z.number() accepts (v8's codec can carry NaN). */
export const isNumber: Guard<number> = (value): value is number => Number.isFinite(value);
export const isStringArray: Guard<string[]> = (value): value is string[] => Array.isArray(value) && value.every(isString);
export const isNumberArray: Guard<number[]> = (value): value is number[] => Array.isArray(value) && value.every(isNumber);
