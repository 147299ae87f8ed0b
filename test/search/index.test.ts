// The search index: how words become terms (accents, elisions, stems), what a query finds
// (prefixes, typos, plurals, scope, types), highlighting, and the compact format that the
// browser loads in pieces (the MiniSearch it loads for a query must answer exactly as one
// holding the whole index, and it must fetch only the files a query needs).
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import MiniSearch from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { decodeTermPostings, docFile, encodePostings, fileKey, IndexPartError, type IndexBase, type IndexFiles } from '../../src/features/search/codec.js';
import type { SearchDocument } from '../../src/features/search/documents.js';
import { SearchIndex, highlight, miniSearchQuery, SEARCH_OPTIONS, wordQueries, type SearchFilters, type SearchOutcome } from '../../src/features/search/engine.js';
import { ShardedIndex } from '../../src/features/search/sharded-index.js';
import { TermList } from '../../src/features/search/term-list.js';
import { buildSearchIndex, SEARCH_FIELDS } from '../../src/features/search/index.js';
import { fold, indexTermProcessor, normalizeWord, queryWords, stem, tokenize } from '../../src/features/search/text.js';

function doc(locale: string, path: string, title: string, body: string, extra: Partial<SearchDocument> = {}): SearchDocument {
  return { locale, path, title, summary: '', body, type: 'news', sections: [], date: '2025-01-01', ...extra };
}

const FR: SearchDocument[] = [
  doc('fr', '/fr/a/', 'La société publie ses résultats', "L'entreprise a versé un dividende trimestriel.", { sections: ['news-and-events'], type: 'press-release' }),
  doc('fr', '/fr/b/', 'Commentaire trimestriel', 'Les sociétés de notre portefeuille ont procuré des rendements élevés.', { sections: ['insights'], type: 'commentary' }),
  doc('fr', '/fr/c/', 'Œuvre et économie', "Aujourd'hui, l’économie québécoise croît; jusqu'à présent, les marchés résistent.", { sections: ['insights'], type: 'insight' }),
  doc('fr', '/fr/d/', 'Notre équipe', 'Henri Mercier dirige la gestion des placements.', { type: 'bio', date: '' }),
];

const EN: SearchDocument[] = [
  doc('en', '/a/', 'Quarterly dividend increased', 'The board declared a dividend to shareholders of the company.', { sections: ['news-and-events'], type: 'press-release' }),
  doc('en', '/b/', 'Quarterly commentary', 'Our companies returned 5% as investors valued growth.', { sections: ['insights'], type: 'commentary' }),
  doc('en', '/c/', 'Investing for decades', "The company's approach: patient capital, running a concentrated portfolio.", { sections: ['insights'], type: 'insight' }),
  doc('en', '/d/', 'Henri Mercier', 'Chief investment officer.', { type: 'bio', date: '' }),
];

/** As written and read back: the base through JSON. */
const roundTrip = (files: IndexFiles) => ({ base: JSON.parse(JSON.stringify(files.base)) as IndexBase, files: files.files });
const fr = SearchIndex.fromFiles(roundTrip(buildSearchIndex('fr', FR)));
const en = SearchIndex.fromFiles(roundTrip(buildSearchIndex('en-CA', EN)));
const paths = (outcome: SearchOutcome) => outcome.hits.map((h) => h.path).sort();

