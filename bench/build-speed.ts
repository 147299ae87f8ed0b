// Build speed of the real CLI against a yardstick: unified alone, on one core, turning
// the same markdown into HTML. Prints cold, warm (nothing changed) and one-article-change
// build times as medians and as ratios to the yardstick, peak memory, and PASS/FAIL
// against the targets. See bench/README.md for what each figure means.
//
//   npx tsx bench/build-speed.ts [N=4000] [runs=3] [--json]
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import matter from 'gray-matter';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { generateCorpus } from './corpus.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const json = process.argv.includes('--json');
const [nArg, runsArg] = process.argv.slice(2).filter((a) => a !== '--json');
const n = Number(nArg ?? 4000);
const runs = Number(runsArg ?? 3);
if (!(n > 0) || !(runs > 0)) throw new Error('usage: npx tsx bench/build-speed.ts [N=4000] [runs=3] [--json]');
const loadavg = os.loadavg()[0]!;
// Cold: the whole build on every core against unified alone on one (the markdown-pipeline issue's bound).
const TARGETS = { cold: 1.0, warm: 0.15, change: 0.1, peakMiB: 500 };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const stats = (ms: number[]) => ({ median: median(ms) / 1000, min: Math.min(...ms) / 1000, max: Math.max(...ms) / 1000 });

// 1. The corpus, reused when its marker says N (or, for corpora written before the marker, when it has N articles).
const root = path.join(REPO, 'bench', 'corpus', String(n));
const marker = path.join(root, '.bench-corpus.json');
const articlesDir = path.join(root, 'content', 'articles');
const markedN = existsSync(marker) ? (JSON.parse(await readFile(marker, 'utf8')) as { n: number }).n : null;
const reuse = markedN === n || (markedN === null && existsSync(articlesDir) && readdirSync(articlesDir).length === n);
if (!reuse) {
  console.log(`generating ${n} articles per language in ${path.relative(process.cwd(), root)}...`);
  await generateCorpus(n, root);
}
await writeFile(marker, JSON.stringify({ n }));
if (!existsSync(path.join(REPO, 'dist', 'src', 'commands', 'cli', 'index.js'))) throw new Error('dist/ is missing: run `npm run prepare` first');
const newest = async (pattern: string) => Math.max(...(await fg(pattern, { cwd: REPO, stats: true })).map((e) => e.stats!.mtimeMs));
if ((await newest('src/**/*.{ts,tsx}')) > (await newest('dist/cli/*.js'))) console.warn('warning: src/ is newer than dist/; run `npm run prepare` to measure the current code');

// 2. The yardstick: unified alone, in this process, over every markdown body (front matter stripped, untimed).
const files = await fg('content/**/*.md', { cwd: root, absolute: true });
const bodies = await Promise.all(files.map(async (f) => matter(await readFile(f, 'utf8')).content));
const bytes = bodies.reduce((sum, b) => sum + Buffer.byteLength(b), 0);
/** One pass of unified over every body, in milliseconds. */
function yardstickRun(gfm: boolean): number {
  const t0 = performance.now();
  const processor = gfm
    ? unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeStringify)
    : unified().use(remarkParse).use(remarkRehype).use(rehypeStringify);
  let out = 0;
  for (const body of bodies) out += String(processor.processSync(body)).length;
  if (out === 0) throw new Error('unified produced no HTML');
  return performance.now() - t0;
}
yardstickRun(true); // untimed warm-up
const yardCommonMark = Array.from({ length: runs }, () => yardstickRun(false));
// The GFM yardstick runs are taken between the cold builds (below), one before each, so a
// machine that slows down during the run (shared or throttled CPUs) weighs on both alike.
const yardGfm: number[] = [];

