import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/build/config/load.js';
import { loadContent } from '../../src/build/content/load.js';
import { validateContent } from '../../src/build/content/validate.js';
import { buildGraph } from '../../src/build/graph/index.js';
import type { Route } from '../../src/build/graph/model.js';
import { fixture, REPO } from '../helpers.js';

const config = await loadConfig({ root: fixture('minimal') });
const { raw } = await loadContent(config);
const { site } = validateContent(raw, config);
const graph = buildGraph(site, config, { includeDrafts: false });
const at = (path: string): Route => {
  const r = graph.routes.find((x) => x.path === path);
  assert.ok(r, `no route ${path}; have ${graph.routes.map((x) => x.path).join(' ')}`);
  return r;
};
const rules = new Map(graph.redirects.map((r) => [r.rule.fromPath, r.rule.toPath]));

test('the graph of a valid site has no problems', () => {
  assert.deepEqual(graph.diagnostics, []);
});

test('identity tokens fill page paths', () => {
  assert.equal(at('/what-is-beta/').template, 'page');
  assert.equal(at('/bobs-corner/').template, 'column');
  assert.equal(at('/fr/bobs-corner/').locale, 'fr');
});

test('every article is published per language, with French slugs under /fr/', () => {
  assert.equal(at('/article/commentary-Q2-2025/').locale, 'en');
  assert.equal(at('/fr/article/commentaire-Q2-2025/').locale, 'fr');
  assert.equal(at('/fr/article/commentaire-Q2-2025/').originalPath, '/article/commentaire-Q2-2025/');
});

test('alternates list each existing translation and only those', () => {
  assert.deepEqual(at('/article/commentary-Q2-2025/').alternates.map((a) => a.path), ['/article/commentary-Q2-2025/', '/fr/article/commentaire-Q2-2025/']);
  assert.deepEqual(at('/article/english-only/').alternates.map((a) => a.path), ['/article/english-only/']);
});

test('a press release with atRoot is also published at /<slug>/, canonical to its article path', () => {
  const root = at('/press-one/');
  assert.equal(root.template, 'article');
  assert.equal(root.canonicalPath, '/article/press-one/');
  assert.equal(root.inSitemap, false);
});

test('section and column pages list their articles newest first', () => {
  const insights = at('/insights/').data;
  assert.equal(insights.template, 'section');
  assert.deepEqual(insights.template === 'section' && insights.articles.map((a) => a.path), ['/article/commentary-Q2-2025/', '/article/press-one/']);
  const column = at('/bobs-corner/').data;
  assert.deepEqual(column.template === 'column' && column.articles.map((a) => a.key), ['press-one']);
});

test('team lists bios by order; bios list their articles and portrait', () => {
  const team = at('/your-team/').data;
  assert.deepEqual(team.template === 'team' && team.members.map((m) => m.handle), ['asmith', 'jdoe']);
  const bio = at('/your-team/jdoe/').data;
  assert.ok(bio.template === 'bio');
  assert.deepEqual({ ...bio.photo, image: undefined }, { src: '/your-team/jdoe/photo.jpg', width: 40, height: 50, alt: 'jdoe name', image: undefined });
  assert.deepEqual(bio.articles.map((a) => a.key), ['commentary-q2-2025']);
});

test('documents next to an entry are published with it; URLs stay URLs', () => {
  const data = at('/article/commentary-Q2-2025/').data;
  assert.ok(data.template === 'article');
  assert.deepEqual(data.documents, [
    { label: 'Report (PDF)', href: '/article/commentary-Q2-2025/report.pdf', local: true },
    { label: 'Regulator', href: 'https://example.org/filing', local: false },
  ]);
  assert.ok(graph.files.some((f) => f.to === '/article/commentary-Q2-2025/report.pdf'));
});

test('search has one page per subsite, and the search page matches every path under it, in both languages', () => {
  assert.equal(at('/search/').matchPath, '/search/*');
  assert.equal(at('/fr/search/').matchPath, '/fr/search/*');
  assert.equal(at('/search/insights/').matchPath, undefined);
  const data = at('/fr/search/insights/').data;
  assert.ok(data.template === 'search-subsite' && data.subsite === 'insights');
});

test('not-found pages exist per language and for the legacy prefix, outside the sitemap', () => {
  for (const p of ['/404.html', '/fr/404.html', '/cn/404.html']) {
    assert.equal(at(p).template, 'not-found');
    assert.equal(at(p).inSitemap, false);
  }
});