describe('text: words to terms', () => {
  test('folds case, accents and ligatures', () => {
    assert.equal(fold('Société Œuvre ÉCONOMIE naïve Straße'), 'societe oeuvre economie naive strasse');
  });

  test('tokenizes words, keeping apostrophes inside them', () => {
    assert.deepEqual(tokenize("L'entreprise — Q2-2025, aujourd’hui: 4.75 %"), ["L'entreprise", 'Q2', '2025', 'aujourd’hui', '4', '75']);
  });

  test('drops French elisions, with either apostrophe', () => {
    for (const word of ["l'entreprise", 'l’entreprise', "d'entreprise", "qu'entreprise", "jusqu'entreprise", 'L’ENTREPRISE']) {
      assert.equal(normalizeWord(word, 'fr'), 'entreprise', word);
    }
    assert.equal(normalizeWord("aujourd'hui", 'fr'), 'aujourdhui');
    assert.equal(normalizeWord("company's", 'en'), 'company');
  });

  test('drops stop words and single letters', () => {
    assert.equal(normalizeWord('les', 'fr'), null);
    assert.equal(normalizeWord('the', 'en'), null);
    assert.equal(normalizeWord('a', 'en'), null);
    assert.equal(normalizeWord('Q2', 'en'), 'q2');
  });

  test('stems plurals and other forms to one term', () => {
    assert.equal(stem('societes', 'fr'), stem('societe', 'fr'));
    assert.equal(stem('rendements', 'fr'), stem('rendement', 'fr'));
    assert.equal(stem('companies', 'en'), stem('company', 'en'));
    assert.equal(stem('investing', 'en'), stem('investment', 'en'));
    assert.equal(stem('2025', 'en'), '2025');
  });

  test('indexes each word as written; queries know its stem', () => {
    const process = indexTermProcessor('fr');
    assert.equal(process('Sociétés'), 'societes');
    assert.equal(process('le'), null);
    assert.deepEqual(queryWords("l'entreprise les sociétés", 'fr'), [
      { word: 'entreprise', stem: 'entrepris' },
      { word: 'societes', stem: 'societ' },
    ]);
  });
});

