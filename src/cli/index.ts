// Command-line wiring: flags -> options, printing, exit codes. Nothing else in ir-site
// reads argv or sets the exit code.
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { build, type BuildResult } from '../core/build.js';
import { DiagnosticsError, errorCount, formatDiagnostics } from '../errors/diagnostic.js';
import { buildReporter, seconds, stderrPrinter, type Printer } from './reporter.js';
import { dev } from '../server/dev.js';
import type { ChangeReport } from '../server/dev-site.js';
import { serve } from '../server/serve.js';
import { VERSION } from '../version.js';

function reportFailure(printer: Printer, error: unknown): number {
  if (error instanceof DiagnosticsError) {
    printer.line(formatDiagnostics(error.diagnostics, { color: printer.color }));
    const n = errorCount(error.diagnostics);
    printer.line(`\n${error.message.replace(/ failed.*/, '')} failed: ${n} error${n === 1 ? '' : 's'}; nothing was written, the previous output is untouched.`);
    return 1;
  }
  printer.line(`ir-site: ${(error as Error).stack ?? String(error)}`);
  return 2;
}

function summary(result: BuildResult): string {
  const rate = Math.round((result.pages / result.totalMs) * 1000);
  const out = result.outDir ? path.relative(process.cwd(), result.outDir) || '.' : 'memory';
  return `built ${result.pages} pages, ${result.redirects} redirects and ${result.files} files for "${result.config.identityKey}" in ${seconds(result.totalMs)} (${rate} pages/s) -> ${out}/`;
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
  $ ir-site serve --port 3000         preview public/ at http://127.0.0.1:3000/
  $ ir-site dev                       edit content and see it in the browser at once

Exit codes: 0 built, 1 content or configuration errors (all listed), 2 unexpected failure.
Docs: docs/ in the ir-site repository (content format, configuration, output).`,
    );

  program
    .command('build')
    .description('build the whole site into the output folder (public/ by default); a failed build leaves the previous output untouched')
    .option('--root <dir>', 'the site folder, holding site.config.ts, content/, locales/, config/ and templates/', '.')
    .option('--site <identity>', 'the site identity to build, a key of `identities` in site.config.ts (default: the config\'s `identity`)')
    .option('--out <dir>', 'output folder, relative to the site folder (default: paths.out, "public")')
    .option('--drafts', 'also publish entries marked draft: true (normally dev only)', false)
    .addOption(new Option('-q, --quiet', 'print only errors and the final summary (for CI)').default(false))
    .action(async (opts: { root: string; site?: string; out?: string; drafts: boolean; quiet: boolean }) => {
      const printer = stderrPrinter();
      try {
        const result = await build({
          root: path.resolve(opts.root),
          site: opts.site,
          outDir: opts.out,
          drafts: opts.drafts,
          reporter: buildReporter(printer, { quiet: opts.quiet }),
        });
        if (!opts.quiet && result.diagnostics.length > 0) printer.line(formatDiagnostics(result.diagnostics, { color: printer.color }));
        printer.line(summary(result));
      } catch (error) {
        process.exitCode = reportFailure(printer, error);
      }
    });

  program
    .command('serve')
    .description('serve a built output folder on loopback the way a production host would: redirect rules, 404 pages per language, ETag/304, cache headers')
    .argument('[dir]', 'the output folder to serve', 'public')
    .option('--host <host>', 'address to listen on (loopback by default; 0.0.0.0 exposes it to the network)', '127.0.0.1')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', parsePort, 8080)
    .action(async (dir: string, opts: { host: string; port: number }) => {
      const printer = stderrPrinter();
      try {
        const running = await serve({ dir, host: opts.host, port: opts.port });
        printer.line(`serving ${path.relative(process.cwd(), path.resolve(dir)) || '.'}/ at ${running.url}/ (Ctrl+C to stop)`);
      } catch (error) {
        printer.line(`ir-site serve: ${(error as Error).message}`);
        process.exitCode = 1;
      }
    });

  program
    .command('dev')
    .description('build into memory (drafts included), serve it, and on every edit rebuild only what changed and reload the open tab; errors show in the terminal and in the browser while the last good page stays served')
    .option('--root <dir>', 'the site folder, holding site.config.ts, content/, locales/, config/ and templates/', '.')
    .option('--site <identity>', 'the site identity to build, a key of `identities` in site.config.ts')
    .option('--host <host>', 'address to listen on (loopback by default)', '127.0.0.1')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', parsePort, 8000)
    .action(async (opts: { root: string; site?: string; host: string; port: number }) => {
      const printer = stderrPrinter();
      try {
        const running = await dev({
          root: path.resolve(opts.root),
          site: opts.site,
          host: opts.host,
          port: opts.port,
          onReport: (report) => printer.line(describeChange(report, printer)),
        });
        printer.line(`ir-site dev: serving at ${running.url}/ (drafts shown; Ctrl+C to stop)`);
      } catch (error) {
        process.exitCode = reportFailure(printer, error);
      }
    });

  return program;
}

function describeChange(report: ChangeReport, printer: Printer): string {
  const ms = `${Math.round(report.ms)} ms`;
  if (!report.ok) {
    return `${formatDiagnostics(report.diagnostics, { color: printer.color })}
${report.kind}: ${errorCount(report.diagnostics)} error(s); still serving the last good build`;
  }
  const pages = report.changedPaths === '*' ? 'every page' : `${report.changedPaths.length} page${report.changedPaths.length === 1 ? '' : 's'}`;
  const warnings = report.diagnostics.filter((d) => d.severity === 'warning');
  const shown = warnings.length > 0 ? `${formatDiagnostics(warnings, { color: printer.color })}
` : '';
  return `${shown}${report.kind === 'initial' ? 'built' : `${report.kind} change: rebuilt`} ${pages} in ${ms}`;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return port;
}

export async function main(argv: string[]): Promise<void> {
  await createProgram().parseAsync(argv);
}
