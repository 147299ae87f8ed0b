// The files a build writes, on the minimal fixture: Gatsby-shaped records, static
// queries by hash, the HTML shell, languages, redirects and site files.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageDataUrl } from '../../src/shared/paths.js';
import type { PageRecord, RedirectRule } from '../../src/shared/types.js';
import { buildToMemory, fixture } from '../helpers.js';

const { result, out } = await buildToMemory(fixture('minimal'));
const record = (path: string) => out.json<PageRecord>(pageDataUrl(path).slice(1));
const html = (path: string) => out.text(path.endsWith('.html') ? path.slice(1) : `${path.slice(1)}index.html`);
const inlineRecord = (page: string) => JSON.parse(/<script type="application\/json" id="__IR_PAGE_DATA__">(.*?)<\/script>/s.exec(page)![1]!);

test('every page has its record at /page-data/{p}/page-data.json with the Gatsby fields', () => {
  for (const r of result.graph.routes) {
    const rec = record(r.path);
    assert.equal(rec.path, r.path);
    assert.match(rec.componentChunkName, /^component---templates-[a-z-]+-tsx$/);
    assert.deepEqual(Object.keys(rec.result).sort(), ['data', 'pageContext']);
    assert.equal(rec.result.pageContext.locale, r.locale);
    assert.equal(rec.result.pageContext.originalPath, r.originalPath);
    assert.ok(rec.result.pageContext.hrefLang);
    assert.ok(Array.isArray(rec.staticQueryHashes) && rec.staticQueryHashes.length === 4);
  }
  assert.equal(record('/').path, '/');
  assert.ok(out.files.has('page-data/index/page-data.json'));
  assert.ok(out.files.has('page-data/404.html/page-data.json'));
  assert.ok(out.files.has('page-data/fr/404.html/page-data.json'));
});

test('matchPath only where it applies: the search page, listed in page-data/match-paths.json', () => {
  assert.equal(record('/search/').matchPath, '/search/*');
  assert.equal(record('/fr/search/').matchPath, '/fr/search/*');
  assert.equal('matchPath' in record('/search/insights/'), false);
  assert.deepEqual(out.json('page-data/match-paths.json'), [
    { matchPath: '/fr/search/*', path: '/fr/search/' },
    { matchPath: '/search/*', path: '/search/' },
  ]);
});

test('shared data lives in static queries, referenced by hash, never copied into pages', () => {
  const rec = record('/fr/contact-us/');
  for (const hash of rec.staticQueryHashes) {
    const sq = out.json<{ data: Record<string, unknown> }>(`page-data/sq/d/${hash}.json`);
    assert.equal(Object.keys(sq.data).length, 1);
  }
  const pageJson = out.text(pageDataUrl('/fr/contact-us/').slice(1));
  assert.doesNotMatch(pageJson, /"navigation"|"ui-strings"|"skipLink"/);
});

test('app-data.json carries the build hash', () => {
  assert.match(out.json<{ webpackCompilationHash: string }>('page-data/app-data.json').webpackCompilationHash, /^[0-9a-f]{20}$/);
});

test('the HTML carries what the runtime needs: root, chunk name, the record inlined', () => {
  const page = html('/article/commentary-Q2-2025/');
  assert.match(page, /^<!DOCTYPE html>\n<html lang="en-CA">/);
  assert.match(page, /<div id="___gatsby" data-component-chunk="component---templates-article-tsx" data-build="[0-9a-f]{20}"><div id="gatsby-focus-wrapper" tabindex="-1">/);
  assert.match(page, /<script type="module" src="\/static\/runtime\.[A-Z0-9]+\.js"><\/script>/);
  assert.match(page, /<link rel="modulepreload" href="\/static\/chunks\/article\.[A-Z0-9]+\.js">/);
  assert.match(page, /<div id="gatsby-announcer" aria-live="assertive" aria-atomic="true"/);
  assert.deepEqual(inlineRecord(page), record('/article/commentary-Q2-2025/'));
});

test('markdown arrives as React-rendered HTML: table, heading ids, sanitised', () => {
  const page = html('/article/commentary-Q2-2025/');
  assert.match(page, /<h2 id="net-asset-value">Net asset value<\/h2>/);
  assert.match(page, /<table>/);
  assert.doesNotMatch(page, /alert\("x"\)|javascript:/);
  assert.equal(page.match(/<h1[ >]/g)?.length, 1);
});

test('one h1 on every page', () => {
  for (const r of result.graph.routes) assert.equal(html(r.path).match(/<h1[ >]/g)?.length, 1, r.path);
});

