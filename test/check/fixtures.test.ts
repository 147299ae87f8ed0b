// `ir-site check` on fixture sites that each plant one defect into check-clean: every
// defect of the issue is found, exactly, with the page, the source file and line, and
// nothing else is reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { check, type Finding } from '../../src/commands/check/index.js';
import { fixture } from '../helpers.js';

type Expected = Partial<Finding>;

/** The findings of a fixture, each reduced to the keys the expectation names. */
async function findingsOf(name: string, expected: Expected[]): Promise<{ found: Partial<Finding>[]; all: Finding[] }> {
  const { diagnostics } = await check({ root: fixture(name) });
  const keys = new Set(expected.flatMap((e) => Object.keys(e)));
  const found = diagnostics.map((d) => Object.fromEntries(Object.entries(d).filter(([k]) => keys.has(k))) as Partial<Finding>);
  return { found, all: diagnostics };
}

async function expectExactly(name: string, expected: Expected[]): Promise<Finding[]> {
  const { found, all } = await findingsOf(name, expected);
  const order = (f: Partial<Finding>) => `${f.rule}\0${f.file}\0${String(f.line).padStart(6)}`;
  assert.deepEqual([...found].sort((a, b) => order(a).localeCompare(order(b))), [...expected].sort((a, b) => order(a).localeCompare(order(b))), JSON.stringify(all, null, 2));
  return all;
}

test('check-clean: the base of every defect fixture has nothing to report', async () => {
  const result = await check({ root: fixture('check-clean') });
  assert.deepEqual(result.diagnostics, []);
  assert.equal(result.built, true);
  assert.equal(result.stats.pages, 12); // with the two offline pages (offline.html, fr/offline.html)
  assert.ok(result.stats.links > 100, `${result.stats.links} links checked`);
  // The legacy prefix is one wildcard rule (issue 20 point 4), not one per English page.
  assert.ok(result.stats.redirects >= 3, `${result.stats.redirects}: written, legacy-prefix and quarter-case rules`);
});

test('links/broken: a link to a page that does not exist, at its line and column in the body', async () => {
  const [f] = await expectExactly('check-broken-link', [
    {
      severity: 'error',
      rule: 'links/broken',
      file: 'content/pages/home/en.md',
      line: 7,
      column: 17,
      page: '/',
      message: 'the link to /our-team/ leads nowhere: no page, file or redirect rule has this path',
    },
  ]);
  assert.equal(f!.excerpt, 'Meet [our team](/our-team/).');
});

test('links/missing-anchor: a #fragment the target page has no id for', async () => {
  await expectExactly('check-missing-anchor', [
    {
      severity: 'error',
      rule: 'links/missing-anchor',
      file: 'content/pages/home/en.md',
      line: 6,
      column: 30,
      page: '/',
      message: 'the link to /article/commentary-Q2-2025/#outlook: /article/commentary-Q2-2025/ has no element with id "outlook"',
    },
  ]);
});

test('links/missing-file: a PDF the content links to is not next to the entry', async () => {
  const [f] = await expectExactly('check-missing-file', [
    {
      severity: 'error',
      rule: 'links/missing-file',
      file: 'content/articles/commentary-q2-2025/en.md',
      line: 19,
      column: 28,
      page: '/article/commentary-Q2-2025/',
      message: 'the link to report-2025.pdf: no such file in the output',
    },
  ]);
  assert.match(f!.hint!, /^did you mean \/article\/commentary-Q2-2025\/report\.pdf\? Otherwise put report-2025\.pdf next to the entry/);
});

test('languages/missing-translation: an entry in one language without translation: none', async () => {
  const [f] = await expectExactly('check-missing-translation', [
    {
      severity: 'error',
      rule: 'languages/missing-translation',
      file: 'content/articles/untranslated/en.md',
      line: 2,
      page: '/article/untranslated-news/',
      message: 'this entry has no French version: there is no content/articles/untranslated/fr.md',
    },
  ]);
  assert.match(f!.hint!, /write content\/articles\/untranslated\/fr\.md, or add "translation: none"/);
});

test('a UI string key one locale file lacks fails the build itself (locales/missing-string), so check reports the build error', async () => {
  const result = await check({ root: fixture('check-missing-string') });
  assert.equal(result.built, false);
  const found = result.diagnostics.map((d) => ({ severity: d.severity, rule: d.rule, file: d.file, field: d.field }));
  assert.deepEqual(found, [{ severity: 'error', rule: 'locales/missing-string', file: 'locales/fr.json', field: 'article.by' }]);
  assert.match(result.diagnostics[0]!.message, /the UI string "article\.by" is missing here \(locales\/en\.json:25 has it\); its pages would show "article\.by" as text/);
});

