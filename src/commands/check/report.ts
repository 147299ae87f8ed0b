// The check's report: for people (grouped by rule, coloured on a terminal, one summary
// line) and for tools (--format json). Pure: a result in, text out.
import { formatDiagnostic, sortDiagnostics } from '../../errors/diagnostic.js';
import type { CheckResult, Finding } from './index.js';
import { byText } from '../../shared/order.js';

export const counts = (findings: readonly Finding[]) => ({
  errors: findings.filter((f) => f.severity === 'error').length,
  warnings: findings.filter((f) => f.severity === 'warning').length,
});

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Whether the check passes: no error, and with `strict` no warning either. */
export function passed(result: CheckResult, strict = false): boolean {
  const { errors, warnings } = counts(result.diagnostics);
  return errors === 0 && (!strict || warnings === 0);
}

/** `check: 2 errors, 1 warning in 136 pages (1.42 s)`, and why it fails when only `strict` makes it. */
export function summaryLine(result: CheckResult, strict = false): string {
  const { errors, warnings } = counts(result.diagnostics);
  const where = result.built ? ` in ${plural(result.stats.pages, 'page')}` : '; the build failed, so no page was checked';
  const why = errors === 0 && !passed(result, strict) ? ' (--strict: warnings count as errors)' : '';
  return `check: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${where} (${(result.stats.totalMs / 1000).toFixed(2)} s)${why}`;
}

const CATEGORY_ORDER = ['links', 'languages', 'redirects', 'site'];
const categoryRank = (rule: string) => {
  const i = CATEGORY_ORDER.indexOf(rule.split('/')[0]!);
  return i === -1 ? CATEGORY_ORDER.length : i;
};

export interface HumanOptions {
  color: boolean;
  /** `--strict`: warnings fail the check too. */
  strict?: boolean;
}

/** One finding: location, severity, message; the page it shows on; the source line; the hint. */
export function formatFinding(f: Finding, { color }: HumanOptions): string {
  const text = formatDiagnostic(f, { color });
  if (!f.page) return text;
  const more = f.morePages ? ` (and ${plural(f.morePages, 'other page')})` : '';
  const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[0m` : s);
  const [first, ...rest] = text.split('\n');
  return [first, `    ${dim('on')} ${f.page}${more}`, ...rest].join('\n');
}

export function formatHuman(result: CheckResult, options: HumanOptions): string {
  const paint = (code: string, s: string) => (options.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const groups = new Map<string, Finding[]>();
  for (const f of sortDiagnostics(result.diagnostics) as Finding[]) groups.set(f.rule, [...(groups.get(f.rule) ?? []), f]);
  const rules = [...groups.keys()].sort((a, b) => categoryRank(a) - categoryRank(b) || byText(a, b));
  const blocks: string[] = [];
  for (const rule of rules) {
    const list = groups.get(rule)!;
    const { errors, warnings } = counts(list);
    const tally = [errors ? paint('31', plural(errors, 'error')) : '', warnings ? paint('33', plural(warnings, 'warning')) : ''].filter(Boolean).join(', ');
    blocks.push(`${paint('1;4', rule)}  ${tally}\n\n${list.map((f) => formatFinding(f, options)).join('\n\n')}`);
  }
  const external = result.external.length;
  if (result.built && external > 0) {
    const fetched = result.externalFetched ? 'fetched' : 'listed, not fetched (--external checks them; --format json lists them)';
    blocks.push(paint('2', `${plural(external, 'external link')} ${fetched}`));
  }
  blocks.push(summaryLine(result, options.strict));
  return blocks.join('\n\n');
}

/** The JSON report: stable keys for tools. `ok` is the exit code's verdict (`strict`: warnings fail too); times in whole milliseconds. */
export function formatJson(result: CheckResult, strict = false): string {
  const { errors, warnings } = counts(result.diagnostics);
  const ms = (value: unknown) => (typeof value === 'number' ? Math.round(value) : value);
  const { phases, buildMs, checkMs, totalMs, ...stats } = result.stats;
  return JSON.stringify(
    {
      ok: passed(result, strict),
      strict,
      errors,
      warnings,
      built: result.built,
      stats: { ...stats, phases: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, ms(v)])), buildMs: ms(buildMs), checkMs: ms(checkMs), totalMs: ms(totalMs) },
      findings: sortDiagnostics(result.diagnostics),
      external: result.external.map((e) => ({ url: e.url, pages: e.pages, file: e.origin.file, line: e.origin.line })),
    },
    null,
    2,
  );
}
