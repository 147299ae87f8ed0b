// Command-line wiring: flags -> options, printing, exit codes. Nothing else in ir-site
// reads argv or sets the exit code.
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { BuildResult } from '../../build/options-and-result.js';
import { DiagnosticsError, errorCount, formatDiagnostics, StrictBuildError } from '../../errors/diagnostic.js';
import { buildReporter, profileReport, seconds, stderrPrinter, upToDateReport, type Printer } from './reporter.js';
import type { ChangeReport } from '../server/dev-site.js';
import { VERSION } from '../../version.js';
import { messageOf, stackOf } from '../../errors/thrown.js';

/** Prints why a command failed and returns its exit code: 1 for problems a person can fix, 2 otherwise. */
export function reportFailure(printer: Printer, error: unknown): number {
  if (error instanceof DiagnosticsError) {
    printer.line(formatDiagnostics(error.diagnostics, { color: printer.color }));
    const n = errorCount(error.diagnostics);
    const strict = error instanceof StrictBuildError ? ' (--strict: warnings count as errors)' : '';
    const output = error.stage === 'commit' ? 'the output folder was updated part-way; the next build finishes the update first' : 'nothing was written, the previous output is untouched';
    printer.line(`\n${error.stage} failed: ${n} error${n === 1 ? '' : 's'}${strict}; ${output}.`);
    return 1;
  }
  printer.line(`ir-site: ${stackOf(error)}`);
  return 2;
}

/**
 * A command's exit code for `error`: an error of one of the `expected` kinds (the command's own
 * input: a busy port, a missing folder) is one line under the command's name and `code`; any
 * other is reported as reportFailure does.
 */
function commandFailure(command: string, error: unknown, expected: readonly (abstract new (...args: never[]) => Error)[], code = 1): number {
  const printer = stderrPrinter();
  if (!expected.some((kind) => error instanceof kind)) return reportFailure(printer, error);
  printer.line(`ir-site ${command}: ${messageOf(error)}`);
  return code;
}

/** What the summary line tells of a build, or of one that found the output up to date (build/up-to-date.ts). */
type Summarised = Pick<BuildResult, 'config' | 'pages' | 'redirects' | 'files' | 'outDir' | 'totalMs' | 'diagnostics'> & { render: Pick<BuildResult['render'], 'rendered' | 'kept'> };

function summary(result: Summarised): string {
  const rate = Math.round((result.pages / result.totalMs) * 1000);
  const out = result.outDir ? path.relative(process.cwd(), result.outDir) || '.' : 'memory';
  const { rendered, kept } = result.render;
  const reused = kept > 0 ? `, ${rendered} rendered, ${kept} unchanged` : '';
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning').length;
  const warned = warnings > 0 ? `; ${warnings} warning${warnings === 1 ? '' : 's'} (build --strict fails on them)` : '';
  return `built ${result.pages} pages${reused}, ${result.redirects} redirects and ${result.files} files for "${result.config.identityKey}" in ${seconds(result.totalMs)} (${rate} pages/s) -> ${out}/${warned}`;
}

/** The last build's result when the output is up to date; not when that cannot be told (the build then reports why). */
async function upToDate(opts: { root: string; site?: string; out?: string; drafts: boolean; cache: boolean }) {
  const { checkUpToDate } = await import('../../build/up-to-date.js');
  return checkUpToDate({ root: path.resolve(opts.root), site: opts.site, outDir: opts.out, drafts: opts.drafts, cache: opts.cache }).catch(() => ({ fresh: null, inputs: null, outputs: null }));
}

/** A whole number written in decimal digits, or NaN: `Number` would also take '', ' 8', '0x1F' and '1e3'. */
const decimal = (value: string) => (/^\d+$/.test(value) ? Number(value) : Number.NaN);

function workersArg(value: string): number {
  const n = decimal(value);
  if (!Number.isInteger(n) || n < 0 || n > 64) throw new InvalidArgumentError('expected a whole number of threads from 0 to 64');
  return n;
}

export function createProgram(): Command {
  const program = new Command()
    .name('ir-site')
    .description('Builds the bilingual investor-information website from markdown and YAML, rendered with React.')
    .version(VERSION, '-v, --version', 'print the ir-site version')
    .showHelpAfterError('(run ir-site --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .addHelpText(
      'after',
      `
Examples:
  $ ir-site build                     build the site in this folder into public/
  $ ir-site build --site larkspur     build the other site identity
  $ ir-site build --quiet             for CI: errors and one summary line only
  $ ir-site build --strict            fail on warnings too (broken links, missing translations)
  $ ir-site serve --port 3000         preview public/ at http://127.0.0.1:3000/
  $ ir-site dev                       edit content and see it in the browser at once
  $ ir-site check --strict            for CI: build into memory and check links, languages, redirects

Exit codes: 0 built (check: passed), 1 content or configuration errors (check: findings), 2 unexpected failure.
Docs: docs/ in the ir-site repository (content format, configuration, output).`,
    );
  addBuildCommand(program);
  addServeCommand(program);
  addDevCommand(program);
  addCheckCommand(program);
  return program;
}