test('languages/unused-string: a UI string key no template and no runtime code uses', async () => {
  await expectExactly('check-unused-string', [
    {
      severity: 'warning',
      rule: 'languages/unused-string',
      file: 'locales/en.json',
      line: 57,
      message: 'the UI string "home.welcomeBack" is not used by any template or by the browser runtime',
    },
  ]);
});

test('languages/cross-language-link: a French page links to an English page that has a French version', async () => {
  const [f] = await expectExactly('check-cross-language', [
    {
      severity: 'warning',
      rule: 'languages/cross-language-link',
      file: 'content/articles/commentary-q2-2025/fr.md',
      line: 16,
      column: 58,
      page: '/fr/article/commentaire-Q2-2025/',
      message: 'this French page links to the English page /insights/, which has a French version: /fr/insights/',
    },
  ]);
  assert.equal(f!.hint, 'link to /fr/insights/');
  // The same page's link to /article/english-only/ (no French version) is not reported: check-clean has it.
});

test('redirects/chain: A -> B -> C says "point A at C"', async () => {
  const result = await check({ root: fixture('check-redirect-chain') });
  assert.equal(result.built, false, 'a certain redirect problem stops the build, and check reports it');
  const [f] = await expectExactly('check-redirect-chain', [
    { severity: 'error', rule: 'redirects/chain', file: 'config/redirects.yaml', line: 3, message: 'redirect chain: /older-insights/ -> /old-insights/ -> /insights/' },
  ]);
  assert.equal(f!.hint, 'point /older-insights/ at /insights/');
});

test('redirects/loop', async () => {
  await expectExactly('check-redirect-loop', [
    { severity: 'error', rule: 'redirects/loop', file: 'config/redirects.yaml', line: 3, message: 'redirect loop: /views/ -> /opinions/ -> /views/' },
  ]);
});

test('redirects/missing-target', async () => {
  await expectExactly('check-redirect-missing-target', [
    {
      severity: 'error',
      rule: 'redirects/missing-target',
      file: 'config/redirects.yaml',
      line: 3,
      message: 'the redirect from /team/ points to /your-team/, which is not a page of this site',
    },
  ]);
});

test('redirects/duplicate-source: two rules from one path, case ignored as the rules ignore it', async () => {
  await expectExactly('check-redirect-duplicate', [
    {
      severity: 'error',
      rule: 'redirects/duplicate-source',
      file: 'config/redirects.yaml',
      line: 3,
      message: 'two redirect rules from /Old-Insights/: to /insights/ (config/redirects.yaml:1) and to /article/commentary-Q2-2025/',
    },
  ]);
});

test('redirects/shadows-page: a rule from the path of a real page', async () => {
  await expectExactly('check-redirect-shadows', [
    { severity: 'error', rule: 'redirects/shadows-page', file: 'config/redirects.yaml', line: 3, message: 'the redirect from /insights/ hides a page that exists at that path' },
  ]);
});

test('redirects/case-shadows-page: a rule that ignores case catches other spellings of a page (a warning)', async () => {
  await expectExactly('check-redirect-case', [
    {
      severity: 'warning',
      rule: 'redirects/case-shadows-page',
      file: 'config/redirects.yaml',
      line: 3,
      message: 'the redirect from /INSIGHTS/ ignores case, so every other spelling of the page /insights/ (such as /INSIGHTS/) goes to /article/commentary-Q2-2025/ instead of the page',
    },
  ]);
  // check-clean's commentary has the generated rule /article/commentary-q2-2025/ -> /article/commentary-Q2-2025/,
  // which matches its own target when case is ignored: that is not reported (the server never redirects a path to itself).
});

test('site/orphan: a page no other page links to (a warning)', async () => {
  await expectExactly('check-orphan', [
    { severity: 'warning', rule: 'site/orphan', file: 'content/pages/about/en.md', line: 2, page: '/about/', message: 'no other page links to /about/' },
  ]);
});

test('site/duplicate-title: two English pages with one title, each told about the other', async () => {
  await expectExactly('check-duplicate-title', [
    {
      severity: 'warning',
      rule: 'site/duplicate-title',
      file: 'content/articles/commentary-q2-2025-bis/en.md',
      line: 2,
      page: '/article/commentary-q2-2025-second-look/',
      message: 'the title "Commentary Q2 2025" is also the title of /article/commentary-Q2-2025/',
    },
    {
      severity: 'warning',
      rule: 'site/duplicate-title',
      file: 'content/articles/commentary-q2-2025/en.md',
      line: 2,
      page: '/article/commentary-Q2-2025/',
      message: 'the title "Commentary Q2 2025" is also the title of /article/commentary-q2-2025-second-look/',
    },
  ]);
});

