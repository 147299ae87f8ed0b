import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/build/config/load.js';
import type { RawEntry, RawSite } from '../../src/build/content/raw.js';
import { dateProblem } from '../../src/build/content/schemas.js';
import { validateContent } from '../../src/build/content/validate.js';
import { findDiagnostic, fixture } from '../helpers.js';

const config = await loadConfig({ root: fixture('minimal') });

function article(data: Record<string, unknown>, file = 'content/articles/x/en.md'): RawEntry {
  const fieldLines = Object.fromEntries(Object.keys(data).map((k, i) => [k, i + 2]));
  return { collection: 'articles', key: 'x', locale: 'en', file, data, body: 'Body', bodyLine: 10, fieldLines, bodyDigest: 'b', matterDigest: 'm' };
}

function site(entries: RawEntry[]): RawSite {
  return {
    entries,
    portfolio: [],
    website: { file: 'content/site.yaml', data: { performanceApprovalDate: '2025-01-01', asAtDate: '2025-01-01', identities: { second: { displayName: { en: 'B' } } } }, fieldLines: {} },
    navigation: null,
    redirects: null,
    strings: [{ locale: 'en', file: 'locales/en.json', data: {}, keyLines: {} }],
    assets: [],
    stylesheet: null,
  };
}

const valid = { title: 'T', slug: 'a-slug', date: '2025-06-30', type: 'news' };

test('a valid article passes with defaults filled in', () => {
  const { site: out, diagnostics } = validateContent(site([article(valid)]), config);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(out.articles[0]!.fm.sections, []);
  assert.equal(out.articles[0]!.fm.draft, false);
});

test('a missing title names file, line and field', () => {
  const { title: _t, ...rest } = valid;
  const { diagnostics } = validateContent(site([article(rest)]), config);
  const d = findDiagnostic(diagnostics, { field: 'title' });
  assert.equal(d.message, 'missing required field "title"');
  assert.equal(d.file, 'content/articles/x/en.md');
  assert.equal(d.line, 1);
});

test('an optional field left empty (`author:`, which YAML reads as null) is no field; a required one says it has no value', () => {
  const empty = { ...valid, description: null, author: null, updated: null, atRoot: null, translation: null };
  const { site: out, diagnostics } = validateContent(site([article(empty)]), config);
  assert.deepEqual(diagnostics, []);
  assert.equal(out.articles[0]!.fm.atRoot, false);
  assert.equal(out.articles[0]!.fm.description, undefined);
  const { diagnostics: title } = validateContent(site([article({ ...valid, title: null })]), config);
  const d = findDiagnostic(title, { field: 'title' });
  assert.equal(d.message, '"title" has no value');
  assert.equal(d.line, 2);
});

test('a missing type is a missing required field, like any other', () => {
  const { type: _t, ...rest } = valid;
  const d = findDiagnostic(validateContent(site([article(rest)]), config).diagnostics, { field: 'type' });
  assert.equal(d.message, 'missing required field "type"');
});

test('a date that is not a calendar date says why, at the date line', () => {
  const { diagnostics } = validateContent(site([article({ ...valid, date: '2025-02-30' })]), config);
  const d = findDiagnostic(diagnostics, { field: 'date' });
  assert.equal(d.line, 4);
  assert.match(d.message, /2025-02 has 28 days/);
  assert.equal(dateProblem('2025-13-01'), 'expected a calendar date YYYY-MM-DD (month 13 does not exist)');
  assert.equal(dateProblem('2024-02-29'), null);
  // The years 0 to 99 are those years, not 1900 to 1999: 0000 was a leap year, 0100 was not.
  assert.equal(dateProblem('0000-02-29'), null);
  assert.match(dateProblem('0100-02-29')!, /0100-02 has 28 days/);
  assert.equal(dateProblem('0004-02-29'), null);
  assert.match(dateProblem('30/06/2025')!, /YYYY-MM-DD/);
});

test('an unknown type lists the valid ones', () => {
  const { diagnostics } = validateContent(site([article({ ...valid, type: 'blog' })]), config);
  const d = findDiagnostic(diagnostics, { field: 'type' });
  assert.match(d.message, /"blog" is not a valid type; expected one of: commentary, press-release/);
  assert.equal(d.line, 5);
});

test('nested fields are named with their index', () => {
  const { diagnostics } = validateContent(site([article({ ...valid, documents: [{ label: 'ok', file: 'a.pdf' }, { label: '' }] })]), config);
  findDiagnostic(diagnostics, { field: 'documents[1].label' });
  findDiagnostic(diagnostics, { field: 'documents[1].file', message: 'missing required field "documents[1].file"' });
});

