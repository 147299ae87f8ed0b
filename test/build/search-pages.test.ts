// Issue 21, point 5: each search page scoped to a section has its own title and description
// ("Search in Insights"), and only the whole-site search pages are in the sitemap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildToMemory, fixture } from '../helpers.js';

const { out } = await buildToMemory(fixture('minimal'), { cache: false });
const html = (file: string) => out.files.get(file)?.toString('utf8') ?? assert.fail(`no ${file}`);
const headOf = (file: string) => ({
  title: /<title>(.*?)<\/title>/.exec(html(file))?.[1],
  description: /<meta name="description" content="([^"]*)"/.exec(html(file))?.[1],
});

test('every search page has a title and a description of its own, in its language', () => {
  const scoped = [...out.files.keys()].filter((f) => /^(fr\/)?search\/[^/]+\/index\.html$/.test(f));
  assert.ok(scoped.length >= 4, `scoped search pages: ${scoped.join(', ')}`);
  const heads = [...scoped, 'search/index.html', 'fr/search/index.html'].map((f) => ({ f, ...headOf(f) }));
  for (const key of ['title', 'description'] as const) {
    const values = heads.map((h) => h[key]);
    assert.equal(new Set(values).size, values.length, `${key}s are unique: ${JSON.stringify(heads, null, 1)}`);
  }
  assert.deepEqual(headOf('search/insights/index.html'), { title: 'Search in Insights | Beta Corp', description: 'Search the publications of Insights' });
  assert.match(headOf('fr/search/insights/index.html').title ?? '', /^Rechercher dans Perspectives \| /);
});

test('only /search/ and /fr/search/ are in the sitemap', () => {
  const sitemap = out.files.get('sitemap.xml')!.toString('utf8');
  const searchUrls = [...sitemap.matchAll(/<loc>([^<]*\/search\/[^<]*)<\/loc>/g)].map((m) => new URL(m[1]!).pathname).sort();
  assert.deepEqual(searchUrls, ['/fr/search/', '/search/']);
});