describe('engine: what a query finds', () => {
  test('accents are folded both ways', () => {
    assert.deepEqual(paths(fr.search('societe')), ['/fr/a/', '/fr/b/']);
    assert.deepEqual(paths(fr.search('SOCIÉTÉ')), ['/fr/a/', '/fr/b/']);
    assert.deepEqual(paths(fr.search('economie quebecoise')), ['/fr/c/']);
    assert.deepEqual(paths(fr.search('oeuvre')), ['/fr/c/']);
  });

  test('accents typed as combining marks (e + U+0301, as some PDFs and macOS paste them) are folded too, in the text and in the query', () => {
    const decomposed = SearchIndex.fromFiles(roundTrip(buildSearchIndex('fr', [doc('fr', '/fr/e/', 'Note', 'socie\u0301te\u0301 re\u0301glementaire')])));
    assert.deepEqual(paths(decomposed.search('société')), ['/fr/e/']);
    assert.deepEqual(paths(decomposed.search('reglementaire')), ['/fr/e/']);
    assert.deepEqual(paths(fr.search('socie\u0301te\u0301')), ['/fr/a/', '/fr/b/']);
    const hit = fr.search('socie\u0301te\u0301').hits.find((h) => h.path === '/fr/a/')!;
    assert.deepEqual(highlight('La socie\u0301te\u0301 publie', hit.matched, 'fr').filter((p) => p.mark).map((p) => p.text), ['socie\u0301te\u0301']);
  });

  test('a query past 200 characters is cut before the word the limit falls in, not inside it (its start would search as a prefix)', () => {
    assert.deepEqual(en.search('dividend '.repeat(40)).words, ['dividend']);
    assert.deepEqual(en.search(`${'. '.repeat(98)}dividend`).words, [], 'the one word cut: no prefix "divi"');
  });

  test("elisions: l'entreprise finds entreprise, and entreprise finds l'entreprise", () => {
    assert.deepEqual(paths(fr.search("l'entreprise")), ['/fr/a/']);
    assert.deepEqual(paths(fr.search('l’entreprise')), ['/fr/a/']);
    assert.deepEqual(paths(fr.search('entreprise')), ['/fr/a/']);
    assert.deepEqual(paths(fr.search("aujourd'hui")), ['/fr/c/']);
  });

  test('plural and stem forms find each other', () => {
    assert.deepEqual(paths(fr.search('rendement')), ['/fr/b/']);
    assert.deepEqual(paths(fr.search('trimestriels')), ['/fr/a/', '/fr/b/']);
    assert.deepEqual(paths(en.search('companies')), ['/a/', '/b/', '/c/']);
    assert.deepEqual(paths(en.search('dividends')), ['/a/']);
    assert.deepEqual(paths(en.search('invest')), ['/b/', '/c/', '/d/']);
  });

  test('prefixes match while typing', () => {
    assert.deepEqual(paths(en.search('divid')), ['/a/']);
    assert.deepEqual(paths(fr.search('portef')), ['/fr/b/']);
    assert.deepEqual(paths(fr.search('placem')), ['/fr/d/']);
    assert.deepEqual(paths(fr.search('investissem')), []);
  });

  test('typos are forgiven in longer words only', () => {
    assert.deepEqual(paths(en.search('sharehlders')), ['/a/']);
    assert.deepEqual(paths(en.search('dividnd')), ['/a/']);
    assert.deepEqual(paths(fr.search('rendemnts')), ['/fr/b/']);
    assert.deepEqual(paths(fr.search('portefeiulle')), ['/fr/b/']);
    // Four letters: no typo tolerance ("bord" is not "board").
    assert.deepEqual(paths(en.search('bord')), []);
  });

  test('a word the index has is taken as spelled; a word it lacks gets typo tolerance', () => {
    const index = SearchIndex.fromFiles(buildSearchIndex('en', [doc('en', '/capital/', 'Patient capital', ''), doc('en', '/capitol/', 'The capitol building', '')]));
    assert.deepEqual(paths(index.search('capitol')), ['/capitol/']);
    assert.deepEqual(paths(index.search('capitl')), ['/capital/', '/capitol/']);
  });

  test('every word must match', () => {
    assert.deepEqual(paths(en.search('quarterly dividend')), ['/a/']);
    assert.deepEqual(paths(en.search('quarterly zebra')), []);
  });

  test('a title match ranks above a body match', () => {
    const hits = en.search('dividend company').hits;
    assert.equal(hits[0]?.path, '/a/');
    assert.deepEqual(en.search('commentary').hits.map((h) => h.path), ['/b/']);
  });

  test('scope by section (subsite) and filter by type', () => {
    assert.deepEqual(paths(fr.search('societes', { section: 'insights' })), ['/fr/b/']);
    assert.deepEqual(paths(fr.search('societes', { section: 'news-and-events' })), ['/fr/a/']);
    assert.deepEqual(paths(en.search('companies', { types: ['commentary', 'insight'] })), ['/b/', '/c/']);
    const outcome = en.search('companies', { types: ['insight'] });
    assert.deepEqual(outcome.typeCounts, { 'press-release': 1, commentary: 1, insight: 1 }, 'counts are before the type filter');
    assert.deepEqual(paths(en.search('henri', { types: ['bio'] })), ['/d/']);
  });

  test('a limit keeps the best hits and still counts them all', () => {
    const all = en.search('companies');
    const two = en.search('companies', { limit: 2 });
    assert.equal(two.total, all.total);
    assert.equal(all.total, 3);
    assert.deepEqual(two.hits.map((h) => h.path), all.hits.slice(0, 2).map((h) => h.path));
  });

  test('nothing searchable gives no results, not every document', () => {
    assert.deepEqual(en.search('').hits, []);
    assert.deepEqual(en.search('the of a').hits, []);
    assert.deepEqual(en.search('the of a').words, []);
    assert.deepEqual(fr.search('   ').hits, []);
  });

  test('results carry what the page shows', () => {
    const hit = fr.search('dividende').hits[0]!;
    assert.deepEqual(
      { title: hit.title, path: hit.path, type: hit.type, sections: hit.sections, date: hit.date },
      { title: 'La société publie ses résultats', path: '/fr/a/', type: 'press-release', sections: ['news-and-events'], date: '2025-01-01' },
    );
    assert.ok(hit.matched.includes('dividende'));
  });
});

