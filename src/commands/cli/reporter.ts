// Progress and summaries on stderr: a live line on a terminal, a few plain lines in CI.
import type { BuildReporter, BuildResult, Stage } from '../../build/options-and-result.js';
import type { UpToDate } from '../../build/up-to-date.js';

export interface Printer {
  color: boolean;
  line(text: string): void;
}

export function stderrPrinter(): Printer {
  return { color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR, line: (t) => process.stderr.write(`${t}\n`) };
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function buildReporter(printer: Printer, { quiet }: { quiet: boolean }): BuildReporter {
  // A notice says why the build waits (another holds the site): kept by --quiet, or a CI job's
  // build would sit silent for minutes.
  const notice = (message: string) => printer.line(message);
  if (quiet) return { notice };
  const live = Boolean(process.stderr.isTTY);
  let lastQuarter = -1;
  return {
    notice,
    progress(done, total, elapsedMs) {
      const rate = elapsedMs > 0 ? Math.round((done / elapsedMs) * 1000) : 0;
      const text = `  rendering ${done}/${total} pages (${rate} pages/s)`;
      if (live) {
        process.stderr.write(`\r${text}${done === total ? '\n' : ''}`);
        return;
      }
      const quarter = Math.floor((done / total) * 4);
      if (quarter !== lastQuarter || done === total) {
        lastQuarter = quarter;
        printer.line(text);
      }
    },
  };
}

/** Every stage has its note: a stage added to `Stage` without one does not compile. */
const STAGE_NOTES: Record<Stage, string> = {
  config: 'site.config.ts bundled and checked',
  load: 'content files read, front matter parsed',
  validate: 'front matter checked against the schemas',
  images: 'images resized and encoded, alongside load (or taken from the cache): the wait left',
  graph: 'routes, listings, alternates, redirects, shared data',
  templates: 'templates bundled for the server and the browser (alongside load: the wait left)',
  render: 'markdown compiled, pages rendered with React, written and compressed by the workers; meanwhile sitemap, redirects and other shared files, and their .br/.gz copies',
  check: 'site checks on the rendered bodies’ links and ids: links and anchors, translations, hreflang (run when a body’s links or ids, or the site’s pages, changed)',
  emit: 'search indexes and offline worker, and the .br/.gz copies still being made (and what is left of the shared files)',
  commit: 'output folder swapped in or updated in place',
};

/** `build --profile`: where the time went, stage by stage, and what the cache saved. */
export function profileReport(result: BuildResult): string {
  const total = result.totalMs;
  const lines = ['profile:'];
  for (const [stage, ms] of Object.entries(result.timings) as [Stage, number][]) {
    const share = total > 0 ? Math.round((ms / total) * 100) : 0;
    lines.push(`  ${stage.padEnd(10)} ${seconds(ms).padStart(8)} ${`${share}%`.padStart(4)}  ${STAGE_NOTES[stage]}`);
  }
  const { rendered, kept, reused, workers } = result.render;
  lines.push(`  pages      ${rendered} rendered (${reused} with their unchanged body taken from the previous output), ${kept} unchanged and left as they were`);
  const threads =
    workers > 0
      ? `${workers} render worker thread${workers === 1 ? '' : 's'}, which wrote ${result.render.writtenByWorkers} of the page files themselves`
      : rendered > 0
        ? 'rendered on the main thread'
        : 'none started: nothing to render';
  lines.push(`  threads    ${threads}`);
  const snapshot = {
    same: 'graph taken from the last build (front matter, images, site files and configuration as then): nothing validated',
    headlines: "graph taken from the last build, with articles' new titles and descriptions put in (nothing else changed): nothing else validated",
    none: 'graph validated and built (its inputs changed, or no snapshot yet)',
  };
  lines.push(`  snapshot   ${snapshot[result.graphFromSnapshot ?? 'none']}`);
  lines.push(
    `  keys       ${result.render.dataKeysKnown ? 'route data keys from the previous build, but for the routes a headline edit replaced (only bodies and headlines changed, if anything)' : 'every route hashed (no previous build, or its front matter, images or configuration changed)'}`,
  );
  if (result.outputUnchanged) lines.push('  output     as the last build left it: the same inputs, and every file it wrote still in place; nothing rendered or written');
  lines.push(`  images     ${result.images.processed} processed, ${result.images.cached} from the cache`);
  const { server, client } = result.bundles;
  const bundles = server && client ? 'server templates and browser bundle from the cache (no file esbuild read for them changed)' : server || client ? `${server ? 'server templates' : 'browser bundle'} from the cache, ${server ? 'browser bundle' : 'server templates'} bundled by esbuild` : 'server templates and browser bundle bundled by esbuild';
  lines.push(`  bundles    ${bundles}`);
  lines.push(...usageLines(total));
  return lines.join('\n');
}

function usageLines(totalMs: number): string[] {
  const usage = process.resourceUsage();
  return [
    `  cpu        ${seconds((usage.userCPUTime + usage.systemCPUTime) / 1000)} (user + system, all threads; wall ${seconds(totalMs)})`,
    `  memory     ${(usage.maxRSS / 1024).toFixed(0)} MiB peak (resident, all threads)`,
  ];
}

/** `build --profile` when the output was up to date. */
export function upToDateReport(result: UpToDate): string {
  const { inputs, outputs } = result.checked;
  return [
    'profile:',
    `  output     up to date: the configuration, the ${inputs} input files and the ${outputs} output files as the last build recorded them; nothing loaded, rendered or written`,
    ...usageLines(result.totalMs),
  ].join('\n');
}