// 3. Builds: the real CLI in a child process, run as a program the way `ir-site build` and
// `npx ir-site build` run it (bin/ir-site.js through its shell line, not `node bin/ir-site.js`,
// which starts Node twice), under GNU time for the peak RSS (which counts worker threads).
const tmp = await mkdtemp(path.join(os.tmpdir(), 'ir-site-build-speed-'));
const outDir = path.join(tmp, 'out');
let pages: number | null = null;
async function build(): Promise<{ ms: number; rssKiB: number }> {
  const rssFile = path.join(tmp, 'rss');
  const args = ['-f', '%M', '-o', rssFile, path.join(REPO, 'bin', 'ir-site.js'), 'build', '--root', root, '--out', outDir, '--quiet'];
  const t0 = performance.now();
  const child = spawn('/usr/bin/time', args, { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let ms = 0;
  child.on('exit', () => (ms = performance.now() - t0));
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  if (code !== 0) throw new Error(`build failed (exit ${code}):\n${stderr}`);
  const built = /built (\d+) pages/.exec(stderr);
  if (built) pages = Number(built[1]);
  const rssKiB = Number((await readFile(rssFile, 'utf8')).trim().split('\n').at(-1));
  return { ms, rssKiB };
}
// Cold builds start without cache and output. Those of the previous run are moved aside and
// deleted only after the last build: on ext4 without a journal (this machine's disk), inodes
// freed in the last minutes are skipped when new ones are allocated, and skipping tens of
// thousands of them made every mkdir and file creation of the next build ~1 ms (measured with
// perf: recently_deleted() under ext4_mkdir/ext4_create). Deleting the previous output just
// before a cold build measures that, not the build.
const trash = path.join(tmp, 'trash');
let moved = 0;
async function moveAside(dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  const to = path.join(trash, String(moved++));
  await mkdir(trash, { recursive: true });
  try {
    await rename(dir, to);
  } catch {
    await rm(dir, { recursive: true, force: true }); // another file system: delete it after all
  }
}
const clean = async () => {
  await moveAside(path.join(root, '.ir-site', 'cache'));
  await moveAside(outDir);
};

const cold: Awaited<ReturnType<typeof build>>[] = [];
const warm: typeof cold = [];
const change: typeof cold = [];
const edited = path.join(articlesDir, fg.sync(`*-${Math.floor(n / 2)}`, { cwd: articlesDir, onlyDirectories: true })[0] ?? '', 'en.md');
const original = await readFile(edited, 'utf8');
try {
  for (let i = 0; i < runs; i++) {
    yardGfm.push(yardstickRun(true));
    await clean();
    cold.push(await build());
  }
  await build(); // prime: cache and output in place
  for (let i = 0; i < runs; i++) warm.push(await build());
  for (let i = 0; i < runs; i++) {
    await writeFile(edited, `${original.trimEnd()}\n\nBenchmark edit number ${i + 1} adds one more sentence.\n`);
    change.push(await build());
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await writeFile(edited, original);
  await rm(tmp, { recursive: true, force: true });
}
if (process.exitCode) process.exit();

// 4. Report.
const yard = median(yardGfm);
let commit: string | null = null;
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
} catch {}
const mib = (xs: { rssKiB: number }[]) => Math.max(...xs.map((x) => x.rssKiB)) / 1024;
const row = (target: number, ms: number[]) => {
  const s = stats(ms);
  return { ...s, ratio: s.median / (yard / 1000), target, pass: s.median / (yard / 1000) <= target };
};
const result = {
  n,
  runs,
  pages,
  markdownFiles: files.length,
  markdownBytes: bytes,
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown', node: process.version, loadavg },
  commit,
  yardstick: { gfm: stats(yardGfm), commonMarkOnly: stats(yardCommonMark) },
  cold: row(TARGETS.cold, cold.map((b) => b.ms)),
  warm: row(TARGETS.warm, warm.map((b) => b.ms)),
  change: row(TARGETS.change, change.map((b) => b.ms)),
  peakMiB: { cold: mib(cold), warm: mib(warm), target: TARGETS.peakMiB, pass: mib(cold) < TARGETS.peakMiB },
};

const f = (x: number) => x.toFixed(2).padStart(7);
const line = (label: string, s: { median: number; min: number; max: number }, rest = '') => console.log(`${label.padEnd(34)}${f(s.median)}${f(s.min)}${f(s.max)}${rest}`);
const verdict = (r: ReturnType<typeof row>) => `${r.ratio.toFixed(3).padStart(8)}   ≤ ${r.target.toFixed(2)}   ${r.pass ? 'PASS' : 'FAIL'}`;
console.log(`\ncorpus ${path.relative(process.cwd(), root)}: ${n} articles per language, ${pages ?? '?'} pages, ${files.length} markdown files (${(bytes / 2 ** 20).toFixed(1)} MiB of bodies)${reuse ? ', reused' : ''}`);
console.log(`machine: ${result.machine.cpus} × ${result.machine.model}, node ${process.version}, load average ${loadavg.toFixed(2)} at start; commit ${commit ?? 'unknown'}`);
console.log(`\nseconds, median of ${runs} (min, max)     median    min    max    ratio   target   result`);
line('yardstick: unified + GFM, 1 core', result.yardstick.gfm, '    1.000');
line('  (CommonMark only, for info)', result.yardstick.commonMarkOnly, `${(median(yardCommonMark) / yard).toFixed(3).padStart(9)}`);
line('cold build', result.cold, verdict(result.cold));
line('warm build, nothing changed', result.warm, verdict(result.warm));
line('one-article change', result.change, verdict(result.change));
const p = result.peakMiB;
console.log(`${'peak memory, max RSS of cold builds'.padEnd(34)}${p.cold.toFixed(0).padStart(7)} MiB (warm ${p.warm.toFixed(0)} MiB)     < ${p.target} MiB  ${p.pass ? 'PASS' : 'FAIL'}`);
if (json) console.log(JSON.stringify(result, null, 2));