test('site/duplicate-title: a search page and its scoped copy made from one entry share a title (the state of issue 21, point 5)', async () => {
  const finding = (lang: 'en' | 'fr', page: string, other: string, title: string) => ({
    severity: 'warning' as const,
    rule: 'site/duplicate-title' as const,
    file: `content/pages/search/${lang}.md`,
    line: 2,
    page,
    message: `the title "${title}" is also the title of ${other}`,
  });
  await expectExactly('check-duplicate-search-title', [
    finding('en', '/search/', '/search/insights/', 'Search'),
    finding('en', '/search/insights/', '/search/', 'Search'),
    finding('fr', '/fr/search/', '/fr/search/insights/', 'Recherche'),
    finding('fr', '/fr/search/insights/', '/fr/search/', 'Recherche'),
  ]);
});

test('site/missing-description: a page whose meta description falls back to the site name', async () => {
  await expectExactly('check-missing-description', [
    {
      severity: 'warning',
      rule: 'site/missing-description',
      file: 'content/pages/insights/en.md',
      line: 2,
      field: 'description',
      page: '/insights/',
      message: 'the page has no description of its own: its meta description is the site name',
    },
  ]);
});

test('site/img-alt: raw <img> without alt (error) and markdown ![](...) with empty alt (warning); the same shown in code is neither', async () => {
  await expectExactly('check-img-alt', [
    {
      severity: 'error',
      rule: 'site/img-alt',
      file: 'content/articles/commentary-q2-2025/en.md',
      line: 21,
      column: 1,
      page: '/article/commentary-Q2-2025/',
      message: 'the image chart.svg has no alt attribute',
    },
    {
      severity: 'warning',
      rule: 'site/img-alt',
      file: 'content/articles/commentary-q2-2025/fr.md',
      line: 14,
      column: 1,
      page: '/fr/article/commentaire-Q2-2025/',
      message: 'the image chart.svg has empty alt text',
    },
  ]);
});

// Issue 17, point 14: defects `check` used to miss, one fixture each.

test('links/redirected: a site path that a redirect rule sends to another host (a warning naming the host)', async () => {
  const result = await check({ root: fixture('check-redirect-external') });
  const [f] = await expectExactly('check-redirect-external', [
    {
      severity: 'warning',
      rule: 'links/redirected',
      file: 'content/pages/home/en.md',
      line: 7,
      column: 34,
      page: '/',
      message: 'the link to /investor-portal/ leaves the site through a redirect (/investor-portal/ -> https://portal.example/login)',
    },
  ]);
  assert.match(f!.hint!, /^link to https:\/\/portal\.example\/login directly/);
  assert.deepEqual(
    result.external.filter((e) => e.url === 'https://portal.example/login').map((e) => [e.pages, e.origin.file, e.origin.line]),
    [[['/'], 'content/pages/home/en.md', 7]],
    'the host it leaves for is listed with the external links (and fetched with --external)',
  );
});

test('site/duplicate-id: two elements of one page with one id, at the line that writes it', async () => {
  const [f] = await expectExactly('check-duplicate-id', [
    { severity: 'error', rule: 'site/duplicate-id', file: 'content/articles/commentary-q2-2025/en.md', line: 19, column: 1, page: '/article/commentary-Q2-2025/' },
  ]);
  // Raw HTML ids may carry the sanitiser's `user-content-` prefix; the id is named either way.
  assert.match(f!.message, /^2 elements of the page have the id "(user-content-)?note"$/);
  assert.match(f!.hint!, /ids must be unique in a page/);
});

test('site/img-alt: on a local image the build processes (PNG), raw <img> without alt and ![](...) are found at their lines', async () => {
  await expectExactly('check-img-alt-processed', [
    {
      severity: 'error',
      rule: 'site/img-alt',
      file: 'content/articles/commentary-q2-2025/en.md',
      line: 19,
      column: 1,
      page: '/article/commentary-Q2-2025/',
      message: 'the image photo.png has no alt attribute',
    },
    {
      severity: 'warning',
      rule: 'site/img-alt',
      file: 'content/articles/commentary-q2-2025/fr.md',
      line: 19,
      column: 1,
      page: '/fr/article/commentaire-Q2-2025/',
      message: 'the image photo.png has empty alt text',
    },
  ]);
});