describe('highlight', () => {
  test('marks words whose form or stem matched, accents and elisions included', () => {
    const hit = fr.search('societes entreprise').hits[0]!;
    const parts = highlight("La société et l'entreprise", hit.matched, 'fr');
    assert.deepEqual(
      parts.filter((p) => p.mark).map((p) => p.text),
      ['société', 'entreprise'],
    );
    assert.equal(parts.map((p) => p.text).join(''), "La société et l'entreprise", 'the text is unchanged');
  });

  test('prefix matches mark the whole word', () => {
    const hit = en.search('divid').hits[0]!;
    // `dividends` too: its stem is the matched `dividend`; `division` only shares a prefix.
    assert.deepEqual(highlight('Dividend, dividends and division', hit.matched, 'en').filter((p) => p.mark).map((p) => p.text), ['Dividend', 'dividends']);
  });

  test('no match, no marks', () => {
    assert.deepEqual(highlight('plain text', [], 'en'), [{ text: 'plain text', mark: false }]);
  });
});

/** A deterministic corpus with a few thousand distinct words, so that the index has many shards. */
function corpus(n: number, seed = 11): SearchDocument[] {
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const letters = 'abcdefghijklmnopqrstuvwxyzéè';
  const vocabulary = Array.from({ length: 3000 }, () => Array.from({ length: 3 + Math.floor(rand() * 7) }, () => letters[Math.floor(rand() * letters.length)]).join(''));
  vocabulary.push('dividend', 'dividends', 'company', 'companies', 'shareholders', 'quarterly', 'capital', 'capitol');
  const words = (k: number) => Array.from({ length: k }, () => vocabulary[Math.floor(rand() * vocabulary.length)]).join(' ');
  const types = ['commentary', 'news', 'press-release', 'page', 'bio'];
  return Array.from({ length: n }, (_, i) =>
    doc('en', `/c/${i}/`, `${words(5)} ${i}`, words(80), { summary: words(12), type: types[i % types.length]!, sections: i % 3 ? ['insights'] : [], date: i % 4 ? '2024-02-03' : '' }),
  );
}

/** An index loaded from its base alone, fetching its files from `files` and noting which. */
function lazy(files: IndexFiles) {
  const fetched: string[] = [];
  const fetchPart = async (file: string) => {
    fetched.push(file);
    const text = files.files.get(file);
    if (text === undefined) throw new Error(`404 ${file}`);
    return text;
  };
  return { fetched, fetchPart, base: roundTrip(files).base };
}

const QUERIES = ['dividend', 'compan', 'sharehlders quarterly', 'capitl', 'extra 3', 'invest', 'zz', 'é', 'ab', 'quarterly dividends'];

