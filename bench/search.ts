// Site search: index size per language (raw and gzip: the base file, and all the files) and,
// in Chromium, the time from "the search page asks for the index" to "the first results are
// known" (fetch and parse the base, load it, then prepare the first query: fetch the postings
// shards and stored-documents files it needs, and answer), median of several runs, each in a
// fresh browser context (no cache), with the bytes that first query made the page download.
//
//   npx tsx bench/search.ts [runs=7] [articles=4000] [--compare] [--baseline=<checkout>]
//
// `--compare` also times one MiniSearch per language in its own JSON (`toJSON`, no stored
// fields: the results' fields would come from the stored-documents file either way) loaded
// whole with `loadJSON`: the alternative to the sharded files. `--baseline=<dir>` also times
// the engine (src/search) of another checkout of ir-site on the same files (its `npm ci`
// done; the index format must be the same), each run of it right after one of this
// checkout's, so that both see the same machine load: before/after figures on a shared machine.
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
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build as esbuild } from 'esbuild';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/build/config/load.js';
import { loadContent } from '../src/build/content/load.js';
import { validateContent } from '../src/build/content/validate.js';
import { buildGraph } from '../src/build/graph/index.js';
import { serve } from '../src/commands/server/serve.js';
import { textReader } from '../src/build/bodies.js';
import { bodyCompiler } from '../src/build/render/index.js';
import { searchDocument, searchDocuments, type SearchDocument } from '../src/features/search/documents.js';
import MiniSearch from 'minisearch';
import { buildSearchIndex, SEARCH_FIELDS } from '../src/features/search/index.js';
import { indexTermProcessor, searchLanguage, tokenize } from '../src/features/search/text.js';
import { generateCorpus } from './corpus.js';