test('hreflang alternates are absolute, for existing translations, plus x-default', () => {
  const page = html('/fr/article/commentaire-Q2-2025/');
  assert.match(page, /<html lang="fr-CA">/);
  assert.match(page, /<link rel="alternate" hreflang="en-CA" href="https:\/\/beta\.example\/article\/commentary-Q2-2025\/" data-ir-head="">/);
  assert.match(page, /<link rel="alternate" hreflang="fr-CA" href="https:\/\/beta\.example\/fr\/article\/commentaire-Q2-2025\/" data-ir-head="">/);
  assert.match(page, /<link rel="alternate" hreflang="x-default" href="https:\/\/beta\.example\/article\/commentary-Q2-2025\/" data-ir-head="">/);
  const single = html('/article/english-only/');
  assert.equal(single.match(/hreflang="/g)?.length, 2, 'itself and x-default only');
});

test('the language switcher goes to the translation, or to the other home', () => {
  assert.match(html('/article/commentary-Q2-2025/'), /href="\/fr\/article\/commentaire-Q2-2025\/"[^>]*lang="fr-CA"/);
  assert.match(html('/article/english-only/'), /href="\/fr\/"[^>]*lang="fr-CA"/);
});

test('each page links the manifest of its language', () => {
  assert.match(html('/'), /<link rel="manifest" href="\/manifest_en.webmanifest" data-ir-head="">/);
  assert.match(html('/fr/'), /<link rel="manifest" href="\/manifest_fr.webmanifest" data-ir-head="">/);
  assert.equal(out.json<{ start_url: string }>('manifest_fr.webmanifest').start_url, '/fr/');
  assert.equal(out.json<{ start_url: string }>('manifest_en.webmanifest').start_url, '/');
});

test('sitemap.xml lists pages with xhtml:link alternates; robots.txt points to it', () => {
  const sitemap = out.text('sitemap.xml');
  assert.match(sitemap, /xmlns:xhtml="http:\/\/www.w3.org\/1999\/xhtml"/);
  assert.match(sitemap, /<loc>https:\/\/beta\.example\/fr\/contact-us\/<\/loc>\n {4}<xhtml:link rel="alternate" hreflang="en-CA" href="https:\/\/beta\.example\/contact-us\/"\/>/);
  assert.doesNotMatch(sitemap, /404\.html/);
  assert.match(out.text('robots.txt'), /^Sitemap: https:\/\/beta\.example\/sitemap\.xml$/m);
});

test('redirects.json has every rule with the SPEC fields', () => {
  const rules = out.json<RedirectRule[]>('redirects.json');
  assert.equal(rules.length, result.redirects);
  assert.deepEqual(rules.find((r) => r.fromPath.startsWith('/cn/')), {
    fromPath: '/cn/*',
    toPath: '/:splat',
    isPermanent: false,
    ignoreCase: true,
    redirectInBrowser: true,
  });
});

test('not-found pages carry the inline redirect script; other pages do not', () => {
  for (const p of ['/404.html', '/cn/404.html', '/fr/404.html']) assert.match(html(p), /fetch\("\/redirects\.json"/);
  assert.doesNotMatch(html('/'), /redirects\.json/);
});

test('files next to an entry are published at its path; the stylesheet is content-hashed', () => {
  assert.ok(out.files.has('article/commentary-Q2-2025/report.pdf'));
  assert.ok(out.files.has('your-team/jdoe/photo.jpg') && out.files.has('fr/your-team/jdoe/photo.jpg'));
  const css = /<link rel="stylesheet" href="\/(static\/styles\.[0-9a-f]{10}\.css)">/.exec(html('/'))![1]!;
  assert.ok(out.files.has(css));
  assert.ok(out.files.has('favicon.ico') && out.files.has('favicon.svg'));
});

test('the contact page with no form target has no form that cannot send (the fixture sets no target, no e-mail)', () => {
  assert.doesNotMatch(html('/contact-us/'), /<form[^>]*data-form="contact"/);
  assert.equal(out.files.has('contact-us/sent/index.html'), false);
});

test('every page carries the componentChunkName -> chunk URL map; every chunk exists', () => {
  const map = JSON.parse(/<script type="application\/json" id="__IR_CHUNKS__">(.*?)<\/script>/s.exec(html('/'))![1]!) as Record<string, string>;
  for (const template of ['home', 'section', 'page', 'portfolio', 'team', 'column', 'search', 'search-subsite', 'article', 'bio', 'not-found']) {
    const url = map[`component---templates-${template}-tsx`];
    assert.match(url ?? '', /^\/static\/chunks\/[a-z-]+\.[A-Z0-9]+\.js$/, template);
    assert.ok(out.files.has(url!.slice(1)), url);
  }
  const record = inlineRecord(html('/contact-us/'));
  assert.ok(html('/contact-us/').includes(`<link rel="modulepreload" href="${map[record.componentChunkName]}">`), 'the page preloads its own template');
});
