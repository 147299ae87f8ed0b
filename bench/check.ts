// Check time against build time: `ir-site check` builds into memory, then parses every page
// and runs every check. This prints both parts and their ratio, for the demo and for
// generated corpora (bench/corpus.ts), and the same check on the built folder (--dir).
//
//   npx tsx bench/check.ts [targets=demo,1000,4000] [runs=1]
//   npx tsx bench/check.ts 1000,4000
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { check } from '../src/commands/check/index.js';
import { build } from '../src/build/index.js';
import { generateCorpus } from './corpus.js';

process.env.NODE_ENV = 'production';
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const targets = (process.argv[2] ?? 'demo,1000,4000').split(',').filter(Boolean);
const runs = Number(process.argv[3] ?? 1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function siteFor(target: string): Promise<string> {
  if (target === 'demo') return REPO;
  const n = Number(target);
  const dir = path.join(REPO, 'bench', 'corpus', String(n));
  const articles = path.join(dir, 'content', 'articles');
  if (!existsSync(articles) || readdirSync(articles).length !== n) {
    console.log(`generating a corpus of ${n} articles per language in ${path.relative(process.cwd(), dir)}...`);
    await generateCorpus(n, dir);
  }
  return dir;
}

console.log('target        pages   build      check     check/build   check --dir');
for (const target of targets) {
  const root = await siteFor(target);
  const builds: number[] = [];
  const checks: number[] = [];
  let pages = 0;
  let findings = 0;
  for (let i = 0; i < runs; i++) {
    const result = await check({ root });
    if (!result.built) throw new Error(`${target}: the build failed`);
    builds.push(result.stats.buildMs!);
    checks.push(result.stats.checkMs);
    pages = result.stats.pages;
    findings = result.diagnostics.length;
  }
  // The same check on a folder on disk: read every page from the file system instead of memory.
  const out = await mkdtemp(path.join(tmpdir(), 'ir-bench-check-'));
  await build({ root, outDir: out });
  const dirChecks: number[] = [];
  for (let i = 0; i < runs; i++) dirChecks.push((await check({ root, dir: out })).stats.totalMs);
  await rm(out, { recursive: true, force: true });

  const build_ = median(builds);
  const check_ = median(checks);
  console.log(
    `${target.padEnd(10)} ${String(pages).padStart(7)}   ${s(build_).padStart(8)}   ${s(check_).padStart(8)}   ${`${((check_ / build_) * 100).toFixed(1)} %`.padStart(10)}   ${s(median(dirChecks)).padStart(10)}   (${findings} findings)`,
  );
}
console.log(`check = reading every page into facts and running every check (after the build into memory); check --dir = the whole run on a built folder, content compiled but not rendered. Median of ${runs} run(s). Peak RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB.`);
