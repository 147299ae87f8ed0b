// Site search: index size per language (raw and gzip) and, in Chromium, the time from
// "the search page asks for the index" to "the first results are known" (fetch, parse,
// load, first query), median of several runs, each in a fresh browser context (no cache).
//
//   npx tsx bench/search.ts [runs=7] [articles=4000] [--compare]
//
// Three sites per language:
//   - demo:    this repository's content;
//   - corpus:  bench/corpus.ts with N articles per language (generated if missing). Its
//              bodies use a 20-word vocabulary, so every word is in every article: the
//              worst case for a query (every document matches), the best case for size;
//   - varied:  N documents whose bodies are 450-word runs of the demo's real text (about
//              4800 distinct words per language), plus a few rare words each: closer to
//              real articles' vocabulary, so closer to a real index size.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile, mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as esbuild } from 'esbuild';
import fg from 'fast-glob';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/config/load.js';
import { loadContent } from '../src/content/load.js';
import { validateContent } from '../src/content/validate.js';
import { buildGraph } from '../src/graph/index.js';
import { serve } from '../src/server/serve.js';
import { searchDocuments, type SearchDocument } from '../src/search/documents.js';
import MiniSearch from 'minisearch';
import { buildSearchIndex, SEARCH_FIELDS } from '../src/search/index.js';
import { markdownText } from '../src/search/markdown-text.js';
import { indexTermProcessor, searchLanguage, tokenize } from '../src/search/text.js';
import { generateCorpus } from './corpus.js';