test('slugs are lower case, with a capitalised quarter allowed', () => {
  const ok = validateContent(site([article({ ...valid, slug: 'commentary-Q2-2025', type: 'commentary', quarter: 'Q2-2025' })]), config);
  assert.deepEqual(ok.diagnostics, []);
  const bad = validateContent(site([article({ ...valid, slug: 'Hello World' })]), config);
  findDiagnostic(bad.diagnostics, { field: 'slug' });
});

test('a commentary needs its quarter', () => {
  const { diagnostics } = validateContent(site([article({ ...valid, type: 'commentary' })]), config);
  findDiagnostic(diagnostics, { field: 'quarter' });
});

test('a file named after an unconfigured locale is reported', () => {
  const { diagnostics } = validateContent(site([{ ...article(valid), locale: 'de', file: 'content/articles/x/de.md' }]), config);
  findDiagnostic(diagnostics, { rule: 'content/unknown-locale', file: 'content/articles/x/de.md' });
});

test('every problem of a run is reported, not just the first', () => {
  const { diagnostics } = validateContent(
    site([article({ slug: 'a', date: 'soon', type: 'x' }, 'content/articles/a/en.md'), article({ ...valid, title: '' }, 'content/articles/b/en.md')]),
    config,
  );
  assert.deepEqual(diagnostics.map((d) => `${d.file} ${d.field}`).sort(), [
    'content/articles/a/en.md date',
    'content/articles/a/en.md title',
    'content/articles/a/en.md type',
    'content/articles/b/en.md title',
  ]);
});

test('an unknown field is a warning that suggests the field meant', () => {
  const { site: out, diagnostics } = validateContent(site([article({ ...valid, titel: 'x', colour: 'red' })]), config);
  assert.equal(out.articles.length, 1, 'the entry still builds');
  const typo = findDiagnostic(diagnostics, { field: 'titel', severity: 'warning', rule: 'content/unknown-field' });
  assert.equal(typo.hint, 'did you mean "title"?');
  assert.equal(typo.line, 6);
  assert.match(findDiagnostic(diagnostics, { field: 'colour' }).hint!, /^known fields: title, description/);
});

test('a key no schema knows in a YAML file, or in a redirect rule, is a warning at its line (a typo would empty a menu silently)', () => {
  const raw = site([article(valid)]);
  raw.navigation = { file: 'config/navigation.yaml', data: { main: [], footers: ['contact-us'] }, fieldLines: { main: 1, footers: 2 } };
  raw.redirects = { file: 'config/redirects.yaml', data: [{ from: '/old/', to: '/', status: 301 }], fieldLines: { 0: 1 } };
  const { diagnostics } = validateContent(raw, config);
  const footers = findDiagnostic(diagnostics, { rule: 'content/unknown-field', file: 'config/navigation.yaml' });
  assert.deepEqual([footers.line, footers.field, footers.severity], [2, 'footers', 'warning']);
  assert.match(footers.hint!, /did you mean "footer"\?/);
  const status = findDiagnostic(diagnostics, { rule: 'content/unknown-field', file: 'config/redirects.yaml' });
  assert.deepEqual([status.line, status.field], [1, '[0].status']);
});

test('a redirect target that is neither a site path nor an http(s) URL says which it must be', () => {
  const messages = (to: unknown) => {
    const raw = site([article(valid)]);
    raw.redirects = { file: 'config/redirects.yaml', data: [{ from: '/old/', to }], fieldLines: { 0: 1 } };
    return validateContent(raw, config).diagnostics.filter((d) => d.file === 'config/redirects.yaml').map((d) => d.message);
  };
  assert.deepEqual(messages('javascript:alert(1)'), ['expected a site path (/new-path/) or an http(s) URL (https://example.com/page), with no spaces (write %20)']);
  assert.match(messages('//evil.example/')[0]!, /a site path starting with a single "\/"/);
  assert.match(messages('/insights/?a=1')[0]!, /no spaces, query or fragment/);
  assert.deepEqual(messages('https://example.com/x'), []);
  assert.deepEqual(messages('/insights/'), []);
});

test('a portfolio title written as plain text gets a hint for a title per language', () => {
  const raw = site([article(valid)]);
  raw.portfolio = [{ file: 'content/portfolio/global.yaml', data: { title: 'Global', holdings: [] }, fieldLines: { title: 1, holdings: 2 } }];
  const d = findDiagnostic(validateContent(raw, config).diagnostics, { file: 'content/portfolio/global.yaml', field: 'title' });
  assert.equal(d.line, 1);
  assert.match(d.hint!, /title: \{ en: Core holdings, fr: Placements principaux \}/);
});

test('left empty, draft and identities are errors, not their defaults (which would publish the entry); an empty type says it has no value', () => {
  for (const field of ['draft', 'identities', 'type']) {
    const d = findDiagnostic(validateContent(site([article({ ...valid, [field]: null })]), config).diagnostics, { field });
    assert.equal(d.severity, 'error');
    assert.equal(d.message, `"${field}" has no value`);
  }
});
