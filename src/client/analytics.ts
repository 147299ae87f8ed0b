// The tag-manager data layer (RUNTIME.md "Analytics"), as Gatsby's tag-manager plugin
// fills it: a route-change event after every render, core web vitals, printing. The layer
// is a plain array, so it works with the container blocked or not configured at all.
import { onCLS, onINP, onLCP } from 'web-vitals';
import type { IntegrationsConfig } from '../shared/types.js';
import { loadScript } from './integrations.js';

export interface Analytics {
  /** Call after every route update, including the first render. */
  routeUpdated(): void;
}

type Push = (entry: Record<string, unknown>) => void;

export interface VitalsMetric {
  name: string;
  id: string;
  value: number;
}

/** The pushed record: value rounded, CLS (a small fraction) times 1000 first so it survives rounding. */
export function vitalsEntry({ name, id, value }: VitalsMetric): Record<string, unknown> {
  return { event: 'core-web-vitals', webVitalsMeasurement: { name, id, value: Math.round(name === 'CLS' ? value * 1000 : value) } };
}

/**
 * `report` pushes a metric at most once per page load (per name). `debounced` waits until
 * the metric has not changed for `wait` ms and reports the last value: CLS and LCP change
 * while the page loads. `flush` reports what is still waiting (the page is being hidden,
 * maybe closed: the last chance to push).
 */
export function createVitalsReporter(push: Push, wait = 3000) {
  const sent = new Set<string>();
  const pending = new Map<string, { metric: VitalsMetric; timer: ReturnType<typeof setTimeout> }>();
  const report = (metric: VitalsMetric): void => {
    if (sent.has(metric.name)) return;
    sent.add(metric.name);
    push(vitalsEntry(metric));
  };
  const fire = (name: string): void => {
    const entry = pending.get(name);
    if (!entry) return;
    clearTimeout(entry.timer);
    pending.delete(name);
    report(entry.metric);
  };
  const debounced = (metric: VitalsMetric): void => {
    const previous = pending.get(metric.name);
    if (previous) clearTimeout(previous.timer);
    // Copy: web-vitals updates one metric object in place.
    const copy = { name: metric.name, id: metric.id, value: metric.value };
    pending.set(metric.name, { metric: copy, timer: setTimeout(() => fire(metric.name), wait) });
  };
  const flush = (): void => [...pending.keys()].forEach(fire);
  return { report, debounced, flush };
}

/** A web-vitals-style id for metrics we measure ourselves. */
const metricId = () => `v6-${Date.now()}-${Math.floor(Math.random() * 8999999999999) + 1e12}`;

export function createAnalytics(config: IntegrationsConfig['tagManager'], options?: { production?: boolean }): Analytics {
  const name = config.dataLayerName || 'dataLayer';
  const w = window as unknown as Record<string, unknown[] | undefined>;
  // Keep an existing layer (the page or the container may have pushed already), and look it
  // up on every push: the container wraps the array's push, the array stays the same.
  w[name] ??= [];
  const push: Push = (entry) => void (w[name] ??= []).push(entry);

  const id = config.containerId;
  if (id) {
    // The script runs in a later task, so `gtm.js` is still the first thing it reads.
    const src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}&l=${encodeURIComponent(name)}`;
    if (loadScript(src)) push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  }

  addEventListener('beforeprint', () => push({ event: 'printPage', pageTitle: document.title }));

  if (options?.production !== false) {
    const { report, debounced, flush } = createVitalsReporter(push);
    onCLS(debounced, { reportAllChanges: true });
    onLCP(debounced, { reportAllChanges: true });
    // INP is final only when the page is hidden; web-vitals reports it then.
    onINP(report);

    // FID: web-vitals 5+ no longer measures it, but browsers that still record the
    // `first-input` entry let us, as web-vitals did: only for input before the page was hidden.
    // (A prerendered page is 'hidden' until shown: that does not count.)
    let hiddenAt = document.visibilityState === 'hidden' && !(document as { prerendering?: boolean }).prerendering ? 0 : Infinity;
    addEventListener(
      'visibilitychange',
      (event) => {
        if (document.visibilityState !== 'hidden') return;
        hiddenAt = Math.min(hiddenAt, event.timeStamp);
        flush();
      },
      true,
    );
    if (window.PerformanceObserver?.supportedEntryTypes?.includes('first-input')) {
      new PerformanceObserver((list) => {
        const entry = list.getEntries()[0] as PerformanceEventTiming | undefined;
        if (entry && entry.startTime < hiddenAt) {
          report({ name: 'FID', id: metricId(), value: entry.processingStart - entry.startTime });
        }
      }).observe({ type: 'first-input', buffered: true });
    }
  }

  return {
    routeUpdated() {
      // 50 ms: the new page's title is in place by then (Gatsby's delay).
      setTimeout(() => push({ event: config.routeChangeEvent || 'gatsby-route-change' }), 50);
    },
  };
}