test('generated redirects: one /cn/ wildcard, quarter case, French slugs, untranslated articles, redirectFrom', () => {
  assert.equal(rules.get('/cn/*'), '/:splat');
  assert.equal([...rules.keys()].filter((from) => from.startsWith('/cn/')).length, 1);
  // An article with no French translation: its /fr/ path goes to the English article.
  assert.equal(rules.get('/fr/article/english-only/'), '/article/english-only/');
  assert.ok(!rules.has('/fr/article/press-one/'), 'a translated article keeps its French page');
  assert.equal(rules.get('/article/commentary-q2-2025/'), '/article/commentary-Q2-2025/');
  assert.equal(rules.get('/fr/article/commentaire-q2-2025/'), '/fr/article/commentaire-Q2-2025/');
  assert.equal(rules.get('/article/commentaire-Q2-2025/'), '/article/commentary-Q2-2025/');
  assert.equal(rules.get('/article/communique-un/'), '/article/press-one/');
  assert.equal(rules.get('/article/q2-2025/'), '/article/commentary-Q2-2025/');
  assert.equal(rules.get('/old-contact/'), '/contact-us/');
  assert.ok(![...rules.keys()].some((from) => from.startsWith('/cn/fr/')));
});

test('every rule has the SPEC fields', () => {
  for (const { rule } of graph.redirects) {
    assert.deepEqual(Object.keys(rule).sort(), ['fromPath', 'ignoreCase', 'isPermanent', 'redirectInBrowser', 'toPath']);
    assert.equal(rule.isPermanent, false);
    assert.equal(rule.ignoreCase, true);
    assert.equal(rule.redirectInBrowser, true);
  }
});

test('drafts are left out unless asked for', () => {
  const drafted = { ...site, articles: site.articles.map((a) => (a.key === 'english-only' ? { ...a, fm: { ...a.fm, draft: true } } : a)) };
  assert.ok(!buildGraph(drafted, config, { includeDrafts: false }).routes.some((r) => r.path === '/article/english-only/'));
  assert.ok(buildGraph(drafted, config, { includeDrafts: true }).routes.some((r) => r.path === '/article/english-only/'));
});

test('static queries: shared data once per locale, named by hash on every page', () => {
  const names = graph.staticQueries.map((q) => `${q.name}:${q.locale ?? '*'}`).sort();
  assert.deepEqual(names, ['navigation:en', 'navigation:fr', 'portfolio-series:en', 'portfolio-series:fr', 'site-metadata:*', 'ui-strings:en', 'ui-strings:fr']);
  const nav = graph.staticQueries.find((q) => q.name === 'navigation' && q.locale === 'fr')!.data;
  assert.deepEqual(nav, {
    main: [
      { key: 'insights', label: 'Perspectives', path: '/fr/insights/' },
      { key: 'your-team', label: 'Votre équipe', path: '/fr/your-team/' },
      { key: 'column', label: 'Le coin de Bob', path: '/fr/bobs-corner/' },
    ],
    footer: [
      { key: 'contact-us', label: 'Nous joindre', path: '/fr/contact-us/' },
      { key: 'what-is', label: "Qu'est-ce", path: '/fr/what-is-beta/' },
    ],
  });
  assert.equal(new Set(graph.staticQueries.map((q) => q.hash)).size, graph.staticQueries.length);
});

test('files next to a page are published at its path in each language', () => {
  assert.ok(graph.files.some((f) => f.to === '/contact-us/map.svg'));
  assert.ok(graph.files.some((f) => f.to === '/fr/contact-us/map.svg'));
});

test('a draft page named in the navigation is left out, with a warning, not an error', () => {
  const drafted = { ...site, pages: site.pages.map((p) => (p.key === 'what-is' ? { ...p, fm: { ...p.fm, draft: true } } : p)) };
  const g = buildGraph(drafted, config, { includeDrafts: false });
  assert.deepEqual(
    g.diagnostics.map((d) => [d.rule, d.severity, d.field]),
    [['graph/unknown-page', 'warning', 'footer[1]']],
  );
  const nav = g.staticQueries.find((q) => q.name === 'navigation' && q.locale === 'en')!.data as { footer: { key: string }[] };
  assert.deepEqual(nav.footer.map((n) => n.key), ['contact-us']);
});

test('a navigation key that names no page is reported once', () => {
  const broken = { ...site, navigation: { ...site.navigation, main: [...site.navigation.main, 'nowhere'] } };
  const found = buildGraph(broken, config, { includeDrafts: false }).diagnostics;
  assert.equal(found.length, 1);
  assert.equal(found[0]!.field, 'main[3]');
  assert.match(found[0]!.message, /"nowhere"/);
});

test('a missing portrait named by a bio is reported once', () => {
  const broken = { ...site, bios: site.bios.map((b) => (b.key === 'jdoe' && b.locale === 'en' ? { ...b, fm: { ...b.fm, photo: 'nope.jpg' } } : b)) };
  const found = buildGraph(broken, config, { includeDrafts: false }).diagnostics;
  assert.equal(found.filter((d) => d.field === 'photo').length, 1);
});

