// The demo site: every route of SPEC.md section 2 in both languages, both identities.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ARTICLE_TYPES, type PageRecord, type SiteMetadata } from '../../src/shared/types.js';
import { buildToMemory, REPO } from '../helpers.js';

const { result, out } = await buildToMemory(REPO);
const paths = new Set(result.graph.routes.map((r) => r.path));
const records = result.graph.routes.map((r) => out.json<PageRecord>(`page-data/${r.path.replace(/^\/|\/$/g, '') || 'index'}/page-data.json`));
const byLocale = (locale: string, template: string) => records.filter((r) => r.result.pageContext.locale === locale && r.result.data.template === template);

const MAIN_PAGES = [
  '/',
  '/insights/',
  '/news-and-events/',
  '/portfolio/',
  '/financial-reports/',
  '/terms-of-use/',
  '/privacy-notice/',
  '/disclaimers/',
  '/contact-us/',
  '/corporate-governance/',
  '/directors-and-officers/',
  '/drivers-of-wealth/',
  '/our-investment-approach/',
  '/what-is-brightwater/',
  '/henris-corner/',
  '/your-team/',
  '/search/',
  '/search/insights/',
  '/search/news-and-events/',
];

test('every main route exists in English and French, as {path}index.html', () => {
  for (const p of MAIN_PAGES) {
    for (const path of [p, `/fr${p}`]) {
      assert.ok(paths.has(path), `missing ${path}`);
      assert.match(out.text(`${path.slice(1)}index.html`), /^<!DOCTYPE html>/);
    }
  }
});

test('not-found pages: /404.html, /fr/404.html, /cn/404.html', () => {
  for (const file of ['404.html', 'fr/404.html', 'cn/404.html']) assert.match(out.text(file), /<h1/);
  assert.match(out.text('fr/404.html'), /<html lang="fr-CA">/);
});

test('at least 30 articles per language, covering every article type', () => {
  for (const locale of ['en', 'fr']) {
    const articles = byLocale(locale, 'article').filter((r) => r.path.includes('/article/'));
    assert.ok(articles.length >= 30, `${locale}: ${articles.length} articles`);
    const types = new Set(articles.map((r) => (r.result.data.template === 'article' ? r.result.data.type : '')));
    for (const type of ARTICLE_TYPES) assert.ok(types.has(type), `${locale}: no ${type}`);
  }
});

test('quarterly commentaries have quarters, annual reports a published PDF, videos a video', () => {
  for (const r of byLocale('en', 'article')) {
    const d = r.result.data;
    if (d.template !== 'article') continue;
    if (d.type === 'commentary') assert.match(d.quarter ?? '', /^Q[1-4]-\d{4}$/);
    if (d.type === 'video') assert.ok(d.video);
    if (d.type === 'annual-report') {
      const pdf = d.documents.find((doc) => doc.local && doc.href.endsWith('.pdf'));
      assert.ok(pdf, `${r.path} has no PDF`);
      assert.match(out.files.get(pdf.href.slice(1))!.subarray(0, 5).toString(), /^%PDF-/);
    }
  }
});

test('some press releases are published at the root in both languages', () => {
  const root = records.filter((r) => r.result.data.template === 'article' && !r.path.includes('/article/'));
  assert.ok(root.some((r) => r.result.pageContext.locale === 'en'));
  assert.ok(root.some((r) => r.result.pageContext.locale === 'fr'));
});

test('10 team bios per language, each with a portrait file', () => {
  for (const locale of ['en', 'fr']) {
    const bios = byLocale(locale, 'bio');
    assert.equal(bios.length, 10);
    for (const b of bios) {
      const photo = b.result.data.template === 'bio' ? b.result.data.photo : null;
      assert.ok(photo && photo.width > 0 && out.files.has(photo.src.slice(1)), `${b.path} portrait`);
    }
  }
});

test('3 portfolio series, with holdings on the portfolio page', () => {
  const page = byLocale('fr', 'portfolio')[0]!;
  assert.ok(page.result.data.template === 'portfolio');
  assert.equal(page.result.data.series?.length, 3);
  assert.ok(page.result.data.series!.every((s) => s.holdings.length > 0));
});

test('entries in one language only say translation: none and have no alternate', () => {
  const single = result.graph.routes.filter((r) => r.template === 'article' && r.alternates.length === 1 && r.path.includes('/article/'));
  assert.ok(single.some((r) => r.locale === 'en') && single.some((r) => r.locale === 'fr'));
  for (const r of single) assert.match(readFileSync(path.join(REPO, r.file!), 'utf8'), /^translation: none$/m, r.file!);
});

test('on a page with no translation, the language switcher says, in the page\'s language, that it leads to the home page', () => {
  const switcher = (route: { path: string }) => /<nav class="language-switcher"[^>]*>([\s\S]*?)<\/nav>/.exec(out.text(`${route.path.slice(1)}index.html`))![1]!;
  const single = result.graph.routes.filter((r) => r.template === 'article' && r.alternates.length === 1);
  for (const [locale, home, hint] of [
    ['en', '/fr/', '<span class="visually-hidden" lang="en-CA"> (home page: this page is not translated)</span>'],
    ['fr', '/', '<span class="visually-hidden" lang="fr-CA"> (page d’accueil\u00a0: cette page n’est pas traduite)</span>'],
  ] as const) {
    const route = single.find((r) => r.locale === locale);
    assert.ok(route, `an article only in ${locale}`);
    const links = switcher(route);
    assert.ok(links.includes(`href="${home}"`), links);
    assert.ok(links.includes(hint), links);
  }
  const translated = result.graph.routes.find((r) => r.template === 'article' && r.alternates.length === 2)!;
  assert.doesNotMatch(switcher(translated), /visually-hidden/, 'a page with a translation links to it, with no hint');
});

