// The build side of search (what is indexed, from which text, written where) and the URL
// side (`?q=` and `?type=` parsed with SPEC.md section 9's limits).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { BuildResult } from '../../src/build/index.js';
import { MemorySink } from '../../src/build/emit/sink.js';
import type { Route } from '../../src/build/graph/model.js';
import { pageDataUrl } from '../../src/shared/paths.js';
import type { PageRecord } from '../../src/shared/types.js';
import { isPrecached, WORKER_FILE } from '../../src/features/offline/index.js';
import { docFile, type IndexBase, type StoredRow } from '../../src/features/search/codec.js';
import { searchDocument, searchDocuments } from '../../src/features/search/documents.js';
import { SearchIndex } from '../../src/features/search/engine.js';
import { bodyText, excerpt } from '../../src/features/search/body-text.js';
import { MarkdownCompiler } from '../../src/features/markdown/index.js';
import { toReactTree } from '../../src/features/markdown/to-react-tree.js';
import { parseSearchParams, searchParamsString } from '../../templates/lib/search-client.js';
import { buildToMemory, REPO } from '../helpers.js';

describe('a rendered body to indexed text', () => {
  /** The words the index reads of `markdown`: compiled by the pages' own pipeline, then its text. */
  const wordsOf = async (markdown: string) => bodyText(toReactTree(await new MarkdownCompiler({}).toHast(markdown, 'en')).tree);

  test('keeps what a reader sees and drops markup, URLs, raw HTML and footnote markers', async () => {
    const text = await wordsOf(
      [
        '## Net asset value',
        '',
        'See the [annual report](https://example.com/report.pdf "Report") and ![a chart of returns](chart.png).',
        '<div class="x" data-secret="hidden-attribute">Inside <em>html</em></div><script>var tracker = 1</script>',
        '<!-- a comment nobody sees -->',
        '',
        '| Period | Return |',
        '|---|--:|',
        '| Q1 | 4.1% |',
        '',
        'A footnote[^1] &amp; an entity &eacute;t&#233;.',
        '',
        '[^1]: The footnote text.',
        '',
        '[ref]: https://example.com/ref',
      ].join('\n'),
    );
    for (const kept of ['Net asset value', 'annual report', 'a chart of returns', 'Inside', 'html', 'Period', 'Q1', 'The footnote text', '& an entity été']) {
      assert.ok(text.includes(kept), `keeps "${kept}" in: ${text}`);
    }
    for (const dropped of ['https', 'example.com', 'report.pdf', 'chart.png', 'hidden-attribute', 'tracker', 'comment', '---', '[^1]', '<', '↩', 'Footnotes']) {
      assert.ok(!text.includes(dropped), `drops "${dropped}" from: ${text}`);
    }
    assert.ok(!/footnote1/.test(text.replace(/\s/g, '')), `no footnote number glued to its word: ${text}`);
    assert.ok(text.includes('Period Return') && text.includes('Q1 4.1%'), `table cells are words apart: ${text}`);
    assert.ok(text.includes('See the annual report and a chart of returns.'), `inline text reads as on the page: ${text}`);
  });

  test('one line per block; no body, no words', async () => {
    assert.equal(await wordsOf('# Title\n\nFirst paragraph.\n\n- one\n- two'), 'Title\nFirst paragraph.\none\ntwo');
    assert.equal(bodyText(null), '');
  });

  test('excerpts cut at a word boundary', () => {
    assert.equal(excerpt('short'), 'short');
    const cut = excerpt('word '.repeat(100), 50);
    assert.ok(cut.length <= 51 && cut.endsWith('word…'), cut);
  });

  test('excerpts are one line, and keep the no-break spaces of French typography', () => {
    assert.equal(excerpt('Pourquoi\u202f?\n\n  Un rendement de 5,3\u00a0%\tcette année.'), 'Pourquoi\u202f? Un rendement de 5,3\u00a0% cette année.');
  });
});