test('French UI strings are typeset wherever the graph puts them: a filtered listing\'s title as the strings pages receive (the demo)', async () => {
  const demo = await loadConfig({ root: REPO });
  const demoGraph = buildGraph(validateContent((await loadContent(demo)).raw, demo).site, demo, { includeDrafts: false });
  const filtered = demoGraph.routes.filter((r) => r.locale === 'fr' && /\/type\//.test(r.path));
  assert.ok(filtered.length > 0, 'a French listing filtered by type');
  for (const route of filtered) assert.match(String(route.data.title), /\S\u00a0: \S/, route.path);
  const strings = demoGraph.staticQueries.find((q) => q.name === 'ui-strings' && q.locale === 'fr')!.data as Record<string, string>;
  assert.equal(strings['section.filterTitle'], '{title}\u00a0: {filter}');
  const english = demoGraph.routes.find((r) => r.locale === 'en' && /\/type\//.test(r.path))!;
  assert.doesNotMatch(String(english.data.title), /\u00a0/);
});

test('French entries\' titles and descriptions are typeset wherever the graph shows them; English ones and the option off leave them as written', () => {
  const retitle = <E extends { locale: string; fm: object }>(e: E, fm: object): E => ({ ...e, fm: { ...e.fm, ...fm } });
  const frArticle = site.articles.find((a) => a.locale === 'fr' && !a.fm.draft)!;
  const enArticle = site.articles.find((a) => a.locale === 'en' && !a.fm.draft)!;
  const frPage = site.pages.find((p) => p.locale === 'fr' && p.fm.template === 'page')!;
  const headline = { title: 'Pourquoi investir?', description: 'Hausse de 5 % : «bravo»!' };
  const edited = {
    ...site,
    articles: site.articles.map((a) => (a === frArticle || a === enArticle ? retitle(a, { ...headline, documents: [{ label: 'Rapport: version PDF', file: 'https://example.org/r.pdf' }] }) : a)),
    pages: site.pages.map((p) => (p === frPage ? retitle(p, { title: 'Écrivez-nous: merci', navTitle: 'Nous joindre?' }) : p)),
    portfolio: site.portfolio.map((p) => ({ ...p, title: { ...p.title, fr: 'Série A: actions' } })),
    website: { ...site.website, displayName: { ...site.website.displayName, fr: 'Société X: placements' } },
  };
  const graphOf = (frenchTypography: boolean) => buildGraph(edited, { ...config, markdown: { ...config.markdown, frenchTypography } }, { includeDrafts: false });
  const routesOf = (frenchTypography: boolean) => graphOf(frenchTypography).routes;
  const on = routesOf(true);
  const query = (name: string) => graphOf(true).staticQueries.find((q) => q.name === name && q.locale === 'fr')!.data;
  assert.deepEqual((query('portfolio-series') as { title: string }[]).map((s) => s.title), site.portfolio.map(() => 'Série A\u00a0: actions'));
  const metadata = graphOf(true).staticQueries.find((q) => q.name === 'site-metadata')!.data as { displayName: Record<string, string> };
  assert.deepEqual(metadata.displayName, { ...site.website.displayName, fr: 'Société X\u00a0: placements' }, 'the French display name alone');
  const nav = query('navigation') as { main: { key: string; label: string }[]; footer: { key: string; label: string }[] };
  const shown = [...nav.main, ...nav.footer].filter((n) => n.key === frPage.key);
  assert.equal(shown.length, 1, 'the page is in the navigation');
  assert.equal(shown[0]!.label, 'Nous joindre\u202f?');
  const own = (routes: Route[], file: string) => routes.find((r) => r.file === file && r.data.template !== 'not-found')!;
  assert.equal(own(on, frArticle.file).data.title, 'Pourquoi investir\u202f?');
  assert.equal(own(on, frArticle.file).data.description, 'Hausse de 5\u00a0%\u00a0: «\u00a0bravo\u00a0»\u202f!');
  assert.equal(own(on, frPage.file).data.title, 'Écrivez-nous\u00a0: merci');
  assert.deepEqual((own(on, frArticle.file).data as { documents: { label: string }[] }).documents.map((d) => d.label), ['Rapport\u00a0: version PDF']);
  assert.deepEqual((own(on, enArticle.file).data as { documents: { label: string }[] }).documents.map((d) => d.label), ['Rapport: version PDF']);
  const summaries = on.flatMap((r) => [...((r.data as { articles?: { path: string; title: string }[] }).articles ?? []), ...((r.data as { latest?: { path: string; title: string }[] }).latest ?? [])]);
  const frSummaries = summaries.filter((a) => a.path === own(on, frArticle.file).path);
  assert.ok(frSummaries.length > 0, 'a list shows the French article');
  for (const summary of frSummaries) assert.equal(summary.title, 'Pourquoi investir\u202f?');
  assert.equal(own(on, enArticle.file).data.title, 'Pourquoi investir?', 'English is left as written');
  const off = routesOf(false);
  assert.equal(own(off, frArticle.file).data.title, 'Pourquoi investir?');
  assert.equal(own(off, frPage.file).data.title, 'Écrivez-nous: merci');
});

test('an author whose bio is in other languages only: the warning says which, not "a draft"', () => {
  const frenchOnly = { ...site, bios: site.bios.filter((b) => !(b.key === 'jdoe' && b.locale === 'en')) };
  const found = buildGraph(frenchOnly, config, { includeDrafts: false }).diagnostics.filter((d) => d.rule === 'graph/unpublished-author');
  assert.equal(found.length, 1);
  assert.match(found[0]!.message, /"jdoe" has no bio published in en, only in fr: the article is published without its byline/);
});
