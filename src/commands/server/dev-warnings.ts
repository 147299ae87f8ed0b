// The warnings `dev` shows (broken links and anchors, missing translations, hreflang): the
// change's own, and the site checks run on the current graph with each body as its page shows
// it (DevSite.bodyFactsOf). After a change that compiles they run at once, and its report carries
// them. An edit that kept the graph (a body, a headline) validates nothing, and the checks read the whole
// graph, so they run SEARCH_REFRESH_MS after the last such edit, like the search index: the
// edited page is served and reloaded first.
import type { ResolvedConfig } from '../../build/config/resolve.js';
import type { SiteGraph } from '../../build/graph/model.js';
import { formatDiagnostics, type Diagnostic } from '../../errors/diagnostic.js';
import { quickCheck } from '../check/quick.js';
import { SEARCH_REFRESH_MS, type ChangeReport, type DevSite } from './dev-site.js';

/** The warnings of the site as it now is: the change's own, and the site checks run on the current graph. */
function currentWarnings(reported: readonly Diagnostic[], graph: SiteGraph, config: ResolvedConfig, factsOf: DevSite['bodyFactsOf']): Diagnostic[] {
  return [...reported.filter((d) => d.severity === 'warning'), ...quickCheck(graph, config, factsOf)];
}

/** A change that kept the last graph, or its frame with new headlines (dev-site.ts): no path changed. */
export const keptGraph = (report: ChangeReport) => report.kind === 'body' || report.kind === 'headline';

export class DevWarnings {
  /** The warnings as last checked. */
  current: Diagnostic[] = [];
  private compileFindings: Diagnostic[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** `changed`: the delayed checks found other warnings than the last report carried. */
  constructor(
    private readonly site: DevSite,
    private readonly changed: (warnings: Diagnostic[]) => void,
  ) {}

  /** The warnings as the terminal and the overlay show them. */
  message(): string {
    return formatDiagnostics(this.current, { color: false });
  }

  /** After a change that built: its warnings and the checks', or after an edit that kept the graph the checks soon (`current` is then the last check's). */
  afterChange(report: ChangeReport): void {
    this.compileFindings = report.diagnostics;
    clearTimeout(this.timer);
    if (!keptGraph(report)) {
      this.check();
      return;
    }
    this.timer = setTimeout(() => void this.site.exclusive(() => this.checkAgain()).catch((error: unknown) => console.error(error)), SEARCH_REFRESH_MS);
    this.timer.unref();
  }

  close(): void {
    clearTimeout(this.timer);
  }

  private check(): void {
    const { compiled, config } = this.site;
    this.current = compiled && config ? currentWarnings(this.compileFindings, compiled.graph, config, this.site.bodyFactsOf) : [];
  }

  private async checkAgain(): Promise<void> {
    if (this.site.errors.length > 0) return;
    const before = this.message();
    this.check();
    if (this.message() !== before) this.changed(this.current);
  }
}
