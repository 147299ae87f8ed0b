// Edit-to-rewritten-page latency of `ir-site dev`: from writing a content file to the
// dev server answering that page with the new text. Median and p90 of repeated edits,
// for body edits (the common case) and title edits (front matter: lists change too).
//
//   npx tsx bench/dev-latency.ts [N=1000,4000] [edits=15]
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { dev } from '../src/commands/server/dev.js';
import { generateCorpus } from './corpus.js';

process.env.NODE_ENV = 'production';
const sizes = (process.argv[2] ?? '1000,4000').split(',').map(Number);
const edits = Number(process.argv[3] ?? 15);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

// The client that asks for the page until it shows the edit runs on a thread of its own, as a
// browser is a process of its own: on dev's thread, its requests and their parsing would take
// turns with the rebuild it waits for. Times are since the epoch (ms), comparable across threads.
const client = new Worker(
  `
  const { parentPort } = require('node:worker_threads');
  const now = () => performance.timeOrigin + performance.now();
  parentPort.on('message', async ({ url, marker, since }) => {
    for (;;) {
      // A busy server may drop a kept-alive connection; that is a retry, not a failure.
      const body = await fetch(url).then((r) => r.text(), () => '');
      if (body.includes(marker)) return parentPort.postMessage({ ms: now() - since });
      if (now() - since > 20000) return parentPort.postMessage({ error: url + ' never showed ' + marker });
      await new Promise((r) => setTimeout(r, 1));
    }
  });
  `,
  { eval: true },
);
const epochNow = () => performance.timeOrigin + performance.now();

function waitFor(url: string, marker: string, since: number): Promise<number> {
  return new Promise((resolve, reject) => {
    client.once('message', (reply: { ms?: number; error?: string }) => (reply.error ? reject(new Error(reply.error)) : resolve(reply.ms!)));
    client.postMessage({ url, marker, since });
  });
}

for (const n of sizes) {
  const root = path.resolve('bench', 'corpus', String(n));
  if (!existsSync(path.join(root, 'site.config.ts'))) await generateCorpus(n, root);
  const t0 = performance.now();
  const running = await dev({
    root,
    port: 0,
    onReport: (r) => process.env.BENCH_VERBOSE && console.error(`  [${r.kind}] ${Math.round(r.ms)} ms, ${r.changedPaths === '*' ? 'all' : r.changedPaths.length} pages`),
  });
  await running.ready;
  const startup = performance.now() - t0;
  const pages = running.site.compiled?.graph.routes.length ?? 0;

  const measure = async (kind: 'body' | 'title') => {
    const times: number[] = [];
    for (let i = 0; i < edits; i++) {
      const index = (i * 37) % n;
      const type = ['commentary', 'press-release', 'video', 'annual-report', 'circular', 'issuer-bid', 'redemption-notice', 'investment-notice', 'news', 'insight'][index % 10];
      const file = path.join(root, 'content/articles', `bench-${type}-${index}`, 'en.md');
      const source = await readFile(file, 'utf8');
      const slug = /^slug: (.*)$/m.exec(source)![1]!;
      const marker = `edit-${kind}-${Date.now()}-${i}`;
      const next = kind === 'body' ? `${source}\n${marker}\n` : source.replace(/^title: .*$/m, `title: "${marker}"`);
      const since = epochNow();
      await writeFile(file, next);
      times.push(await waitFor(`${running.url}/article/${slug}/`, marker, since));
      await sleep(150); // past the watcher's throttle window, so edits do not merge
    }
    return times;
  };
  const body = await measure('body');
  const title = await measure('title');
  const rss = process.memoryUsage().rss / 2 ** 20;
  await running.close();
  const fmt = (xs: number[]) => `median ${quantile(xs, 0.5).toFixed(1)} ms, p90 ${quantile(xs, 0.9).toFixed(1)} ms`;
  console.log(`N=${n} articles/language (${pages} pages), first build ${(startup / 1000).toFixed(1)} s, RSS ${rss.toFixed(0)} MiB`);
  console.log(`  body edit  -> page served: ${fmt(body)} (${edits} edits)`);
  console.log(`  title edit -> page served: ${fmt(title)} (${edits} edits)`);
}
await client.terminate();
