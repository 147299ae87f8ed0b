// Progress and summaries on stderr: a live line on a terminal, a few plain lines in CI.
import type { BuildReporter } from '../core/build.js';

export interface Printer {
  color: boolean;
  line(text: string): void;
}

export function stderrPrinter(): Printer {
  return { color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR, line: (t) => process.stderr.write(`${t}\n`) };
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function buildReporter(printer: Printer, { quiet }: { quiet: boolean }): BuildReporter {
  if (quiet) return {};
  const live = Boolean(process.stderr.isTTY);
  let lastQuarter = -1;
  return {
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