/** `ir-site build`: exit 1 on errors, and with --strict on warnings too (nothing is then written). */
function addBuildCommand(program: Command): void {
  program
    .command('build')
    .description(
      'build the whole site into the output folder (public/ by default); a failed build leaves the previous output untouched. A rebuild renders only the pages whose inputs changed and writes only the files whose bytes changed (see docs/build-cache.md)',
    )
    .addOption(rootOption())
    .addOption(siteOption('build'))
    .option('--out <dir>', 'output folder, relative to the site folder (default: paths.out, "public")')
    .option('--drafts', 'also publish entries marked draft: true (normally dev only)', false)
    .option('--strict', 'fail (exit 1, nothing written) on warnings too: broken links and anchors, missing translations, hreflang problems', false)
    .addOption(new Option('-q, --quiet', 'print only errors, why the build waits (another build holds the site), and the final summary (for CI)').default(false))
    .option('--profile', 'print where the time went: each stage, pages rendered or unchanged, render threads, peak memory', false)
    .option('--no-cache', 'ignore and do not update the build cache (.ir-site/cache/build): render every page and rewrite every file')
    .addOption(new Option('--workers <n>', 'render threads (default: one per core when the site is large enough to pay for them; 0 renders in the main thread)').argParser(workersArg))
    .action(async (opts: { root: string; site?: string; out?: string; drafts: boolean; strict: boolean; quiet: boolean; profile: boolean; cache: boolean; workers?: number }) => {
      const printer = stderrPrinter();
      try {
        // Nothing changed since the last build: its result, without loading the content (or the build's code).
        const { fresh, inputs, outputs } = await upToDate(opts);
        if (fresh) {
          if (opts.strict && fresh.diagnostics.length > 0) throw new StrictBuildError(fresh.diagnostics);
          if (!opts.quiet && fresh.diagnostics.length > 0) printer.line(formatDiagnostics(fresh.diagnostics, { color: printer.color }));
          if (opts.profile) printer.line(upToDateReport(fresh));
          printer.line(summary({ ...fresh, render: { rendered: 0, kept: fresh.pages } }));
          return;
        }
        const { build } = await import('../../build/index.js');
        const result = await build({
          // Loaded when the build checks: a build whose bodies are as they were reports its last warnings.
          siteChecks: { run: async (...checked) => (await import('../check/site-warnings.js')).siteChecks.run(...checked) },
          root: path.resolve(opts.root),
          site: opts.site,
          outDir: opts.out,
          drafts: opts.drafts,
          strict: opts.strict,
          cache: opts.cache,
          workers: opts.workers,
          inputs,
          outputs,
          reporter: buildReporter(printer, { quiet: opts.quiet }),
        });
        if (!opts.quiet && result.diagnostics.length > 0) printer.line(formatDiagnostics(result.diagnostics, { color: printer.color }));
        if (opts.profile) printer.line(profileReport(result));
        printer.line(summary(result));
      } catch (error) {
        process.exitCode = reportFailure(printer, error);
      }
    });
}

function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve a built output folder on loopback the way a production host would: redirect rules, 404 pages per language, ETag/304, cache headers')
    .argument('[dir]', 'the output folder to serve', 'public')
    .addOption(hostOption())
    .addOption(portOption(8080))
    .action(async (dir: string, opts: { host: string; port: number }) => {
      const printer = stderrPrinter();
      try {
        const { serve } = await import('../server/serve.js');
        const running = await serve({ dir, host: opts.host, port: opts.port });
        printer.line(`serving ${path.relative(process.cwd(), path.resolve(dir)) || '.'}/ at ${running.url}/ (Ctrl+C to stop)`);
      } catch (error) {
        const { ListenError, ServeInputError } = await import('../server/serve.js');
        process.exitCode = commandFailure('serve', error, [ListenError, ServeInputError]);
      }
    });
}

