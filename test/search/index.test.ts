// The search index: how words become terms (accents, elisions, stems), what a query finds
// (prefixes, typos, plurals, scope, types), highlighting, and the compact format that the
// browser loads (it must answer exactly as MiniSearch's own serialization).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import MiniSearch from 'minisearch';
import { CompactMiniSearch, decodePostings, encodePostings } from '../../src/search/codec.js';
import type { SearchDocument } from '../../src/search/documents.js';
import { SearchIndex, highlight, type SearchOutcome } from '../../src/search/engine.js';
import { buildSearchIndex, SEARCH_FIELDS } from '../../src/search/index.js';
import { fold, indexTermProcessor, normalizeWord, queryWords, stem, tokenize } from '../../src/search/text.js';

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

const fr = SearchIndex.load(JSON.parse(JSON.stringify(buildSearchIndex('fr', FR))));
const en = SearchIndex.load(JSON.parse(JSON.stringify(buildSearchIndex('en-CA', EN))));
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
    const index = SearchIndex.load(buildSearchIndex('en', [doc('en', '/capital/', 'Patient capital', ''), doc('en', '/capitol/', 'The capitol building', '')]));
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

describe('compact index format', () => {
  test('postings round-trip, large document numbers and frequencies included', () => {
    const postings: [number, number][] = [[0, 1], [1, 31], [2, 32], [40, 1], [1000, 70000], [123456, 2]];
    assert.deepEqual([...decodePostings(encodePostings(postings))], postings);
    assert.match(encodePostings(postings), /^[0-9A-Za-z_-]+$/);
  });

  test('answers exactly as MiniSearch does from its own JSON', () => {
    const docs = EN.concat(EN.map((d, i) => ({ ...d, path: `${d.path}${i}/`, body: `${d.body} extra words ${i}` })));
    const compact = buildSearchIndex('en', docs);
    const loaded = CompactMiniSearch.fromCompact(JSON.parse(JSON.stringify(compact)), { tokenize, processTerm: indexTermProcessor('en') });
    const reference = new MiniSearch({ fields: [...SEARCH_FIELDS], tokenize, processTerm: indexTermProcessor('en') });
    reference.addAll(docs.map((d, id) => ({ id, title: d.title, summary: d.summary, body: d.body })));
    const roundTrip = MiniSearch.loadJSON(JSON.stringify(reference), { fields: [...SEARCH_FIELDS], tokenize, processTerm: indexTermProcessor('en') });
    const options = { prefix: true, fuzzy: 0.2, boost: { title: 3 } };
    for (const q of ['dividend', 'compan', 'sharehlders quarterly', 'extra 3', 'invest']) {
      const a = loaded.search(q, options).map((r) => [r.id, r.score.toFixed(6)]);
      const b = roundTrip.search(q, options).map((r) => [r.id, r.score.toFixed(6)]);
      assert.deepEqual(a, b, q);
    }
  });

  test('a file of another format is refused', () => {
    assert.throws(() => SearchIndex.load({ format: 'something-else' }), /not an ir-site search index/);
    assert.throws(() => SearchIndex.load(null), /not an ir-site search index/);
  });
});
