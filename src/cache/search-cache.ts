// The search index files of a language, by the routes they were built from. Building an
// index (extracting the words of every page, indexing, encoding) takes about a second per
// language at 4000 articles; when none of a language's pages changed, its files are the
// same bytes, so a warm build writes them from here. A language whose pages changed is
// rebuilt whole; the other is still reused.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutputSink } from '../emit/sink.js';
import type { SiteGraph } from '../graph/model.js';
import { writeSearchIndexes } from '../search/index.js';
import { keyOf } from './digest.js';

/** Passes writes through and notes them, so they can be stored. */
class RecordingSink implements OutputSink {
  readonly written: [rel: string, text: string][] = [];
  constructor(private readonly inner: OutputSink) {}
  async write(rel: string, data: string | Uint8Array, digest?: string): Promise<void> {
    this.written.push([rel, typeof data === 'string' ? data : Buffer.from(data).toString('utf8')]);
    await this.inner.write(rel, data, digest);
  }
  async copy(fromAbs: string, rel: string): Promise<void> {
    throw new Error(`the search index copies no files (${fromAbs} -> ${rel})`);
  }
}

export interface SearchCacheInput {
  cacheDir: string;
  fingerprint: string;
  /** Route key per page path (render-stage.ts); routes missing from it are keyed here. */
  routeKeys: ReadonlyMap<string, string>;
}

export async function writeSearchIndexesCached(sink: OutputSink, graph: SiteGraph, locales: readonly string[], cache: SearchCacheInput): Promise<void> {
  const dir = path.join(cache.cacheDir, 'build', 'search');
  await mkdir(dir, { recursive: true });
  const present = await readdir(dir);
  for (const locale of locales) {
    const routes = graph.routes.filter((r) => r.locale === locale);
    const key = keyOf(cache.fingerprint, locale, routes.map((r) => cache.routeKeys.get(r.path) ?? keyOf(r)));
    const name = `${locale}.${key}.json`;
    const stored = present.includes(name) ? await readFile(path.join(dir, name), 'utf8').catch(() => null) : null;
    if (stored !== null) {
      const files = JSON.parse(stored) as [string, string][];
      await Promise.all(files.map(([rel, text]) => sink.write(rel, text)));
      continue;
    }
    const recorder = new RecordingSink(sink);
    await writeSearchIndexes(recorder, { ...graph, routes }, [locale]);
    const temp = path.join(dir, `${name}.${process.pid}`);
    await writeFile(temp, JSON.stringify(recorder.written));
    await rename(temp, path.join(dir, name));
    await Promise.all(present.filter((f) => f.startsWith(`${locale}.`) && f !== name).map((f) => rm(path.join(dir, f), { force: true })));
  }
}