function addDevCommand(program: Command): void {
  program
    .command('dev')
    .description('build into memory (drafts included), serve it, and on every edit rebuild only what changed and reload the open tab; errors show in the terminal and in the browser while the last good page stays served')
    .addOption(rootOption())
    .addOption(siteOption('serve in dev'))
    .addOption(hostOption())
    .addOption(portOption(8000))
    .action(async (opts: { root: string; site?: string; host: string; port: number }) => {
      const printer = stderrPrinter();
      // An unknown --site is no edit away from right: dev stops, as build does.
      let unknownSite = false;
      try {
        const { dev } = await import('../server/dev.js');
        const running = await dev({
          root: path.resolve(opts.root),
          site: opts.site,
          host: opts.host,
          port: opts.port,
          onReport: (report) => {
            unknownSite ||= report.kind === 'initial' && !report.ok && report.diagnostics.some((d) => d.field === '--site');
            printer.line(describeChange(report, printer));
          },
          onWarnings: (warnings) =>
            printer.line(warnings.length === 0 ? 'site checks: no warnings now' : `${formatDiagnostics(warnings, { color: printer.color })}\nsite checks: ${warnings.length} warning(s)`),
        });
        if (unknownSite) {
          await running.close();
          process.exitCode = 1;
          return;
        }
        printer.line(`ir-site dev: serving at ${running.url}/ (drafts shown; Ctrl+C to stop)`);
      } catch (error) {
        const { ListenError } = await import('../server/listen.js');
        process.exitCode = commandFailure('dev', error, [ListenError]);
      }
    });
}

function addCheckCommand(program: Command): void {
  program
    .command('check')
    .description('build the site into memory (or read a built folder) and check it: links and #anchors, translations, UI strings, hreflang, redirect rules, orphans, titles, descriptions, alt text')
    .addOption(rootOption())
    .option('--dir <folder>', 'check this already built output folder instead of building (relative to --root); the content is still read to point findings at their sources')
    .addOption(siteOption('check'))
    .option('--external', 'also fetch every external link (HEAD, then GET; 8 s timeout, 8 at a time); without it they are only listed and nothing goes on the network', false)
    .option('--strict', 'fail (exit 1) on warnings too, not only on errors', false)
    .addOption(new Option('--format <format>', 'human: grouped findings and a summary line; json: one JSON document on stdout, for tools').choices(['human', 'json']).default('human'))
    .addHelpText(
      'after',
      `
Each finding names the page that shows it, the source file and line it comes from, and a hint.
Exit codes: 0 no errors (no warnings either with --strict), 1 findings that fail the check (or a --dir that cannot be checked), 2 unexpected failure.
Rules and examples: docs/check.md.`,
    )
    .action(async (opts: { root: string; dir?: string; site?: string; external: boolean; strict: boolean; format: 'human' | 'json' }) => {
      // Each command loads its own modules: a build does not pay for the checker's HTML parser or dev's watcher.
      const { check, CheckInputError } = await import('../check/index.js');
      const { formatHuman, formatJson, passed } = await import('../check/report.js');
      try {
        const result = await check({ root: path.resolve(opts.root), dir: opts.dir, site: opts.site, external: opts.external });
        const color = opts.format === 'human' && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
        process.stdout.write(`${opts.format === 'json' ? formatJson(result, opts.strict) : formatHuman(result, { color, strict: opts.strict })}\n`);
        process.exitCode = passed(result, opts.strict) ? 0 : 1;
      } catch (error) {
        process.exitCode = commandFailure('check', error, [CheckInputError]);
      }
    });
}

function describeChange(report: ChangeReport, printer: Printer): string {
  const ms = `${Math.round(report.ms)} ms`;
  if (!report.ok) {
    return `${formatDiagnostics(report.diagnostics, { color: printer.color })}
${report.kind}: ${errorCount(report.diagnostics)} error(s); ${report.kind === 'initial' ? 'every page shows them until an edit fixes them' : 'still serving the last good build'}`;
  }
  const pages = report.changedPaths === '*' ? 'every page' : `${report.changedPaths.length} page${report.changedPaths.length === 1 ? '' : 's'}`;
  const warnings = report.diagnostics.filter((d) => d.severity === 'warning');
  const shown = warnings.length > 0 ? `${formatDiagnostics(warnings, { color: printer.color })}
` : '';
  return `${shown}${report.kind === 'initial' ? 'built' : `${report.kind} change: rebuilt`} ${pages} in ${ms}`;
}

// Options several commands share, defined once so their help reads the same everywhere.
const rootOption = () => new Option('--root <dir>', 'the site folder, holding site.config.ts, content/, locales/, config/ and templates/').default('.');
const siteOption = (verb: string) =>
  new Option('--site <identity>', `the site identity to ${verb}, a key of \`identities\` in site.config.ts (default: the config's \`identity\`)`);
const hostOption = () => new Option('--host <host>', 'address to listen on (loopback by default; 0.0.0.0 exposes it to the network)').default('127.0.0.1');
const portOption = (port: number) => new Option('-p, --port <port>', 'port to listen on (0 picks a free one)').argParser(parsePort).default(port);

function parsePort(value: string): number {
  const port = decimal(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return port;
}

export async function main(argv: string[]): Promise<void> {
  await createProgram().parseAsync(argv);
}