process.env.NODE_ENV = 'production';
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
/** `--compare`: also time MiniSearch's own JSON serialization of the same documents. */
const compare = process.argv.includes('--compare');
/** `--baseline=<dir>`: another checkout whose engine runs on the same files, interleaved. */
const baseline = process.argv.find((a) => a.startsWith('--baseline='))?.slice('--baseline='.length) ?? null;
if (baseline && !existsSync(path.join(baseline, 'src/features/search/engine.ts'))) throw new Error(`--baseline: no src/features/search/engine.ts in ${baseline}`);
const runs = Number(args[0] ?? 7);
const articles = Number(args[1] ?? 4000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

async function siteDocuments(root: string): Promise<Map<string, SearchDocument[]>> {
  const config = await loadConfig({ root });
  const loaded = await loadContent(config);
  const site = validateContent(loaded.raw, config).site;
  // Each document reads its body as the page shows it: compiled by the markdown pipeline.
  const routes = buildGraph(site, config, { includeDrafts: false }).routes.map(textReader(config));
  const compile = bodyCompiler(config.markdown, config.root);
  const trees = new Map(await Promise.all(routes.map(async (r) => [r.path, r.markdown ? (await compile(r.markdown, r.path)).tree : null] as const)));
  return searchDocuments(routes, (route) => searchDocument(route, trees.get(route.path)));
}

/** N documents made of real sentences from the demo (deterministic). */
async function variedDocuments(locale: string, n: number): Promise<SearchDocument[]> {
  const words = ((await siteDocuments(REPO)).get(locale) ?? []).flatMap((d) => d.body.split(/\s+/).filter(Boolean));
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

interface Fetched {
  /** Files fetched (site paths), in order. */
  files: string[];
}

interface Run extends Fetched {
  fetch: number;
  load: number;
  query: number;
  total: number;
  hits: number;
  others: ({ ms: number; hits: number } & Fetched)[];
}

interface Case {
  name: string;
  locale: string;
  /** Site path of the base file. */
  base: string;
  /** Site path of the folder of the other files. */
  dir: string;
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
  /** Site path -> [raw bytes, gzip bytes] of every index file written. */
  const sizes = new Map<string, [number, number]>();
  const put = async (sitePath: string, text: string) => {
    await mkdir(path.dirname(path.join(outDir, sitePath)), { recursive: true });
    await writeFile(path.join(outDir, sitePath), text);
    sizes.set(sitePath, [Buffer.byteLength(text), gzipSync(text, { level: 6 }).length]);
  };
  console.log('index sizes (the base /search-index/<locale>.json, and all its files):');
  for (const [name, documents] of sites) {
    for (const [locale, docs] of await documents()) {
      const t0 = performance.now();
      const { base, files } = buildSearchIndex(locale, docs);
      const json = JSON.stringify(base);
      const ms = performance.now() - t0;
      const basePath = `/${name}/search-index/${locale}.json`;
      const dir = `/${name}/search-index/${locale}`;
      await put(basePath, json);
      let raw = sizes.get(basePath)![0];
      let gzip = sizes.get(basePath)![1];
      for (const [file, text] of files) {
        await put(`${dir}/${file}`, text);
        raw += sizes.get(`${dir}/${file}`)![0];
        gzip += sizes.get(`${dir}/${file}`)![1];
      }
      const shards = base.shards.length;
      let native = '';
      if (compare) {
        // The same documents through MiniSearch's own toJSON (the index alone), for comparison.
        const mini = new MiniSearch({ fields: [...SEARCH_FIELDS], tokenize, processTerm: indexTermProcessor(searchLanguage(locale)) });
        mini.addAll(docs.map((d, id) => ({ ...d, id })));
        const nativeJson = JSON.stringify(mini);
        await writeFile(path.join(outDir, `native.${name}.${locale}.json`), nativeJson);
        native = `   (MiniSearch's own JSON: ${kib(nativeJson.length)} raw, ${kib(gzipSync(nativeJson, { level: 6 }).length)} gzip)`;
      }
      console.log(
        `  ${`${name} ${locale}`.padEnd(18)} ${String(docs.length).padStart(5)} documents, ${String(base.terms.length).padStart(6)} terms  base ${kib(sizes.get(basePath)![0]).padStart(8)} raw ${kib(sizes.get(basePath)![1]).padStart(7)} gzip;` +
          `  all ${files.size + 1} files (${shards} shards) ${kib(raw).padStart(9)} raw ${kib(gzip).padStart(8)} gzip   built in ${ms.toFixed(0)} ms${native}`,
      );
      // Last, a narrow query: a company name in the demo's text, an article number in the corpus.
      cases.push({ name, locale, base: basePath, dir, queries: [...(QUERIES[locale] ?? QUERIES.en!), name.startsWith('corpus') ? '1003' : 'aurelle'] });
    }
  }
  /** `n files, raw / gzip` for a list of fetched site paths. */
  const weight = (files: string[]) => {
    let raw = 0;
    let gzip = 0;
    for (const f of files) {
      const [r, g] = sizes.get(f) ?? [0, 0];
      raw += r;
      gzip += g;
    }
    return `${files.length} files, ${kib(raw)} raw / ${kib(gzip)} gzip`;
  };

  // The engine as the search page loads it (its own chunk in the site).
  const entry = path.join(outDir, 'entry.ts');
  await writeFile(
    entry,
    `import { SearchIndex } from ${JSON.stringify(path.join(REPO, 'src/features/search/engine.ts'))};
${baseline ? `import { SearchIndex as BaselineIndex } from ${JSON.stringify(path.join(baseline, 'src/features/search/engine.ts'))};` : 'const BaselineIndex = null;'}
import { indexTermProcessor, searchLanguage, tokenize } from ${JSON.stringify(path.join(REPO, 'src/features/search/text.ts'))};
import MiniSearch from 'minisearch';
(window as any).benchNative = async (url: string, locale: string, query: string) => {
  const t0 = performance.now();
  const text = await (await fetch(url, { cache: 'no-store' })).text();
  const t1 = performance.now();
  const process = indexTermProcessor(searchLanguage(locale));
  const index = MiniSearch.loadJSON(text, { fields: ['title', 'summary', 'body'], tokenize, processTerm: process });
  const t2 = performance.now();
  const hits = index.search(query, { prefix: true, fuzzy: 0.2, maxFuzzy: 2, combineWith: 'AND', processTerm: (t) => { const p = process(t); return Array.isArray(p) ? p[0] : p; } }).length;
  const t3 = performance.now();
  return { fetch: t1 - t0, load: t2 - t1, query: t3 - t2, total: t3 - t0, hits, files: [url], others: [] };
};
// As the search page does (templates/lib/search-client.ts), without the HTTP cache.
(window as any).benchSearch = async (base: string, dir: string, queries: string[], engine = 'this') => {
  const Engine = (engine === 'baseline' ? BaselineIndex : SearchIndex) as typeof SearchIndex;
  const files: string[] = [];
  const get = async (url: string) => {
    files.push(url);
    const response = await fetch(url, { cache: 'no-store' });
    if (!response.ok) throw new Error(url + ' answered ' + response.status);
    return response;
  };
  const t0 = performance.now();
  const text = await (await get(base)).text();
  const t1 = performance.now();
  const index = Engine.load(JSON.parse(text), async (file: string) => (await get(dir + '/' + file)).text());
  index.prefetchDocuments();
  const t2 = performance.now();
  const first = await index.prepare(queries[0]!, { limit: 20 });
  const t3 = performance.now();
  const firstFiles = files.splice(0);
  const others = [];
  for (const q of queries.slice(1)) {
    const a = performance.now();
    const r = await index.prepare(q, { limit: 20 });
    others.push({ ms: performance.now() - a, hits: r.total, files: files.splice(0) });
  }
  return { fetch: t1 - t0, load: t2 - t1, query: t3 - t2, total: t3 - t0, hits: first.total, files: firstFiles, others };
};`,
  );
  const bundle = await esbuild({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, absWorkingDir: REPO, nodePaths: [path.join(REPO, 'node_modules')] });
  // The baseline's engine is bundled apart too, only to print its size.
  const baselineJs = baseline
    ? (
        await esbuild({
          stdin: { contents: `export { SearchIndex } from ${JSON.stringify(path.join(baseline, 'src/features/search/engine.ts'))};`, resolveDir: baseline, loader: 'ts' },
          bundle: true,
          minify: true,
          format: 'esm',
          platform: 'browser',
          write: false,
        })
      ).outputFiles[0]!.contents
    : null;
  const js = bundle.outputFiles[0]!.contents;
  await writeFile(path.join(outDir, 'engine.js'), js);
  await writeFile(path.join(outDir, 'index.html'), '<!doctype html><html lang="en"><title>bench</title><script type="module" src="/engine.js"></script>');
  await mkdir(path.join(outDir, 'page-data'), { recursive: true });
  const engineJs = (
    await esbuild({ stdin: { contents: `export { SearchIndex } from ${JSON.stringify(path.join(REPO, 'src/features/search/engine.ts'))};`, resolveDir: REPO, loader: 'ts' }, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false })
  ).outputFiles[0]!.contents;
  const jsSize = (code: Uint8Array) => `${kib(code.length)} minified, ${(gzipSync(code, { level: 9 }).length / 1024).toFixed(1)} KiB gzip`;
  console.log(`\nsearch engine JS (MiniSearch + stemmers + loader): ${jsSize(engineJs)}${baselineJs ? `; baseline's ${jsSize(baselineJs)}` : ''}`);

  const server = await serve({ dir: outDir, port: 0 });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    console.log(`\nin Chromium, median of ${runs} fresh loads (fetch from loopback, no cache); load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores:`);
    const fresh = async <T,>(fn: string, args: unknown[]): Promise<T> => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/index.html`);
      await page.waitForFunction((fn) => fn in window, fn);
      const result = await page.evaluate(([fn, args]) => (window as any)[fn as string](...(args as unknown[])) as Promise<T>, [fn, args] as const);
      await context.close();
      return result;
    };
    const engines = baseline ? ['this', 'baseline'] : ['this'];
    for (const c of cases) {
      const m = (rs: Run[], k: 'fetch' | 'load' | 'query' | 'total') => median(rs.map((r) => r[k])).toFixed(1).padStart(6);
      const narrowQuery = c.queries[c.queries.length - 1]!;
      const broad: Record<string, Run[]> = Object.fromEntries(engines.map((e) => [e, []]));
      const narrow: Record<string, Run[]> = Object.fromEntries(engines.map((e) => [e, []]));
      // Each engine's runs interleaved (this, baseline, this...): both see the same machine load.
      for (let i = 0; i < runs; i++) for (const e of engines) broad[e]!.push(await fresh<Run>('benchSearch', [c.base, c.dir, c.queries, e]));
      // The same with a narrow first query (a name): what most searches cost.
      for (let i = 0; i < runs; i++) for (const e of engines) narrow[e]!.push(await fresh<Run>('benchSearch', [c.base, c.dir, [narrowQuery], e]));
      for (const e of engines) {
        const results = broad[e]!;
        const label = e === 'this' ? `${c.name} ${c.locale}` : '  (baseline)';
        const others = c.queries.slice(1).map((q, i) => `"${q}" ${median(results.map((r) => r.others[i]!.ms)).toFixed(1)} ms (${results[0]!.others[i]!.hits} hits, +${results[0]!.others[i]!.files.length} files)`).join(', ');
        console.log(`  ${label.padEnd(18)} total ${m(results, 'total')} ms = base ${m(results, 'fetch')} + load ${m(results, 'load')} + first query ${m(results, 'query')} ("${c.queries[0]}", ${results[0]!.hits} hits)`);
        console.log(`  ${''.padEnd(18)}   fetched ${weight(results[0]!.files)}; then ${others}`);
        const n = narrow[e]!;
        console.log(`  ${''.padEnd(18)} narrow first query: total ${m(n, 'total')} ms = base ${m(n, 'fetch')} + load ${m(n, 'load')} + first query ${m(n, 'query')} ("${narrowQuery}", ${n[0]!.hits} hits); fetched ${weight(n[0]!.files)}`);
      }
      if (compare) {
        const native: Run[] = [];
        for (let i = 0; i < runs; i++) native.push(await fresh<Run>('benchNative', [`/native.${c.name}.${c.locale}.json`, c.locale, c.queries[0]!]));
        console.log(`  ${''.padEnd(18)} one MiniSearch, its own JSON: total ${m(native, 'total')} ms = fetch ${m(native, 'fetch')} + load ${m(native, 'load')} + first query ${m(native, 'query')}`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  await rm(outDir, { recursive: true, force: true });
}
