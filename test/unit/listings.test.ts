// Long listings at the spec's scale and beyond: the 1000-article corpus (bench/corpus.ts),
// through the real graph. Every section page is cut into pages of `listings.pageSize`, in both
// languages, with page 1 at the section's own path (canonical; `/1/` redirects to it), every page in the
// sitemap, and year and type filters whose pages hold exactly the articles of that year or type.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/build/config/load.js';
import { loadContent } from '../../src/build/content/load.js';
import { validateContent } from '../../src/build/content/validate.js';
import { buildGraph } from '../../src/build/graph/index.js';
import type { SectionData } from '../../src/shared/types.js';
import { REPO } from '../helpers.js';

const corpus = path.join(REPO, 'bench', 'corpus', '1000');
if (!existsSync(path.join(corpus, 'site.config.ts'))) {
  execFileSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench', 'corpus.ts'), '1000'], { cwd: REPO, stdio: 'inherit' });
}
const config = await loadConfig({ root: corpus });
const { raw } = await loadContent(config);
const { site } = validateContent(raw, config);
const graph = buildGraph(site, config, { includeDrafts: false });
const byPath = new Map(graph.routes.map((r) => [r.path, r]));
const size = config.pageSize;

for (const locale of ['en', 'fr']) {
  const prefix = locale === 'en' ? '' : '/fr';
  test(`${locale}: /insights/ is cut into pages of ${size}, page 1 canonical, every page in the sitemap`, () => {
    const first = byPath.get(`${prefix}/insights/`);
    assert.ok(first, 'the section page');
    const data = first.data as SectionData;
    const total = data.pagination.total;
    assert.ok(total >= 100, `the corpus puts many articles in insights (${total})`);
    const pages = Math.ceil(total / size);
    assert.equal(data.pagination.pages, pages);
    assert.equal(byPath.has(`${prefix}/insights/1/`), false, 'page 1 is the section path itself, never /1/');
    const first1 = graph.redirects.map((o) => o.rule).filter((r) => r.fromPath === `${prefix}/insights/1/`);
    assert.deepEqual(first1.map((r) => r.toPath), [`${prefix}/insights/`], '/insights/1/ redirects to page 1');
    const year = data.filters.years[0]!.path;
    assert.ok(graph.redirects.some(({ rule: r }) => r.fromPath === `${year}1/` && r.toPath === year) === (byPath.has(`${year}2/`)), 'a paged year view: /1/ redirects to it');
    const seen: string[] = [];
    for (let n = 1; n <= pages; n++) {
      const route = byPath.get(n === 1 ? `${prefix}/insights/` : `${prefix}/insights/${n}/`);
      assert.ok(route, `page ${n} of ${pages}`);
      const d = route.data as SectionData;
      assert.equal(d.pagination.page, n);
      assert.ok(d.articles.length <= size && d.articles.length > 0);
      assert.equal(route.inSitemap, true, `page ${n} is in the sitemap`);
      assert.equal(route.canonicalPath, route.path, `page ${n} is its own canonical`);
      assert.ok(route.alternates.some((a) => a.locale === locale && a.path === route.path));
      seen.push(...d.articles.map((a) => a.key));
    }
    assert.equal(byPath.has(`${prefix}/insights/${pages + 1}/`), false, 'no page past the last');
    assert.equal(new Set(seen).size, total, 'every article on exactly one page');
    const dates = seen.map((k) => site.articles.find((a) => a.key === k && a.locale === locale)!.fm.date);
    assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first across pages');
  });

  test(`${locale}: year and type filters are pages of their own, with exactly their articles`, () => {
    const data = byPath.get(`${prefix}/insights/`)!.data as SectionData;
    assert.ok(data.filters.years.length > 1 && data.filters.types.length > 1, 'the corpus spans years and types');
    for (const { value, path: base } of [...data.filters.years, ...data.filters.types]) {
      const kind = /^\d{4}$/.test(value) ? 'year' : 'type';
      assert.equal(base, `${prefix}/insights/${kind}/${value}/`);
      const head = byPath.get(base);
      assert.ok(head, base);
      const { pages, total } = (head.data as SectionData).pagination;
      const keys: string[] = [];
      for (let n = 1; n <= pages; n++) {
        const route = byPath.get(n === 1 ? base : `${base}${n}/`);
        assert.ok(route, `${base} page ${n}`);
        assert.equal(route.inSitemap, false, 'filtered views repeat the listing: not in the sitemap');
        const d = route.data as SectionData;
        assert.deepEqual(d.filter, { kind, value });
        for (const a of d.articles) assert.ok(kind === 'year' ? a.date.startsWith(value) : a.type === value, `${a.key} belongs on ${base}`);
        keys.push(...d.articles.map((a) => a.key));
      }
      assert.equal(keys.length, total);
      const all = site.articles.filter((a) => a.locale === locale && a.fm.sections.includes('insights') && (kind === 'year' ? a.fm.date.startsWith(value) : a.fm.type === value));
      assert.equal(total, all.length, `${base} lists every article of its ${kind}`);
    }
  });
}

test('page 2 in English has page 2 in French as its translation, and listing pages stay out of search', () => {
  const route = byPath.get('/insights/2/')!;
  assert.deepEqual(
    route.alternates.map((a) => a.path),
    ['/insights/2/', '/fr/insights/2/'],
  );
  assert.equal(route.searchable, false);
  assert.equal(byPath.get('/insights/')!.searchable, undefined, 'page 1 is searched as the section page');
});
