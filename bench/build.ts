// Build time of a site, as the median of several cold builds, with per-stage medians.
//
//   npx tsx bench/build.ts [siteDir=. (the demo)] [runs=5]
//   npx tsx bench/corpus.ts 1000 && npx tsx bench/build.ts bench/corpus/1000 3
import path from 'node:path';
import type { Stage } from '../src/build/index.js';

// Before React loads (imports are hoisted, so the build is imported after this line runs).
process.env.NODE_ENV = 'production';
const { build } = await import('../src/build/index.js');
const { MemorySink } = await import('../src/build/emit/sink.js');
const root = path.resolve(process.argv[2] ?? '.');
const runs = Number(process.argv[3] ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const totals: number[] = [];
const stages: Partial<Record<Stage, number[]>> = {};
let pages = 0;
for (let i = 0; i < runs; i++) {
  const result = await build({ root, sink: new MemorySink(), cache: false });
  totals.push(result.totalMs);
  pages = result.pages;
  for (const [stage, ms] of Object.entries(result.timings)) (stages[stage as Stage] ??= []).push(ms);
}
const total = median(totals);
console.log(`${path.relative(process.cwd(), root) || '.'}: ${pages} pages, median of ${runs} builds (in memory): ${(total / 1000).toFixed(2)} s, ${Math.round((pages / total) * 1000)} pages/s`);
for (const [stage, ms] of Object.entries(stages)) console.log(`  ${stage.padEnd(10)} ${median(ms).toFixed(0).padStart(6)} ms`);
console.log(`  peak RSS   ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB (at exit)`);