test('French pages are in French', () => {
  const html = out.text('fr/index.html');
  assert.match(html, /Aller au contenu principal/);
  assert.doesNotMatch(html, /Skip to main content/);
});

test('French titles and descriptions keep their typography in every place a page shows them: heading, <title>, meta and social descriptions, structured data', () => {
  const typeset = records.filter((r) => r.result.pageContext.locale === 'fr' && r.result.data.template === 'article' && /\u00a0|\u202f/.test(r.result.data.description ?? ''));
  assert.ok(typeset.length >= 5, `French articles whose description has a no-break space: ${typeset.length}`);
  for (const record of typeset) {
    const html = out.text(`${record.path.slice(1)}index.html`);
    const description = record.result.data.description!.replace(/'/g, '&#39;');
    for (const name of ['name="description"', 'property="og:description"']) assert.ok(html.includes(`<meta ${name} content="${description}"`), `${record.path}: ${name} as the record has it`);
    assert.ok(html.includes(`"description":${JSON.stringify(record.result.data.description)}`), `${record.path}: the structured data's description`);
  }
  const titled = records.find((r) => r.result.pageContext.locale === 'fr' && /\u00a0:/.test(r.result.data.title))!;
  const html = out.text(`${titled.path.slice(1) || ''}index.html`);
  assert.ok(html.includes(`>${titled.result.data.title.replace(/'/g, '&#x27;')}</h1>`), `${titled.path}: the heading`);
  assert.match(html, new RegExp(`<title>${titled.result.data.title.replace(/'/g, '&#39;').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\|`), `${titled.path}: the <title>`);
});

test('the sign-in section of the identity reaches every page as site.signIn', () => {
  const sq = result.graph.staticQueries.find((q) => q.name === 'site-metadata')!;
  const site = sq.data as SiteMetadata;
  assert.equal(site.signIn?.mandatory, true);
  assert.equal(site.signIn?.region, 'us-east-1');
  for (const r of records) assert.ok(r.staticQueryHashes.includes(sq.hash));
});

test('--site larkspur builds the other identity: its tokens, URL and no sign-in', async () => {
  const other = await buildToMemory(REPO, { site: 'larkspur' });
  const otherPaths = new Set(other.result.graph.routes.map((r) => r.path));
  for (const p of ['/what-is-larkspur/', '/eleanors-corner/', '/fr/what-is-larkspur/', '/fr/eleanors-corner/']) assert.ok(otherPaths.has(p), p);
  assert.ok(!otherPaths.has('/what-is-brightwater/'));
  assert.match(other.out.text('index.html'), /href="https:\/\/www\.larkspur-capital\.example\/fr\/"/);
  const site = other.result.graph.staticQueries.find((q) => q.name === 'site-metadata')!.data as SiteMetadata;
  assert.equal(site.identity, 'larkspur');
  assert.equal(site.signIn, null);

  // Issue 20 point 5: one content tree, no mixed brand. No file of either build (pages, data,
  // documents: the annual reports have a larkspur copy, annual-report-2024.larkspur.pdf) names
  // the other company, its chair or its e-mail domain (the words of site.config.ts).
  const html = (sink: typeof out) => [...sink.files].map(([f, data]) => [f, data.toString('latin1')] as const);
  assert.ok(html(other.out).some(([f]) => f === 'article/annual-report-2024/annual-report-2024.pdf'), 'the documents are among the files checked');
  const mixed = (pages: (readonly [string, string])[], words: RegExp) => pages.filter(([, text]) => words.test(text)).map(([f, text]) => `${f}: ${words.exec(text)![0]}`);
  assert.deepEqual(mixed(html(other.out), /brightwater|henri\b|mercier/i), [], 'larkspur pages that name brightwater');
  assert.deepEqual(mixed(html(out), /larkspur|eleanor|whitfield/i), [], 'brightwater pages that name larkspur');
  // Tokens: the company's names, in both languages, and its e-mail addresses.
  assert.match(other.out.text('what-is-larkspur/index.html'), /under the symbol LKC/);
  assert.match(other.out.text('fr/article/larkspur-publie-ses-resultats-annuels-2024/index.html'), /Larkspur publie ses résultats annuels 2024/);
  assert.match(other.out.text('your-team/aokafor/index.html'), /aokafor@larkspur-capital\.example/);
  // The column page lists its own chair's letters only (entries limited with identities:).
  const letters = (sink: typeof out, column: string) => [...sink.text(column).matchAll(/class="card__title"><a href="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(letters(other.out, 'eleanors-corner/index.html'), ['/article/eleanors-corner-the-long-view/']);
  assert.deepEqual(letters(out, 'henris-corner/index.html').sort(), ['/article/henris-corner-in-praise-of-boring-businesses/', '/article/henris-corner-summer-at-the-lake/']);
  // A variant file (contact-us/en.larkspur.md) stands in for the entry; a {{#only}} block picks the link to the right column.
  assert.match(other.out.text('contact-us/index.html'), /200 Wellington Street West/);
  assert.doesNotMatch(other.out.text('contact-us/index.html'), /Saint-Laurent/);
  assert.match(out.text('contact-us/index.html'), /Saint-Laurent/);
  assert.match(other.out.text('article/commentary-Q3-2025/index.html'), /href="\/article\/eleanors-corner-the-long-view\/"/);
});
