// One shape for every problem a person can fix, and one way to print it.
// Content and config errors are values, not stack traces: they carry the
// file, line and field, what was expected, and a hint.
import { RULES, type RuleId, type RuleInfo, type SeverityOf } from './rules.js';
import { byText } from '../shared/order.js';

export type Severity = 'error' | 'warning';

/** A problem a person can fix: its rule, where it is (file, line, column, field), what is wrong, and how to fix it. */
export interface Diagnostic {
  severity: Severity;
  /** Stable rule id from the catalogue (rules.ts), e.g. `content/invalid-date`, `graph/duplicate-slug`. */
  rule: RuleId;
  /** Path relative to the site root, with forward slashes. */
  file: string;
  line?: number;
  column?: number;
  /** The front-matter field or config key concerned, e.g. `date`, `documents[1].file`. */
  field?: string;
  message: string;
  /** The offending source line, shown under the location. */
  excerpt?: string;
  hint?: string;
}

/** What a call site says about a problem; the rule's catalogue entry fills in the rest. */
export type DiagnosticFields<R extends RuleId> = Partial<Omit<Diagnostic, 'rule' | 'severity'>> &
  // A rule with one severity has it from the catalogue; an `either` rule's call site must choose.
  (SeverityOf<R> extends 'either' ? { severity: Severity } : { severity?: never });

/**
 * A diagnostic of `rule`: the catalogue's severity, and its hint unless the call site gives a
 * better one (computed from the data: the known values, the nearest match). Other fields, such
 * as a check finding's `page`, pass through.
 */
export function diagnostic<R extends RuleId, F extends DiagnosticFields<R>>(
  rule: R,
  fields: F,
): Omit<NoInfer<F>, 'severity' | 'hint'> & { rule: R; severity: Severity; hint: string } {
  // The type allows catalogue ids only; this is for JavaScript callers and stale data.
  const entry: RuleInfo | undefined = RULES[rule];
  if (!entry) throw new Error(`unknown rule "${rule}": every diagnostic names a rule of src/errors/rules.ts`);
  const { severity: given, hint, ...rest } = fields;
  const severity = entry.severity === 'either' ? (given as Severity) : entry.severity;
  return { severity, rule, ...rest, hint: hint ?? entry.hint } as Omit<F, 'severity' | 'hint'> & { rule: R; severity: Severity; hint: string };
}

/**
 * The part of a run that failed, as the CLI names it (`build failed: 3 errors`): `configuration`
 * (site.config.ts), `build` (the content: reading, validating, the site graph), `templates` and
 * `client bundle` (bundling), `render` (a page), `emit` (a file written after the pages).
 */
export type FailedStage = 'configuration' | 'build' | 'templates' | 'client bundle' | 'render' | 'emit' | 'commit';

/** Thrown by a stage that found problems a person must fix; carries all of them, and the stage. */
export class DiagnosticsError extends Error {
  readonly diagnostics: Diagnostic[];
  readonly stage: FailedStage;
  constructor(diagnostics: Diagnostic[], stage: FailedStage) {
    const errors = errorCount(diagnostics);
    super(`${stage} failed with ${errors} error${errors === 1 ? '' : 's'}`);
    this.name = 'DiagnosticsError';
    this.diagnostics = diagnostics;
    this.stage = stage;
  }
}

/** `build --strict` refusing warnings: they are carried as errors, and nothing was written. */
export class StrictBuildError extends DiagnosticsError {
  constructor(warnings: readonly Diagnostic[]) {
    super(warnings.map((d) => ({ ...d, severity: 'error' as const })), 'build');
    this.name = 'StrictBuildError';
  }
}

export function errorCount(diagnostics: readonly Diagnostic[]): number {
  return diagnostics.filter((d) => d.severity === 'error').length;
}

/** Sorts by file, then line, so a run's report reads top to bottom like the sources. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => byText(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || byText(a.rule, b.rule),
  );
}

export function location(d: Pick<Diagnostic, 'file' | 'line' | 'column'>): string {
  let at = d.file;
  if (d.line !== undefined) at += `:${d.line}`;
  if (d.line !== undefined && d.column !== undefined) at += `:${d.column}`;
  return at;
}

export interface FormatOptions {
  color: boolean;
}

/**
 * Astro-style report:
 *   content/articles/q2/fr.md:4:7  error  invalid date (date)
 *     date: 2025-13-45
 *           ^ expected a calendar date YYYY-MM-DD
 *     hint: dates are in the ISO form, e.g. 2025-06-30
 */
export function formatDiagnostic(d: Diagnostic, { color }: FormatOptions): string {
  const paint = (code: string, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const sev = d.severity === 'error' ? paint('31', 'error') : paint('33', 'warning');
  const field = d.field ? paint('2', ` (${d.field})`) : '';
  const lines = [`${paint('1', location(d))}  ${sev}  ${d.message}${field}`];
  if (d.excerpt !== undefined) {
    lines.push(`    ${d.excerpt}`);
    if (d.column !== undefined) lines.push(`    ${' '.repeat(Math.max(0, d.column - 1))}${paint('31', '^')}`);
  }
  if (d.hint) lines.push(`    ${paint('36', 'hint:')} ${d.hint}`);
  return lines.join('\n');
}

/** The report a person reads: each diagnostic as `file:line:column  severity  message`, its excerpt and hint, sorted by file and line. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  return sortDiagnostics(diagnostics)
    .map((d) => formatDiagnostic(d, options))
    .join('\n\n');
}