describe('compact index format', () => {
  test('postings round-trip, large document numbers and frequencies included', () => {
    const postings: [number, number][] = [[0, 1], [1, 31], [2, 32], [40, 1], [1000, 70000], [123456, 2]];
    assert.deepEqual(Object.entries(decodeTermPostings(encodePostings(postings)).postings[0]!).map(([doc, tf]) => [Number(doc), tf]), postings);
    assert.match(encodePostings(postings), /^[0-9A-Za-z_-]+$/);
    // A term's fields, as MiniSearch's JSON holds them; an empty field has no entry.
    assert.deepEqual(decodeTermPostings(`${encodePostings([[3, 1], [7, 2]])},,${encodePostings([[7, 1]])}`), { postings: { 0: { 3: 1, 7: 2 }, 2: { 7: 1 } }, docs: [3, 7, 7] });
    for (const corrupt of ['A!', 'Z', '0é', `${encodePostings([[1, 5]])}`.slice(0, -1)]) assert.throws(() => decodeTermPostings(corrupt), /corrupt search index postings/, corrupt);
  });

  test('in both languages, an index loaded whole answers as a MiniSearch given the same documents with addAll: the same documents, scores and matched terms', () => {
    const cases = [
      ['en', [...EN, ...corpus(300, 7), doc('en', '/e/', '', '')], ['dividend', 'compan', 'capitl', 'quarterly dividends', 'extra 3']],
      ['fr', [...FR, ...FR.map((d, i) => ({ ...d, path: `${d.path}${i}/`, body: `${d.body} ${d.body} l'œuvre` }))], ['société', "l'œuvre", 'rendemnt', 'entreprises', 'dividende']],
    ] as const;
    for (const [locale, docs, queries] of cases) {
      const language = locale === 'fr' ? 'fr' : 'en';
      const files = buildSearchIndex(locale, docs);
      const whole = ShardedIndex.withFiles(roundTrip(files).base, files.files);
      const reference = new MiniSearch({ fields: [...SEARCH_FIELDS], tokenize, processTerm: indexTermProcessor(language) });
      reference.addAll(docs.map((d, id) => ({ id, title: d.title, summary: d.summary, body: d.body })));
      let matched = 0;
      for (const q of queries) {
        const words = wordQueries(whole, q, locale);
        const query = miniSearchQuery(words);
        const answer = (index: MiniSearch) => index.search(query, SEARCH_OPTIONS).map((r) => [r.id, r.score.toFixed(9), [...r.terms].sort().join()]);
        const expected = answer(reference);
        matched += expected.length;
        assert.deepEqual(answer(whole.miniSearch(words)), expected, `${locale}: ${q}`);
      }
      assert.ok(matched > 10, `${locale}: the queries find documents (${matched})`);
    }
  });

  test("the MiniSearch loaded for a query answers exactly as MiniSearch's own JSON of the whole index, with every file or fetching only what the query needs", async () => {
    const docs = [...EN.concat(EN.map((d, i) => ({ ...d, path: `${d.path}${i}/`, body: `${d.body} extra words ${i}` }))), ...corpus(400)];
    const files = buildSearchIndex('en', docs);
    assert.ok(files.base.shards.length > 10, `several shards: ${files.base.shards.length}`);
    const whole = ShardedIndex.withFiles(roundTrip(files).base, files.files);
    const reference = new MiniSearch({ fields: [...SEARCH_FIELDS], tokenize, processTerm: indexTermProcessor('en') });
    reference.addAll(docs.map((d, id) => ({ id, title: d.title, summary: d.summary, body: d.body })));
    const native = MiniSearch.loadJSON(JSON.stringify(reference), { fields: [...SEARCH_FIELDS], tokenize, processTerm: indexTermProcessor('en') });
    const results = (index: MiniSearch, query: ReturnType<typeof miniSearchQuery>) => index.search(query, SEARCH_OPTIONS).map((r) => [r.id, r.score.toFixed(6), [...r.terms].sort().join()]);
    for (const q of [...QUERIES, 'dividnd', 'sharehlders', 'quarterly compan', 'capitol']) {
      const words = wordQueries(whole, q, 'en');
      const query = miniSearchQuery(words);
      const expected = results(native, query);
      assert.deepEqual(results(whole.miniSearch(words), query), expected, q);
      // Every term the whole index reaches for each word is among those fetched and loaded.
      const reached = new Set(whole.reach(words).map((i) => files.base.terms[i]));
      for (const w of words) {
        for (const r of native.search(miniSearchQuery([w]), SEARCH_OPTIONS)) for (const term of r.terms) assert.ok(reached.has(term), `${q}: "${term}" is reached`);
      }
      const { fetched, fetchPart, base } = lazy(files);
      const pieces = ShardedIndex.open(base, fetchPart);
      if (expected.length > 0) assert.throws(() => pieces.miniSearch(words), /not loaded/, `${q}: postings are fetched first`);
      await pieces.load(words);
      assert.deepEqual(results(pieces.miniSearch(words), query), expected, q);
      assert.ok(fetched.every((f) => f.startsWith('t-')) && fetched.length < files.base.shards.length / 2, `${q}: fetched ${fetched.length} of ${files.base.shards.length} shards`);
    }
  });

  test("the term list finds the prefixes and typos MiniSearch's radix tree finds", () => {
    const terms = buildSearchIndex('en', corpus(300, 5)).base.terms;
    const tree = new SearchableMap<number>();
    terms.forEach((t, i) => tree.set(t, i));
    const list = new TermList(terms);
    const queries = [...terms.filter((_, i) => i % 97 === 0), 'dividnd', 'sharehlders', 'a', 'zzzzzzzzzzzz', 'éa', 'capitl', 'xq'];
    for (const q of queries) {
      const [from, to] = list.prefixRange(q);
      assert.deepEqual(terms.slice(from, to), [...tree.atPrefix(q).keys()].sort(), `prefix ${q}`);
      for (const distance of [1, 2, 3]) {
        const ours = [...list.fuzzy(q, distance)].map(([i, d]) => `${terms[i]}:${d}`).sort();
        const theirs = [...tree.fuzzyGet(q, distance)].map(([t, [, d]]) => `${t}:${d}`).sort();
        assert.deepEqual(ours, theirs, `fuzzy ${q} ${distance}`);
      }
      assert.equal(list.has(q), tree.has(q));
    }
  });

  test('prepare fetches the shards a query reaches, then the page of results; search then answers the same at once', async () => {
    const files = buildSearchIndex('en', corpus(400));
    const full = SearchIndex.fromFiles(files);
    for (const q of QUERIES) {
      const { fetched, fetchPart, base } = lazy(files);
      const index = SearchIndex.load(base, fetchPart);
      const outcome = await index.prepare(q, { limit: 5, section: 'insights' });
      assert.deepEqual(outcome, full.search(q, { limit: 5, section: 'insights' }), q);
      assert.deepEqual(index.search(q, { limit: 5, section: 'insights' }), outcome, q);
      assert.equal(new Set(fetched).size, fetched.length, 'each file once');
      const shards = fetched.filter((f) => f.startsWith('t-'));
      assert.ok(shards.length < base.shards.length / 2, `${q}: ${shards.length} of ${base.shards.length} shards`);
      if (outcome.hits.length > 0) assert.ok(fetched.includes(docFile(base, 0)), 'the stored documents');
      // Asking again fetches nothing more.
      const before = fetched.length;
      await index.prepare(q, { limit: 5, section: 'insights' });
      assert.equal(fetched.length, before);
    }
    const { fetched, fetchPart, base } = lazy(files);
    const index = SearchIndex.load(base, fetchPart);
    assert.throws(() => index.search('dividend'), /not loaded/);
    index.prefetchDocuments();
    await index.prepare('dividend');
    assert.deepEqual(fetched.filter((f) => f.startsWith('d-')), [docFile(base, 0)], 'prefetched once, not again');
  });

  test('ranking: the same documents, in the same order, with the same scores as recorded before the loader used only the public API', () => {
    // Recorded at bcfdc5d (its loader subclassed MiniSearch); scores to 12 digits. Ties keep their order too.
    const en = SearchIndex.fromFiles(buildSearchIndex('en', [...EN, ...corpus(300, 13)]));
    const fr = SearchIndex.fromFiles(buildSearchIndex('fr', [...FR, ...corpus(300, 13).map((d) => ({ ...d, locale: 'fr', body: `${d.body} sociétés rendements l'entreprise` }))]));
    const recorded: [locale: 'en' | 'fr', query: string, filters: SearchFilters, total: number, hits: string][] = [
      ['en', 'dividend', {}, 10, '0:35.0432528779 29:21.0263449883 137:21.0263449883 245:21.0263449883 13:5.57073564689 121:5.57073564689 189:5.57073564689 297:5.57073564689 229:5.55249078261 81:5.51653301282'],
      ['en', 'divid', { limit: 8 }, 10, '0:18.8997318892 29:3.52121863850 137:3.52121863850 245:3.52121863850 13:3.00444169720 121:3.00444169720 189:3.00444169720 297:3.00444169720'],
      ['en', 'compan', { section: 'insights', limit: 8 }, 13, '1:4.08453804589 2:4.01097321461 12:3.02863133597 290:3.02863133597 74:3.01877678389 120:3.01877678389 182:3.01877678389 228:3.01877678389'],
      ['en', 'sharehlders quarterly', {}, 1, '0:55.2671329716'],
      ['en', 'capitl', { limit: 8 }, 30, '25:9.39610195627 156:7.89816653497 252:7.89816653497 260:7.89816653497 72:4.23836397644 132:4.23836397644 50:3.39536074020 140:3.39536074020'],
      ['en', 'ab', { types: ['news', 'bio'], limit: 8 }, 21, '208:6.00103384015 78:5.87132672060 55:5.83282146133 38:4.57497307767 5:3.02863133597 95:3.01877678389 113:3.01877678389 203:3.01877678389'],
      ['fr', 'societes', { limit: 8 }, 302, '0:24.9557812113 1:0.0231133551840 101:0.0174597087625 209:0.0174597087625 25:0.0174039385166 40:0.0174039385166 132:0.0174039385166 133:0.0174039385166'],
      ['fr', "l'entreprise", { section: 'insights', limit: 8 }, 200, '101:0.0174597087625 209:0.0174597087625 132:0.0174039385166 234:0.0174039385166 288:0.0174039385166 296:0.0174039385166 24:0.0173486979303 35:0.0173486979303'],
      ['fr', 'rendemnts', { limit: 8 }, 301, '1:0.00945546348437 101:0.00714260813012 209:0.00714260813012 25:0.00711979302950 40:0.00711979302950 132:0.00711979302950 133:0.00711979302950 148:0.00711979302950'],
      ['fr', 'trimestriel', {}, 2, '1:29.3330784964 0:10.8773014709'],
      ['fr', 'portef', { types: ['commentary', 'page'], limit: 8 }, 1, '1:5.55309479344'],
      ['fr', 'economie quebecoise', {}, 1, '2:98.0887787928'],
    ];
    for (const [locale, query, filters, total, hits] of recorded) {
      const outcome = (locale === 'en' ? en : fr).search(query, filters);
      assert.equal(outcome.total, total, `${locale} ${query}`);
      assert.equal(outcome.hits.map((h) => `${h.id}:${h.score.toPrecision(12)}`).join(' '), hits, `${locale} ${query}`);
    }
  });

  test('one index answering query after query (typing on, filters, more results) answers each as a fresh one does', async () => {
    const files = buildSearchIndex('en', [...EN, ...corpus(400, 9)]);
    const { fetchPart, base } = lazy(files);
    const index = SearchIndex.load(base, fetchPart);
    const sequence = ['d', 'di', 'div', 'divid', 'dividnd', 'dividend', 'dividends', 'quarterly', 'quarterly divid', 'di', 'capitl', 'compan', 'di'];
    for (const [i, q] of sequence.entries()) {
      const filters = { limit: 5 + i, types: i % 3 ? [] : ['news', 'commentary'], section: i % 4 ? null : 'insights' };
      const fresh = SearchIndex.fromFiles(roundTrip(files));
      assert.deepEqual(await index.prepare(q, filters), fresh.search(q, filters), `${i}: ${q}`);
      assert.deepEqual(index.search(q, { ...filters, limit: 50 }), fresh.search(q, { ...filters, limit: 50 }), `${i}: ${q}, more results`);
    }
  });

  test("the search code reads MiniSearch through its public API: no subclass, no protected field", async () => {
    const dir = new URL('../../src/features/search/', import.meta.url);
    for (const file of await readdir(dir)) {
      if (!file.endsWith('.ts')) continue;
      const source = await readFile(new URL(file, dir), 'utf8');
      assert.doesNotMatch(source, /extends\s+MiniSearch\b/, file);
      assert.doesNotMatch(source, /\._(?:index|documentIds|idToShortId|fieldIds|fieldLength|avgFieldLength|storedFields|documentCount|nextId|dirtCount|options)\b/, file);
    }
  });

  test('a stale base reloads once when its files are gone, and a file that is not what the base names is refused', async () => {
    const older = buildSearchIndex('en', corpus(200, 3));
    const newer = buildSearchIndex('en', corpus(220, 4));
    // The page holds the older base; the server has the newer build.
    let reloads = 0;
    const server = lazy(newer);
    const index = SearchIndex.load(roundTrip(older).base, { fetchPart: server.fetchPart, reloadBase: async () => (reloads++, roundTrip(newer).base) });
    const outcome = await index.prepare('dividend');
    assert.equal(reloads, 1);
    assert.deepEqual(outcome, SearchIndex.fromFiles(newer).search('dividend'));
    assert.equal(index.documentCount, 220);
    // The server's base is the one already held: no loop, the error stands.
    const same = SearchIndex.load(roundTrip(older).base, { fetchPart: server.fetchPart, reloadBase: async () => roundTrip(older).base });
    await assert.rejects(same.prepare('dividend'), IndexPartError);
    // Content that does not fit the base (a host's HTML fallback page, another build's shard).
    const odd = SearchIndex.load(roundTrip(older).base, async (file) => (file.startsWith('t-') ? '<!doctype html>' : older.files.get(file)!));
    await assert.rejects(odd.prepare('dividend'), IndexPartError);
    const shard = older.base.shards[1]![1];
    const wrong = ShardedIndex.open(roundTrip(older).base, () => Promise.reject(new Error('none')));
    assert.throws(() => wrong.addPart(shard, older.files.get(older.base.shards[2]![1])!), IndexPartError);
    assert.throws(() => wrong.addPart(docFile(older.base, 0), '[\n["a","b","c","d"]\n]'), IndexPartError);
  });

  test('file names: a content hash, and keys safe in any file system and URL', () => {
    const files = buildSearchIndex('fr', [...FR, doc('fr', '/fr/x/', 'Œuvres ĳssel 東京 ça', 'ñandú ørsted'), ...corpus(50)]);
    for (const name of files.files.keys()) assert.match(name, /^(?:t-[a-z0-9_]+|d-\d+)\.[0-9a-f]{10}\.json$/, name);
    assert.deepEqual([...files.files.keys()].sort(), [...files.base.shards.map(([, f]) => f), docFile(files.base, 0)].sort(), 'the base names every file');
    assert.equal(fileKey('di'), 'di');
    assert.equal(fileKey('ça'), '_e7_a');
    assert.equal(fileKey('東京'), '_6771__4eac_');
    assert.notEqual(fileKey('\u0f8a'), fileKey('øa'));
    // Each shard holds the postings of its range of terms; the stored documents one row a line.
    for (const [i, [first, name]] of files.base.shards.entries()) {
      assert.equal((JSON.parse(files.files.get(name)!) as string[]).length, (files.base.shards[i + 1]?.[0] ?? files.base.terms.length) - first);
    }
    assert.equal((JSON.parse(files.files.get(docFile(files.base, 0))!) as unknown[]).length, files.base.documentCount);
  });

  test('a file of another format is refused', () => {
    assert.throws(() => SearchIndex.load({ format: 'something-else' }, () => Promise.reject(new Error('none'))), /not an ir-site search index/);
    assert.throws(() => SearchIndex.load({ ...buildSearchIndex('en', EN).base, format: 'ir-site-search/1' }, () => Promise.reject(new Error('none'))), /not an ir-site search index/);
    assert.throws(() => SearchIndex.load(null, () => Promise.reject(new Error('none'))), /not an ir-site search index/);
  });

  test('an empty index answers nothing', async () => {
    const empty = SearchIndex.load(roundTrip(buildSearchIndex('en', [])).base, () => Promise.reject(new Error('none')));
    assert.deepEqual(await empty.prepare('dividend'), { words: ['dividend'], total: 0, typeCounts: {}, hits: [] });
  });
});

test('a long summary is cut at an ordinary space, never at a no-break one (French typography)', () => {
  // The 239th character is the `%` after the no-break space.
  const summary = `${'mot '.repeat(58)}ab 5,3\u00a0% au troisième trimestre`;
  const { files } = buildSearchIndex('fr', [doc('fr', '/fr/long/', 'Long', 'corps', { summary })]);
  const [, rows] = [...files].find(([name]) => name.startsWith('d-'))!;
  const [, , , cut] = (JSON.parse(rows) as [string, string, string, string][])[0]!;
  assert.ok(cut.length <= 240 && cut.endsWith('…'), cut);
  assert.doesNotMatch(cut, /5,3\u00a0?…$/, 'the number keeps its sign or goes with it');
});