process.env.NODE_ENV = 'production';
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
/** `--compare`: also time MiniSearch's own JSON serialization of the same documents. */
const compare = process.argv.includes('--compare');
const runs = Number(args[0] ?? 7);
const articles = Number(args[1] ?? 4000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

async function siteDocuments(root: string): Promise<Map<string, SearchDocument[]>> {
  const config = await loadConfig({ root });
  const loaded = await loadContent(config);
  const site = validateContent(loaded.raw, config).site;
  return searchDocuments(buildGraph(site, config, { includeDrafts: false }).routes);
}

/** N documents made of real sentences from the demo (deterministic). */
async function variedDocuments(locale: string, n: number): Promise<SearchDocument[]> {
  const files = await fg(`content/**/${locale}.md`, { cwd: REPO, absolute: true });
  const words: string[] = [];
  for (const f of files.sort()) words.push(...markdownText((await readFile(f, 'utf8')).replace(/^---[\s\S]*?\n---\n/, '')).text.split(/\s+/).filter(Boolean));
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const types = ['commentary', 'news', 'press-release', 'insight', 'annual-report'];
  return Array.from({ length: n }, (_, i) => {
    const at = Math.floor(rand() * (words.length - 500));
    const run = (from: number, len: number) => words.slice(at + from, at + from + len).join(' ');
    return {
      locale,
      title: `${run(0, 6)} ${i}`,
      summary: run(10, 25),
      body: `${run(0, 450)} ticker${i % 1500} name${(i * 7) % 3000} ref${i}`,
      path: `/${locale === 'fr' ? 'fr/' : ''}article/doc-${i}/`,
      type: types[i % types.length]!,
      sections: [i % 2 ? 'insights' : 'news-and-events'],
      date: `20${10 + (i % 15)}-0${1 + (i % 9)}-1${i % 9}`,
    };
  });
}

interface Run {
  fetch: number;
  load: number;
  query: number;
  total: number;
  hits: number;
  others: { ms: number; hits: number }[];
}

interface Case {
  name: string;
  locale: string;
  file: string;
  queries: string[];
}

const QUERIES: Record<string, string[]> = {
  en: ['dividend', 'companies retur', 'sharehlders'],
  fr: ['société', "l'entreprise", 'rendemnt'],
};

const outDir = await mkdtemp(path.join(os.tmpdir(), 'ir-site-search-bench-'));
try {
  const corpusDir = path.join(REPO, 'bench', 'corpus', String(articles));
  if (!existsSync(path.join(corpusDir, 'site.config.ts'))) await generateCorpus(articles, corpusDir);
  const sites: [string, () => Promise<Map<string, SearchDocument[]>>][] = [
    ['demo', () => siteDocuments(REPO)],
    [`corpus-${articles}`, () => siteDocuments(corpusDir)],
    [`varied-${articles}`, async () => new Map([['en', await variedDocuments('en', articles)], ['fr', await variedDocuments('fr', articles)]])],
  ];
  const cases: Case[] = [];
  console.log('index sizes (what /search-index/<locale>.json weighs):');
  for (const [name, documents] of sites) {
    for (const [locale, docs] of await documents()) {
      const t0 = performance.now();
      const json = JSON.stringify(buildSearchIndex(locale, docs));
      const ms = performance.now() - t0;
      const file = `${name}.${locale}.json`;
      await writeFile(path.join(outDir, file), json);
      // The same documents through MiniSearch's own toJSON, for comparison.
      const native = new MiniSearch({ fields: [...SEARCH_FIELDS], storeFields: ['title', 'summary', 'path', 'type', 'sections', 'date'], tokenize, processTerm: indexTermProcessor(searchLanguage(locale)) });
      native.addAll(docs.map((d, id) => ({ ...d, id })));
      const nativeJson = JSON.stringify(native);
      await writeFile(path.join(outDir, `native.${file}`), nativeJson);
      console.log(
        `  ${`${name} ${locale}`.padEnd(18)} ${String(docs.length).padStart(5)} documents  ${kib(json.length).padStart(9)} raw  ${kib(gzipSync(json, { level: 6 }).length).padStart(8)} gzip   built in ${ms.toFixed(0)} ms` +
          `   (MiniSearch's own JSON: ${kib(nativeJson.length)} raw, ${kib(gzipSync(nativeJson, { level: 6 }).length)} gzip)`,
      );
      // Last, a narrow query: a company name in the demo's text, an article number in the corpus.
      cases.push({ name, locale, file, queries: [...(QUERIES[locale] ?? QUERIES.en!), name.startsWith('corpus') ? '1003' : 'aurelle'] });
    }
  }

  // The engine as the search page loads it (its own chunk in the site).
  const entry = path.join(outDir, 'entry.ts');
  await writeFile(
    entry,
    `import { SearchIndex } from ${JSON.stringify(path.join(REPO, 'src/search/engine.ts'))};
import { indexTermProcessor, searchLanguage, tokenize } from ${JSON.stringify(path.join(REPO, 'src/search/text.ts'))};
import MiniSearch from 'minisearch';
(window as any).benchNative = async (url: string, locale: string, query: string) => {
  const t0 = performance.now();
  const text = await (await fetch(url, { cache: 'no-store' })).text();
  const t1 = performance.now();
  const process = indexTermProcessor(searchLanguage(locale));
  const index = MiniSearch.loadJSON(text, { fields: ['title', 'summary', 'body'], storeFields: ['title', 'summary', 'path', 'type', 'sections', 'date'], tokenize, processTerm: process });
  const t2 = performance.now();
  const hits = index.search(query, { prefix: true, fuzzy: 0.2, maxFuzzy: 2, combineWith: 'AND', processTerm: (t) => { const p = process(t); return Array.isArray(p) ? p[0] : p; } }).length;
  const t3 = performance.now();
  return { fetch: t1 - t0, load: t2 - t1, query: t3 - t2, total: t3 - t0, hits, others: [] };
};
(window as any).benchSearch = async (url: string, queries: string[]) => {
  const t0 = performance.now();
  const text = await (await fetch(url, { cache: 'no-store' })).text();
  const t1 = performance.now();
  const index = SearchIndex.load(JSON.parse(text));
  const t2 = performance.now();
  const first = index.search(queries[0]!, { limit: 20 });
  const t3 = performance.now();
  const others = queries.slice(1).map((q) => { const a = performance.now(); const r = index.search(q, { limit: 20 }); return { ms: performance.now() - a, hits: r.total }; });
  return { fetch: t1 - t0, load: t2 - t1, query: t3 - t2, total: t3 - t0, hits: first.total, others };
};`,
  );
  const bundle = await esbuild({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, absWorkingDir: REPO, nodePaths: [path.join(REPO, 'node_modules')] });
  const js = bundle.outputFiles[0]!.contents;
  await writeFile(path.join(outDir, 'engine.js'), js);
  await writeFile(path.join(outDir, 'index.html'), '<!doctype html><html lang="en"><title>bench</title><script type="module" src="/engine.js"></script>');
  await mkdir(path.join(outDir, 'page-data'), { recursive: true });
  console.log(`\nsearch engine JS (MiniSearch + stemmers + compact loader): ${kib(js.length)} minified, ${(gzipSync(js, { level: 9 }).length / 1024).toFixed(1)} KiB gzip`);

  const server = await serve({ dir: outDir, port: 0 });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    console.log(`\nin Chromium, median of ${runs} fresh loads (fetch from loopback, no cache); load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores:`);
    for (const c of cases) {
      const results: Run[] = [];
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${server.url}/index.html`);
        await page.waitForFunction(() => 'benchSearch' in window);
        results.push(await page.evaluate(([url, queries]) => (window as any).benchSearch(url, queries) as Promise<Run>, [`/${c.file}`, c.queries] as const));
        await context.close();
      }
      const m = (k: 'fetch' | 'load' | 'query' | 'total') => median(results.map((r) => r[k])).toFixed(1).padStart(6);
      const others = c.queries.slice(1).map((q, i) => `"${q}" ${median(results.map((r) => r.others[i]!.ms)).toFixed(1)} ms (${results[0]!.others[i]!.hits})`).join(', ');
      console.log(`  ${`${c.name} ${c.locale}`.padEnd(18)} total ${m('total')} ms = fetch ${m('fetch')} + load ${m('load')} + first query ${m('query')} ("${c.queries[0]}", ${results[0]!.hits} hits); then ${others}`);
      // The same with a narrow first query (a name): what most searches cost.
      const narrow: Run[] = [];
      const narrowQuery = c.queries[c.queries.length - 1]!;
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${server.url}/index.html`);
        await page.waitForFunction(() => 'benchSearch' in window);
        narrow.push(await page.evaluate(([url, queries]) => (window as any).benchSearch(url, queries) as Promise<Run>, [`/${c.file}`, [narrowQuery]] as const));
        await context.close();
      }
      const w = (k: 'fetch' | 'load' | 'query' | 'total') => median(narrow.map((r) => r[k])).toFixed(1).padStart(6);
      console.log(`  ${''.padEnd(18)} narrow first query: total ${w('total')} ms = fetch ${w('fetch')} + load ${w('load')} + first query ${w('query')} ("${narrowQuery}", ${narrow[0]!.hits} hits)`);
      if (compare) {
        const native: Run[] = [];
        for (let i = 0; i < runs; i++) {
          const context = await browser.newContext();
          const page = await context.newPage();
          await page.goto(`${server.url}/index.html`);
          await page.waitForFunction(() => 'benchNative' in window);
          native.push(await page.evaluate(([url, locale, query]) => (window as any).benchNative(url, locale, query) as Promise<Run>, [`/native.${c.file}`, c.locale, c.queries[0]!] as const));
          await context.close();
        }
        const n = (k: 'fetch' | 'load' | 'query' | 'total') => median(native.map((r) => r[k])).toFixed(1).padStart(6);
        console.log(`  ${''.padEnd(18)} MiniSearch's own JSON: total ${n('total')} ms = fetch ${n('fetch')} + load ${n('load')} + first query ${n('query')}`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  await rm(outDir, { recursive: true, force: true });
}
