// Identity tokens and blocks (src/build/content/identity.ts): what a body, front matter and
// UI strings become for the identity being built.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fillData, fillText, identityAssets, identityDigest, identityTextOf, variantOf } from '../../src/build/content/identity.js';

const config = (identityKey: string) => ({
  identityKey,
  identityKeys: ['larkspur', 'brightwater'],
  defaultLocale: 'en',
  identity:
    identityKey === 'larkspur'
      ? { site: 'larkspur', name: 'eleanor', siteUrl: 'https://l.example', tokens: { short: 'Larkspur', company: { en: 'Larkspur Capital Corporation', fr: 'Société de capital Larkspur' } } }
      : { site: 'brightwater', name: 'henri', siteUrl: 'https://b.example', tokens: { short: 'Brightwater', company: { en: 'Brightwater Investment Corporation', fr: "Corporation d'investissement Brightwater" } } },
});
const larkspur = identityTextOf(config('larkspur'));
const brightwater = identityTextOf(config('brightwater'));

test('tokens become the identity\'s value, per locale where the value has locales; site, name and siteUrl are built in', () => {
  assert.equal(fillText('At {{short}}, {{ company }} ({{site}}, {{name}}, {{siteUrl}})', larkspur, 'en').text, 'At Larkspur, Larkspur Capital Corporation (larkspur, eleanor, https://l.example)');
  assert.equal(fillText('la {{company}}', larkspur, 'fr').text, 'la Société de capital Larkspur');
  assert.equal(fillText('la {{company}}', brightwater, 'fr').text, "la Corporation d'investissement Brightwater");
  // A locale without its own value takes the default locale's.
  assert.equal(fillText('{{company}}', larkspur, 'cn').text, 'Larkspur Capital Corporation');
});

test('an unknown token is a problem with its line and the known names, and is left as written', () => {
  const { text, problems } = fillText('one\n{{shrot}} two', larkspur, 'en');
  assert.equal(text, 'one\n{{shrot}} two');
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.line, 2);
  assert.match(problems[0]!.message, /unknown identity token "\{\{shrot\}\}"/);
  assert.match(problems[0]!.hint!, /short/);
  // Braces that are no token (a code sample) are left alone.
  assert.deepEqual(fillText('`{{ 1 + 1 }}` and {{}}', larkspur, 'en'), { text: '`{{ 1 + 1 }}` and {{}}', problems: [] });
});

test('{{#only}} blocks are kept for the identities they name; every line stays where it was', () => {
  const body = ['before', '{{#only brightwater}}', 'B {{short}}', '{{/only}}', '{{#only larkspur brightwater}}', 'both {{short}}', '{{/only}}', 'after'].join('\n');
  assert.equal(fillText(body, larkspur, 'en').text, ['before', '', '', '', '', 'both Larkspur', '', 'after'].join('\n'));
  assert.equal(fillText(body, brightwater, 'en').text, ['before', '', 'B Brightwater', '', '', 'both Brightwater', '', 'after'].join('\n'));
  // A token inside a dropped block is not judged: it may be the other identity's.
  assert.deepEqual(fillText('{{#only brightwater}}\n{{onlyThere}}\n{{/only}}', larkspur, 'en').problems, []);
});

test('unclosed, nested, stray and unknown-identity blocks are problems', () => {
  const messages = (body: string) => fillText(body, larkspur, 'en').problems.map((p) => `${p.line}: ${p.message}`);
  assert.deepEqual(messages('{{#only larkspur}}\nx'), ['1: "{{#only ...}}" is never closed']);
  assert.match(messages('{{#only larkspur}}\n{{#only brightwater}}\n{{/only}}')[0]!, /^2: .*do not nest/);
  assert.deepEqual(messages('x\n{{/only}}'), ['2: "{{/only}}" without a "{{#only ...}}" line before it']);
  assert.match(messages('{{#only larksprr}}\n{{/only}}')[0]!, /^1: .*unknown identity: larksprr/);
});

test('front matter: every string is filled in, nested ones included; the input is not changed', () => {
  const data = { title: '{{short}} reports', slug: '{{site}}-reports', documents: [{ label: '{{company}}' }], order: 3 };
  const filled = fillData(data, larkspur, 'fr');
  assert.deepEqual(filled, { title: 'Larkspur reports', slug: 'larkspur-reports', documents: [{ label: 'Société de capital Larkspur' }], order: 3 });
  assert.equal(data.title, '{{short}} reports');
});

test('the body digest differs per identity, so caches keep the identities apart', () => {
  assert.notEqual(identityDigest('abc', larkspur), identityDigest('abc', brightwater));
  assert.equal(identityDigest('abc', larkspur), identityDigest('abc', identityTextOf(config('larkspur'))));
});

test('file names: en.larkspur.md is larkspur\'s variant of en.md', () => {
  assert.deepEqual(variantOf('en'), { locale: 'en' });
  assert.deepEqual(variantOf('en.larkspur'), { locale: 'en', variant: 'larkspur' });
});

test("file names: report.larkspur.pdf is larkspur's copy of report.pdf, published under the plain name", () => {
  const asset = (dir: string, name: string) => ({ dir, name, absPath: `/site/${dir}/${name}` });
  const found = [
    asset('content/a', 'report.pdf'),
    asset('content/a', 'report.larkspur.pdf'),
    asset('content/a', 'chart.v2.png'),
    asset('content/b', 'only.larkspur.pdf'),
    asset('content/b', 'other.brightwater.pdf'),
  ];
  const identities = ['brightwater', 'larkspur'];
  const names = (list: { dir: string; name: string; absPath: string }[]) => list.map((a) => `${a.dir}/${a.name} <- ${a.absPath}`).sort();
  assert.deepEqual(names(identityAssets(found, 'larkspur', identities)), [
    'content/a/chart.v2.png <- /site/content/a/chart.v2.png',
    'content/a/report.pdf <- /site/content/a/report.larkspur.pdf',
    'content/b/only.pdf <- /site/content/b/only.larkspur.pdf',
  ]);
  assert.deepEqual(names(identityAssets(found, 'brightwater', identities)), [
    'content/a/chart.v2.png <- /site/content/a/chart.v2.png',
    'content/a/report.pdf <- /site/content/a/report.pdf',
    'content/b/other.pdf <- /site/content/b/other.brightwater.pdf',
  ]);
});