test('links/empty-address: a mailto: link with no address', async () => {
  const [f] = await expectExactly('check-empty-mailto', [
    {
      severity: 'error',
      rule: 'links/empty-address',
      file: 'content/pages/home/en.md',
      line: 7,
      column: 31,
      page: '/',
      message: 'the link mailto: has no e-mail address: it opens a message to nobody',
    },
  ]);
  assert.match(f!.hint!, /mailto:investors@example\.com/);
});

test('links/not-found-page: a link to /404.html', async () => {
  await expectExactly('check-not-found-link', [
    {
      severity: 'error',
      rule: 'links/not-found-page',
      file: 'content/pages/home/en.md',
      line: 7,
      column: 23,
      page: '/',
      message: 'the link to /404.html leads to the "page not found" page',
    },
  ]);
  // The language switcher of /404.html links to /fr/404.html (hreflang): deliberate, not reported.
});

test('backslashes: a markdown escape in a link is found at its line; a backslash for a slash is links/backslash', async () => {
  const found = await expectExactly('check-backslash', [
    {
      severity: 'error',
      rule: 'links/broken',
      file: 'content/pages/home/en.md',
      line: 7,
      column: 16,
      page: '/',
      message: 'the link to /article/english_only/ leads nowhere: no page, file or redirect rule has this path',
    },
    {
      severity: 'error',
      rule: 'links/backslash',
      file: 'content/pages/home/en.md',
      line: 8,
      column: 13,
      page: '/',
      message: 'the address \\insights/ has a backslash (\\) where web addresses have a slash (/)',
    },
  ]);
  assert.match(found.find((f) => f.rule === 'links/backslash')!.hint!, /^write \/insights\/:/);
});

test('addresses wrong whatever they lead to: removed, empty, malformed, internal, //host, http:// to the site, mixed content', async () => {
  const at = (line: number, column: number) => ({ file: 'content/pages/home/en.md', line, column, page: '/' });
  const found = await expectExactly('check-link-addresses', [
    { severity: 'error', rule: 'links/removed', ...at(8, 17), message: 'the link "The Q2 report" has no address on the page: file:///C:/Users/ann/Documents/q2.pdf was removed when the content was made safe' },
    { severity: 'error', rule: 'links/empty-address', ...at(9, 18), message: 'the link mailto:?subject=Q2%20results has no e-mail address: it opens a message to nobody' },
    { severity: 'error', rule: 'links/malformed-address', ...at(10, 15), message: 'the link mailto:investors: "investors" is not an e-mail address' },
    { severity: 'error', rule: 'links/removed', ...at(11, 16), message: 'the link "Run the tool" has no address on the page: javascript:alert(1) was removed when the content was made safe' },
    { severity: 'error', rule: 'links/removed', ...at(12, 8), message: 'the link "Home" has no address on the page: HTTP://beta.example/ was removed when the content was made safe' },
    { severity: 'warning', rule: 'links/internal-file', ...at(13, 19), message: "the link to /page-data/index/page-data.json opens one of the site's internal files, not a page or a document" },
    { severity: 'error', rule: 'links/protocol-relative', ...at(14, 13), message: 'the address //insights/ starts with two slashes, so it names another host, "insights", not a page of this site' },
    { severity: 'warning', rule: 'links/http-own-site', ...at(15, 16), message: 'the link http://beta.example/insights/ goes to this site over http://' },
    { severity: 'warning', rule: 'links/empty', ...at(16, 13), message: 'a link with an empty address: it reloads the page' },
    { severity: 'error', rule: 'links/mixed-content', ...at(17, 11), message: 'the image http://cdn.example/chart.png is loaded over http:// on an https site' },
  ]);
  const hint = (line: number) => found.find((f) => f.line === line)!.hint!;
  assert.match(hint(8), /a file on the writer's computer/);
  assert.match(hint(12), /^write the scheme in lower case: http:\/\/beta\.example\//);
  assert.match(hint(14), /^write \/insights\/ for a page of this site/);
  assert.match(hint(15), /^write the site path, \/insights\//);
});

test('site/other-identity: the other identity\'s name written out in a body, at its line; a token of this identity is fine', async () => {
  const [f] = await expectExactly('check-other-identity', [
    { severity: 'error', rule: 'site/other-identity', file: 'content/pages/home/en.md', line: 8, page: '/' },
  ]);
  assert.match(f!.message, /"Alpha Corp" belongs to the identity "first"/);
});
