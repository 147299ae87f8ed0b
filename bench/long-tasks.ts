// The long tasks of a first load, and what runs in them: what Lighthouse's total blocking time
// adds up, with names. Each page loads once in Debian Chromium at a CPU slowdown (4x, as
// Lighthouse's mobile preset), traced and sampled together; every main-thread task of 50 ms
// or more is printed with its longest trace events (layout, module evaluation, idle
// callbacks...) and the functions that took most of its samples (`name@file:line:column` of the
// minified chunk: esbuild's names, so look the column up in the built file).
//
//   npx tsx bench/long-tasks.ts [outDir=public] [sitePath ...] [--slowdown=4] [--min=50]
//
// Build first (`node bin/ir-site.js build`); the pages are served by `ir-site serve`.
import path from 'node:path';
import { serve } from '../src/commands/server/serve.js';
import { launchBrowser } from '../test/e2e/browser.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const positional = args.filter((a) => !a.startsWith('--'));
const out = path.resolve(positional[0] ?? 'public');
const pages = positional.length > 1 ? positional.slice(1) : ['/', '/your-team/hmercier/', '/search/'];
const slowdown = option('slowdown', 4);
const minMs = option('min', 50);

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string; data?: { url?: string; functionName?: string } } }
interface CpuProfile { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[]; startTime: number; samples: number[]; timeDeltas: number[] }

/** Self time per function among the samples taken in [from, to] (microseconds). */
function functionsIn(profile: CpuProfile, from: number, to: number): string {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > to) return;
    const f = frames.get(id)!;
    if (f.functionName === '(idle)') return;
    const key = `${f.functionName || '(anonymous)'}@${f.url.split('/').pop() ?? ''}:${f.lineNumber}:${f.columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`).join(', ');
}

const server = await serve({ dir: out, port: 0 });
const browser = await launchBrowser({ viewport: { width: 412, height: 823 } });
try {
  for (const sitePath of pages) {
    const page = await browser.context.newPage();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,v8.execute,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
    await page.goto(`${server.url}${sitePath}`, { waitUntil: 'load' });
    // Hydration, the navigation chunk and the first prefetches come after `load`.
    await page.waitForTimeout(5000);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    await cdp.send('Tracing.end');
    await complete;

    const mainThreads = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
    const main = events.filter((e) => mainThreads.has(`${e.pid}:${e.tid}`) && e.ph === 'X' && e.dur !== undefined);
    const start = Math.min(...main.map((e) => e.ts));
    const tasks = main.filter((e) => e.name === 'RunTask' && e.dur! >= minMs * 1000).sort((a, b) => a.ts - b.ts);
    const blocking = tasks.reduce((sum, t) => sum + t.dur! / 1000 - 50, 0);
    console.log(`${sitePath}: ${tasks.length} tasks of ${minMs} ms or more at ${slowdown}x, ${blocking.toFixed(0)} ms over 50 ms in all (from navigation start, so before the first paint too)`);
    for (const task of tasks) {
      const inside = main
        .filter((e) => e !== task && e.name !== 'RunTask' && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur! && e.dur! >= 3000)
        .sort((a, b) => b.dur! - a.dur!)
        .slice(0, 4)
        .map((e) => `${e.name}${e.args?.data?.url ? ` ${e.args.data.url.split('/').pop()}` : ''} ${(e.dur! / 1000).toFixed(0)}`);
      console.log(`  at ${((task.ts - start) / 1000).toFixed(0).padStart(5)} ms  ${(task.dur! / 1000).toFixed(0).padStart(4)} ms  ${inside.join(', ')}`);
      const functions = functionsIn(profile, task.ts, task.ts + task.dur!);
      if (functions) console.log(`                          ${functions}`);
    }
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