describe('the demo build writes one index per language', () => {
  let result: BuildResult;
  let out: MemorySink;
  before(async () => {
    ({ result, out } = await buildToMemory(REPO));
  });

  const index = (locale: string) => out.json(`search-index/${locale}.json`) as IndexBase;
  /** The locale's other index files, by name. */
  const parts = (locale: string) =>
    new Map([...out.files].filter(([rel]) => rel.startsWith(`search-index/${locale}/`)).map(([rel, data]) => [rel.slice(`search-index/${locale}/`.length), data.toString('utf8')]));
  /** `[title, path, type, sections, date]` of each document, from the base and its stored-documents files. */
  const documents = (locale: string) => {
    const base = index(locale);
    const files = parts(locale);
    const rows: StoredRow[] = [];
    for (let block = 0; block * base.docBlock < base.documentCount; block++) rows.push(...(JSON.parse(files.get(docFile(base, block))!) as StoredRow[]));
    return rows.map(([title, path, date], id) => [title, path, base.classes[base.docClass[id]!]![0], base.classes[base.docClass[id]!]![1], date] as const);
  };

  test('en and fr indexes, each with its own language pages', () => {
    for (const locale of ['en', 'fr']) {
      assert.equal(index(locale).locale, locale);
      const docs = documents(locale);
      assert.ok(docs.length > 40, `${locale}: ${docs.length} documents`);
      assert.equal(docs.length, index(locale).documentCount);
      for (const [, path] of docs) assert.equal(path.startsWith('/fr/'), locale === 'fr', `${locale} index holds ${path}`);
    }
  });

  test('articles, pages and bios are indexed; search and not-found pages are not; root copies once', () => {
    const docs = documents('en');
    const byPath = new Map(docs.map((d) => [d[1], d]));
    assert.equal(byPath.get('/article/annual-report-2024/')?.[2], 'annual-report');
    assert.equal(byPath.get('/your-team/hmercier/')?.[2], 'bio');
    assert.equal(byPath.get('/insights/')?.[2], 'page');
    assert.equal(byPath.get('/insights/')?.[3], 'insights', 'a section page belongs to its own section');
    assert.equal(byPath.get('/terms-of-use/')?.[2], 'page');
    for (const path of byPath.keys()) assert.ok(!/\/search\/|404/.test(path), `not searchable: ${path}`);
    const rootCopies = result.graph.routes.filter((r) => r.canonicalPath !== r.path);
    assert.ok(rootCopies.length > 0, 'the demo publishes a press release at the root');
    for (const r of rootCopies) {
      assert.ok(!byPath.has(r.path), `the root copy ${r.path} is not a second result`);
      if (r.locale === 'en') assert.ok(byPath.has(r.canonicalPath), `its canonical page ${r.canonicalPath} is`);
    }
    assert.equal(new Set(docs.map((d) => d[1])).size, docs.length, 'one document per path');
  });

  test('the built index answers French queries', () => {
    const fr = SearchIndex.fromFiles({ base: index('fr'), files: parts('fr') });
    assert.ok(fr.search('societe').hits.length > 0);
    assert.ok(fr.search("l'entreprise").hits.length > 0);
    const scoped = fr.search('rendement', { section: 'insights' });
    assert.ok(scoped.hits.length > 0 && scoped.hits.every((h) => h.sections.includes('insights')));
  });

  /** A route's search document from the body its built page data holds: what the build indexed. */
  const builtDocument = (route: Route) => {
    const data = (JSON.parse(out.text(pageDataUrl(route.path).slice(1))) as PageRecord).result.data;
    return searchDocument(route, 'body' in data ? data.body : null);
  };

  test('searchDocuments agrees with what was written', () => {
    const docs = searchDocuments(result.graph.routes, builtDocument);
    assert.equal(docs.get('en')?.length, documents('en').length);
    assert.equal(docs.get('fr')?.length, documents('fr').length);
  });

  test('the base names every file written under search-index/<locale>/, and nothing else is there', () => {
    for (const locale of ['en', 'fr']) {
      const base = index(locale);
      const named = [...base.shards.map(([, file]) => file), ...Array.from({ length: Math.ceil(base.documentCount / base.docBlock) }, (_, block) => docFile(base, block))];
      assert.deepEqual([...parts(locale).keys()].sort(), named.sort(), locale);
      assert.ok(base.shards.length > 1, `${locale}: ${base.shards.length} postings shards`);
    }
    assert.deepEqual(
      [...out.files.keys()].filter((rel) => rel.startsWith('search-index/') && !/^search-index\/(?:en|fr)(?:\.json|\/)/.test(rel)),
      [],
      'one index per language',
    );
  });

  test('the offline worker precaches no index file: the search page caches what it fetches', () => {
    const files = [...out.files.keys()].filter((rel) => rel.startsWith('search-index/'));
    assert.ok(files.length > 4);
    for (const rel of files) assert.equal(isPrecached(rel), false, rel);
    assert.ok(!out.text(WORKER_FILE).includes('search-index'), 'sw.js lists no index file');
  });
});

describe('?q= and ?type= in the URL', () => {
  test('reads the query and the type filters', () => {
    assert.deepEqual(parseSearchParams('?q=soci%C3%A9t%C3%A9&type=commentary'), { q: 'société', types: ['commentary'] });
    assert.deepEqual(parseSearchParams('?q=a+b&type=commentary&type=video&type=commentary'), { q: 'a b', types: ['commentary', 'video'] });
    assert.deepEqual(parseSearchParams('q=x&type[]=bio'), { q: 'x', types: ['bio'] });
    assert.deepEqual(parseSearchParams(''), { q: '', types: [] });
  });

  test('odd shapes become nothing rather than errors', () => {
    assert.deepEqual(parseSearchParams('?q[a][b]=1'), { q: '', types: [] });
    assert.deepEqual(parseSearchParams('?q=one&q=two'), { q: 'one', types: [] });
    assert.deepEqual(parseSearchParams('?type=<script>&type=Bad Type'), { q: '', types: [] });
    assert.equal(parseSearchParams(`?q=${'x'.repeat(500)}`).q.length, 200);
  });

  test("SPEC.md section 9's limits apply: 1000 parameters, arrays of 20, depth 5", () => {
    const many = Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join('&');
    assert.equal(parseSearchParams(`?${many}&q=late`).q, '', 'parameters past the 1000th are ignored');
    assert.equal(parseSearchParams(`?q=early&${many}`).q, 'early');
    const types = Array.from({ length: 25 }, (_, i) => `type[${i}]=t${String.fromCharCode(97 + i)}`).join('&');
    assert.ok(parseSearchParams(`?${types}`).types.length <= 21, 'indexes past the array limit do not make a long array');
    assert.doesNotThrow(() => parseSearchParams(`?q${'[a]'.repeat(50)}=deep`));
  });

  test('writes only what it keeps', () => {
    assert.equal(searchParamsString({ q: 'société', types: [] }), '?q=soci%C3%A9t%C3%A9');
    assert.equal(searchParamsString({ q: 'a b', types: ['commentary'] }), '?q=a+b&type=commentary');
    assert.equal(searchParamsString({ q: '  ', types: [] }), '');
  });
});
