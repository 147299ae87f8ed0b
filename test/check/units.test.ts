// The check's pure pieces, one at a time: page facts, URL resolution, UI-string use,
// "did you mean", source positions, merging repeats, and the two report formats.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeRepeats, type CheckResult, type Finding } from '../../src/commands/check/index.js';
import { pagePathOf, parsePage, srcsetUrls } from '../../src/commands/check/html.js';
import { checkStrings, usedKeys } from '../../src/commands/check/languages.js';
import { scannableCode } from '../../src/commands/check/code-files.js';
import { closest } from '../../src/errors/did-you-mean.js';
import type { CheckSite } from '../../src/commands/check/model.js';
import { formatHuman, formatJson, passed, summaryLine } from '../../src/commands/check/report.js';
import { Resolver } from '../../src/commands/check/resolve.js';
import { positionIn, Sources } from '../../src/commands/check/sources.js';
import type { RouteWithText } from '../../src/build/bodies.js';
import { rule } from '../../src/build/graph/redirects.js';

const PAGE = `<!DOCTYPE html>
<html lang="fr-CA">
<head><meta charset="utf-8"><title>Commentaire | Société</title>
<meta name="description" content="Le trimestre.">
<meta property="og:site_name" content="Société">
<link rel="canonical" href="https://x.example/fr/a/">
<link rel="alternate" hreflang="en-CA" href="https://x.example/a/">
<link rel="alternate" hreflang="fr-CA" href="https://x.example/fr/a/">
<link rel="alternate" hreflang="x-default" href="https://x.example/a/">
<link rel="stylesheet" href="/static/s.css"></head>
<body>
<a href="/outside-root/">not the page's own markup</a>
<div id="___gatsby" data-component-chunk="component---templates-article-tsx"><div id="gatsby-focus-wrapper">
<h2 id="rendement">Rendement</h2><a name="old-anchor"></a>
<a href="/fr/b/?q=1&amp;r=2#x">b</a>
<a href="/a/" hreflang="en-CA">English</a>
<img src="c.png" srcset="c-1x.png 1x, c-2x.png 2x"><img src="d.png" alt="">
<picture><source srcset="e.webp"></picture>
</div></div>
<script type="application/json" id="__IR_PAGE_DATA__">{"path":"/fr/a/","result":{"x":"<a href=\\"/in-json/\\">"},"matchPath":"/fr/search/*"}</script>
<script type="module" src="/static/runtime.js"></script>
</body></html>`;

test('parsePage: head facts, ids, and only the page\'s own references (inside #___gatsby) plus head links and scripts', () => {
  const f = parsePage(PAGE, '/fr/a/');
  assert.equal(f.lang, 'fr-CA');
  assert.equal(f.title, 'Commentaire | Société');
  assert.equal(f.description, 'Le trimestre.');
  assert.equal(f.siteName, 'Société');
  assert.equal(f.canonical, 'https://x.example/fr/a/');
  assert.deepEqual(f.alternates.map((a) => a.hreflang), ['en-CA', 'fr-CA', 'x-default']);
  assert.equal(f.template, 'article');
  assert.equal(f.matchPath, '/fr/search/*');
  assert.equal(f.noindex, false);
  for (const id of ['rendement', 'old-anchor', '___gatsby', 'gatsby-focus-wrapper']) assert.ok(f.ids.has(id), id);
  assert.deepEqual(
    f.links.map((l) => [l.place, l.tag, l.attr, l.url, l.hreflang ?? '']),
    [
      ['head', 'link', 'href', 'https://x.example/fr/a/', ''],
      ['head', 'link', 'href', '/static/s.css', ''],
      ['body', 'a', 'href', '/fr/b/?q=1&r=2#x', ''],
      ['body', 'a', 'href', '/a/', 'en-CA'],
      ['body', 'img', 'src', 'c.png', ''],
      ['body', 'img', 'srcset', 'c-1x.png', ''],
      ['body', 'img', 'srcset', 'c-2x.png', ''],
      ['body', 'img', 'src', 'd.png', ''],
      ['body', 'source', 'srcset', 'e.webp', ''],
      ['head', 'script', 'src', '/static/runtime.js', ''],
    ],
  );
  assert.deepEqual(f.images, [
    { src: 'c.png', alt: null },
    { src: 'd.png', alt: '' },
  ]);
});

test('parsePage: a content id or name inside the root is also a target without its prefix (the runtime finds #box as #user-content-box)', () => {
  const html = '<html><head><title>t</title></head><body><div id="user-content-outside"></div><div id="___gatsby"><div id="user-content-box"></div><a name="user-content-old"></a><p id="plain"></p></div></body></html>';
  const f = parsePage(html, '/a/');
  for (const id of ['user-content-box', 'box', 'user-content-old', 'old', 'plain']) assert.ok(f.ids.has(id), id);
  assert.ok(!f.ids.has('outside'), 'outside the root, an id is only what it says');
});

test('srcsetUrls follows the HTML candidate syntax', () => {
  assert.deepEqual(srcsetUrls('a.png 1x,b.png 2x'), ['a.png', 'b.png']);
  assert.deepEqual(srcsetUrls(' /img/a,b.png 480w , /img/c.png 800w'), ['/img/a,b.png', '/img/c.png']);
  assert.deepEqual(srcsetUrls('one.png'), ['one.png']);
});

test('pagePathOf maps output files to site paths', () => {
  assert.equal(pagePathOf('index.html'), '/');
  assert.equal(pagePathOf('fr/article/x/index.html'), '/fr/article/x/');
  assert.equal(pagePathOf('fr/404.html'), '/fr/404.html');
});

function siteOf(pages: Record<string, string>, redirects: [string, string][], files: string[] = []): CheckSite {
  const facts = new Map(Object.entries(pages).map(([p, html]) => [p, parsePage(html, p)]));
  return {
    root: '/site',
    siteUrl: 'https://x.example',
    defaultLocale: 'en',
    locales: [
      { code: 'en', hrefLang: 'en-CA' },
      { code: 'fr', hrefLang: 'fr-CA' },
    ],
    files: new Set([...Object.keys(pages).map((p) => (p.endsWith('.html') ? p.slice(1) : `${p.slice(1)}index.html`)), ...files]),
    pages: facts,
    redirects: redirects.map(([from, to]) => ({ rule: rule(from, to), kind: 'written' as const, file: 'config/redirects.yaml' })),
    routes: new Map(),
    withText: () => assert.fail('no route here has a body'),
    navigation: [],
    outDir: 'public',
    templatesDir: 'templates',
    localesDir: 'locales',
    navigationFile: 'config/navigation.yaml',
    sources: new Sources('/site'),
  };
}

test('Resolver: pages, files, redirect rules (exact, then case-insensitive), wildcards, loops, externals', () => {
  const page = (extra = '') => `<html><body><div id="___gatsby"><h2 id="top-story">x</h2>${extra}</div></body></html>`;
  const site = siteOf(
    {
      '/': page(),
      '/article/commentary-Q2-2025/': page(),
      '/search/': page().replace('<html>', '<html><script type="application/json" id="__IR_PAGE_DATA__">{"matchPath":"/search/*"}</script>'),
    },
    [
      ['/article/commentary-q2-2025/', '/article/commentary-Q2-2025/'],
      ['/cn/', '/'],
      ['/a/', '/b/'],
      ['/b/', '/a/'],
      ['/away/', 'https://elsewhere.example/'],
    ],
    ['article/commentary-Q2-2025/report.pdf'],
  );
  const r = new Resolver(site);
  const kind = (url: string, from = '/') => {
    const res = r.resolve(url, from);
    return res.kind === 'page' ? `page ${res.path}${res.fragment ? `#${res.fragment}` : ''}${res.via.length ? ` via ${res.via.length}` : ''}${res.wildcard ? ' *' : ''}` : res.kind;
  };
  assert.equal(kind('/article/commentary-Q2-2025/#top-story'), 'page /article/commentary-Q2-2025/#top-story');
  assert.equal(kind('https://x.example/article/commentary-Q2-2025/'), 'page /article/commentary-Q2-2025/', 'absolute links to the site are internal');
  assert.equal(kind('report.pdf', '/article/commentary-Q2-2025/'), 'file');
  assert.equal(kind('/article/commentary-Q2-2025'), 'page /article/commentary-Q2-2025/', 'the folder without its slash');
  assert.equal(kind('/ARTICLE/Commentary-q2-2025/'), 'page /article/commentary-Q2-2025/ via 1', 'rules ignore case');
  assert.equal(kind('/CN/'), 'page / via 1');
  assert.equal(kind('/search/anything/'), 'page /search/anything/ *');
  assert.equal(kind('/a/'), 'loop');
  assert.equal(kind('/away/'), 'external');
  assert.equal(kind('/nowhere/'), 'missing');
  assert.equal(kind('//cdn.example/x.js'), 'external');
  assert.equal(kind('mailto:ir@x.example'), 'skip');
  assert.equal(kind('#top-story', '/article/commentary-Q2-2025/'), 'page /article/commentary-Q2-2025/#top-story');
  assert.equal(kind('/article/commentary-Q2-2025/#%C3%A9t%C3%A9'), 'page /article/commentary-Q2-2025/#été', 'fragments are compared decoded');
});

test('Resolver: a legacy prefix (`/cn/*` -> `/:splat`) and a rule written without its slash lead where the server sends them', () => {
  const page = '<html><body><div id="___gatsby"><h2 id="top-story">x</h2></div></body></html>';
  const site = siteOf(
    { '/': page, '/insights/': page, '/article/commentary-Q2-2025/': page, '/our-approach/': page },
    [
      ['/cn/*', '/:splat'],
      ['/article/commentary-q2-2025/', '/article/commentary-Q2-2025/'],
      ['/about-us/', '/our-approach/'],
    ],
  );
  const r = new Resolver(site);
  const kind = (url: string) => {
    const res = r.resolve(url, '/');
    return res.kind === 'page' ? `page ${res.path}${res.fragment ? `#${res.fragment}` : ''} via ${res.via.map((o) => o.rule.fromPath).join(', ')}` : res.kind;
  };
  assert.equal(kind('/cn/insights/'), 'page /insights/ via /cn/*');
  assert.equal(kind('/CN/Insights/#top-story'), 'page /insights/#top-story via /cn/*', 'any case, the page in lower case');
  assert.equal(kind('/cn/article/commentary-q2-2025/'), 'page /article/commentary-Q2-2025/ via /cn/*, /article/commentary-q2-2025/');
  assert.equal(kind('/cn/'), 'page / via /cn/*');
  assert.equal(kind('/cn/nope/'), 'missing');
  assert.equal(kind('/about-us'), 'page /our-approach/ via /about-us/', 'the rule\'s source without its slash');
  assert.equal(kind('/ABOUT-US'), 'page /our-approach/ via /about-us/');
});

test('checkLinks: a link that spells an accented page path in decomposed Unicode says so, not "did you mean" the same-looking path', async () => {
  const { checkLinks } = await import('../../src/commands/check/links.js');
  const { resolveAll } = await import('../../src/commands/check/resolve.js');
  const page = (links = '') => `<html><body><div id="___gatsby">${links}</div></body></html>`;
  const site = siteOf({ '/': page('<a href="/cafe%CC%81/">c</a>'), '/café/': page() }, []);
  const [finding, ...more] = checkLinks(site, resolveAll(site, new Resolver(site)));
  assert.deepEqual(more, []);
  assert.equal(finding!.rule, 'links/broken');
  assert.match(finding!.hint ?? '', /combining accent: Unicode NFD\), the page's path as one \(NFC\).*\/caf%C3%A9\//);
});

test('checkLinks: a link to a host configuration file (/_headers, /_redirects, the nginx files) leads nowhere, as every host answers it', async () => {
  const { checkLinks } = await import('../../src/commands/check/links.js');
  const { resolveAll } = await import('../../src/commands/check/resolve.js');
  const links = ['/_headers', '/_redirects', '/nginx-headers.conf', '/nginx-redirects.conf', '/sw.js'].map((h) => `<a href="${h}">x</a>`).join('');
  const site = siteOf({ '/': `<html><body><div id="___gatsby">${links}</div></body></html>` }, [], ['_headers', '_redirects', 'nginx-headers.conf', 'nginx-redirects.conf', 'sw.js']);
  const findings = checkLinks(site, resolveAll(site, new Resolver(site)));
  assert.deepEqual(
    findings.map((f) => [f.rule, /the host's configuration file/.test(f.message)]),
    [['links/broken', true], ['links/broken', true], ['links/broken', true], ['links/broken', true], ['links/internal-file', false]],
  );
});

test('checkLinks: a broken anchor a template writes on every page, its target page included, is reported once', async () => {
  const { checkLinks } = await import('../../src/commands/check/links.js');
  const { resolveAll } = await import('../../src/commands/check/resolve.js');
  const page = '<html><body><div id="___gatsby" data-component-chunk="component---templates-section-tsx"><a href="/insights/#latest">latest</a></div></body></html>';
  const site = siteOf({ '/': page, '/insights/': page, '/fr/': page }, []);
  const merged = mergeRepeats(checkLinks(site, resolveAll(site, new Resolver(site))));
  assert.deepEqual(merged.map((f) => [f.rule, f.morePages, f.message]), [['links/missing-anchor', 2, 'the link to /insights/#latest: /insights/ has no element with id "latest"']]);
});

test('checkNotFoundRelativeLinks: a relative link on a not-found page is read against the missing address; site paths and other pages are fine', async () => {
  const { checkNotFoundRelativeLinks } = await import('../../src/commands/check/links.js');
  const { resolveAll } = await import('../../src/commands/check/resolve.js');
  const page = (template: string, links: string) => `<html><body><div id="___gatsby" data-component-chunk="component---templates-${template}-tsx">${links}</div></body></html>`;
  const site = siteOf(
    {
      '/fr/404.html': page('not-found', '<a href="insights/?q=1">a</a><a href="/fr/insights/">b</a><a href="#top">c</a><a href="https://x.example/">d</a><a href="../x/">e</a>'),
      '/fr/insights/': page('section', '<a href="../">up</a>'),
    },
    [],
  );
  const findings = checkNotFoundRelativeLinks(site, resolveAll(site, new Resolver(site)));
  assert.deepEqual(
    findings.map((f) => [f.rule, f.page, f.message, f.hint]),
    [
      ['links/relative-on-not-found', '/fr/404.html', 'the link to insights/?q=1 is relative, on the "page not found" page: shown at a missing address such as /fr/x/y/, it leads to /fr/x/y/insights/', "write it from the site's root: /fr/insights/?q=1"],
      ['links/relative-on-not-found', '/fr/404.html', 'the link to ../x/ is relative, on the "page not found" page: shown at a missing address such as /fr/x/y/, it leads to /fr/x/x/', "write it from the site's root: /x/"],
    ],
  );
});

test('usedKeys: quoted literals, and `prefix.${x}` template literals as key prefixes', () => {
  const { literals, prefixes } = usedKeys([
    { file: 'a.tsx', text: `t(strings, 'article.by'); <Text k="search.scope" />; strings[\`nav.main\`]; t(s, \`articleType.\${type}\`); const p = \`/\${locale}/x\`;` },
  ]);
  for (const key of ['article.by', 'search.scope', 'nav.main']) assert.ok(literals.has(key), key);
  assert.deepEqual([...prefixes], ['articleType.']);
});

test('usedKeys: an escape inside a literal does not pair the quotes after it wrongly', () => {
  const { literals, prefixes } = usedKeys([
    { file: 'i18n.ts', text: "const key = `d\\0${locale}`;\n// the `long` date (`{day}`)\nt(s, `date.month.${m}`); t(s, 'it\\'s.key'); t(s, \"a\\\"b\"); t(s, 'after.escapes');" },
  ]);
  assert.deepEqual([...prefixes], ['date.month.']);
  assert.ok(literals.has('after.escapes'), [...literals].join(' | '));
});

test('usedKeys on scannableCode: an apostrophe in a comment or in JSX text hides no key after it; a key inside an interpolation counts', async () => {
  const text = [
    "// the reader's language",
    "{/* a language's home page */}",
    "const x = <p>Don't {t(strings, 'after.jsx')}</p>;",
    "/* it's */ t(strings, 'after.comments'); t(strings, `kind.${k}`);",
    "const hint = ` ${t(strings, 'inside.interpolation')}`;",
  ].join('\n');
  assert.ok(!usedKeys([{ file: 'x.tsx', text }]).literals.has('after.comments'), 'read as written, the apostrophes pair wrongly (what this guards against)');
  const { literals, prefixes } = usedKeys([{ file: 'x.tsx', text: await scannableCode('x.tsx', text) }]);
  assert.ok(['after.jsx', 'after.comments', 'inside.interpolation'].every((key) => literals.has(key)), [...literals].join(' | '));
  assert.deepEqual([...prefixes], ['kind.']);
  assert.equal(await scannableCode('broken.ts', 'const = ;'), 'const = ;', 'a file esbuild cannot read is taken as it is');
});

test('checkStrings: a key missing from one file, and a key nothing uses', () => {
  const findings = checkStrings(
    [
      { file: 'locales/en.json', text: '{\n  "a.one": "One",\n  "a.two": "Two",\n  "kind.x": "X"\n}' },
      { file: 'locales/fr.json', text: '{\n  "a.one": "Un",\n  "kind.x": "X"\n}' },
    ],
    [{ file: 'templates/x.tsx', text: "t(s, 'a.one'); t(s, `kind.${k}`)" }],
    'locales/en.json',
  );
  assert.deepEqual(
    findings.map((f) => [f.rule, f.file, f.line, f.message]),
    [
      ['languages/missing-string', 'locales/fr.json', undefined, 'the UI string "a.two" is missing here (locales/en.json:3 has it)'],
      ['languages/unused-string', 'locales/en.json', 3, 'the UI string "a.two" is not used by any template or by the browser runtime'],
    ],
  );
  // A file of the folder no language is configured for is compared too; one that is not JSON is said so.
  const broken = checkStrings([{ file: 'locales/en.json', text: '{"a.one": "One"}' }, { file: 'locales/de.json', text: '{\n  "a.one": "Eins",\n}' }], [{ file: 'x.tsx', text: "t(s, 'a.one')" }], 'locales/en.json');
  assert.deepEqual(broken.map((f) => [f.rule, f.file, f.line]), [['locales/invalid-json', 'locales/de.json', 3]]);
});

test('closest suggests a near id, and nothing when none is near', () => {
  assert.equal(closest('performence', ['performance', 'outlook']), 'performance');
  assert.equal(closest('notes', ['performance', 'outlook']), undefined);
});

test('positionIn: 1-based line (offset by the body line) and column, with the line text', () => {
  assert.deepEqual(positionIn('one\ntwo [x](/y/)\nthree', 9, 7), { line: 8, column: 6, excerpt: 'two [x](/y/)' });
  assert.deepEqual(positionIn('abc', 0, 1), { line: 1, column: 1, excerpt: 'abc' });
});

test('mergeRepeats: one finding per template problem, counting the other pages', () => {
  const f = (page: string): Finding => ({ severity: 'error', rule: 'links/broken', file: 'templates/pages/article.tsx', message: 'the link to /x/ leads nowhere', page });
  const merged = mergeRepeats([f('/a/'), f('/b/'), f('/c/'), { ...f('/d/'), file: 'content/x/en.md' }]);
  assert.deepEqual(
    merged.map((m) => [m.file, m.page, m.morePages]),
    [
      ['templates/pages/article.tsx', '/a/', 2],
      ['content/x/en.md', '/d/', undefined],
    ],
  );
});

test('the human report: grouped by rule, links first; no colour unless asked; the JSON report', () => {
  const result: CheckResult = {
    built: true,
    diagnostics: [
      { severity: 'warning', rule: 'site/orphan', file: 'content/pages/about/en.md', line: 2, page: '/about/', message: 'no other page links to /about/', hint: 'link to it' },
      { severity: 'error', rule: 'links/broken', file: 'templates/pages/article.tsx', page: '/a/', morePages: 3, message: 'the link to /x/ leads nowhere' },
    ],
    stats: { pages: 12, files: 30, links: 100, external: 2, redirects: 5, phases: {}, buildMs: 1000, checkMs: 250, totalMs: 1250 },
    external: [],
    externalFetched: false,
  };
  assert.equal(
    formatHuman(result, { color: false }),
    `links/broken  1 error

templates/pages/article.tsx  error  the link to /x/ leads nowhere
    on /a/ (and 3 other pages)

site/orphan  1 warning

content/pages/about/en.md:2  warning  no other page links to /about/
    on /about/
    hint: link to it

check: 1 error, 1 warning in 12 pages (1.25 s)`,
  );
  assert.match(formatHuman(result, { color: true }), /\x1b\[31merror/);
  assert.equal(summaryLine({ ...result, diagnostics: [] }), 'check: 0 errors, 0 warnings in 12 pages (1.25 s)');
  const json = JSON.parse(formatJson(result)) as { ok: boolean; errors: number; warnings: number; findings: Finding[] };
  assert.deepEqual([json.ok, json.errors, json.warnings, json.findings.length], [false, 1, 1, 2]);
  // Warnings alone: they pass, but not with --strict, and both the summary and the JSON say so.
  const warned = { ...result, diagnostics: result.diagnostics.filter((d) => d.severity === 'warning'), stats: { ...result.stats, buildMs: 1000.4, totalMs: 1250.6 } };
  assert.deepEqual([passed(warned), passed(warned, true)], [true, false]);
  assert.equal(summaryLine(warned, true), 'check: 0 errors, 1 warning in 12 pages (1.25 s) (--strict: warnings count as errors)');
  assert.equal(summaryLine(warned), 'check: 0 errors, 1 warning in 12 pages (1.25 s)');
  const strictJson = JSON.parse(formatJson(warned, true)) as { ok: boolean; strict: boolean; stats: { buildMs: number; totalMs: number } };
  assert.deepEqual([strictJson.ok, strictJson.strict, strictJson.stats.buildMs, strictJson.stats.totalMs], [false, true, 1000, 1251]);
  assert.equal((JSON.parse(formatJson(warned)) as { ok: boolean }).ok, true);
  // External links: listed, or said to be fetched after --external.
  const withExternal = { ...result, external: [{ url: 'https://a.example/', pages: ['/'] }] } as unknown as CheckResult;
  assert.match(formatHuman(withExternal, { color: false }), /1 external link listed, not fetched \(--external checks them/);
  assert.match(formatHuman({ ...withExternal, externalFetched: true }, { color: false }), /1 external link fetched\n/);
});

test('checkLinks: a link through a redirect is a warning naming the target; a typo in an anchor gets a suggestion', async () => {
  const { checkLinks } = await import('../../src/commands/check/links.js');
  const { resolveAll } = await import('../../src/commands/check/resolve.js');
  const site = siteOf(
    {
      '/': '<html><body><div id="___gatsby" data-component-chunk="component---templates-home-tsx"><a href="/old/">old</a><a href="/new/#performence">typo</a></div></body></html>',
      '/new/': '<html><body><div id="___gatsby"><h2 id="performance">P</h2></div></body></html>',
    },
    [['/old/', '/new/']],
  );
  const findings = checkLinks(site, resolveAll(site, new Resolver(site)));
  assert.deepEqual(
    findings.map((f) => [f.severity, f.rule, f.file, f.page, f.message, f.hint]),
    [
      ['warning', 'links/redirected', 'templates/pages/home.tsx', '/', 'the link to /old/ goes through a redirect (/old/ -> /new/)', 'link to /new/ directly: it saves a round trip and survives the rule being removed'],
      [
        'error',
        'links/missing-anchor',
        'templates/pages/home.tsx',
        '/',
        'the link to /new/#performence: /new/ has no element with id "performence"',
        'did you mean #performance? heading ids are the heading text in lower case, with dashes for spaces',
      ],
    ],
  );
});

test('parsePage: ids on more than one element, and <a> elements left without an address', () => {
  const f = parsePage(
    `<html><head><title>t</title></head><body><a>outside the page's markup</a><div id="___gatsby"><h2 id="notes">Notes</h2>
<p id="notes">again</p><p id="notes">and again</p><a name="notes"></a><a id="anchor"></a>
<a>Call   <b>us</b></a> <a href="">empty</a> <a href="/x/">fine</a></div></body></html>`,
    '/',
  );
  assert.deepEqual([...f.duplicateIds], [['notes', 3]], '<a name> is a fragment target, not an id');
  assert.deepEqual(f.linksWithoutHref, ['Call us'], 'an <a> with an id or name is an anchor; href="" is an address');
});

test('Resolver: //host takes the site\'s protocol; http:// to the site\'s own host is internal; a rule to another host says so', () => {
  const site = siteOf({ '/': '<html><body><div id="___gatsby"></div></body></html>', '/a/': '<html><body><div id="___gatsby"></div></body></html>' }, [
    ['/portal/', 'https://portal.example/'],
    ['/old-portal/', '/portal/'],
  ]);
  const r = new Resolver(site);
  assert.deepEqual(r.resolve('//cdn.example/x.js', '/'), { kind: 'external', url: 'https://cdn.example/x.js', via: [] });
  assert.equal(r.resolve('//x.example/a/', '/').kind, 'page', 'protocol-relative to the site itself');
  assert.equal(r.resolve('http://x.example/a/', '/').kind, 'page');
  assert.equal(r.resolve('http://x.example/nowhere/', '/').kind, 'missing', 'so a broken path is found');
  const away = r.resolve('/old-portal/', '/');
  assert.equal(away.kind, 'external');
  assert.deepEqual(away.kind === 'external' && away.via.map((o) => o.rule.fromPath), ['/old-portal/', '/portal/']);
});

/** A route with just a markdown body, as the content gives it (the body starts at file line 6). */
function routeWithBody(text: string): RouteWithText {
  return { path: '/', markdown: { text, file: 'content/pages/home/en.md', line: 6, locale: 'en', images: {} } } as unknown as RouteWithText;
}

test('Sources.inBody: the address as written, with markdown escapes, entities, and not a longer address that starts the same', () => {
  const sources = new Sources('/site');
  const route = routeWithBody('[z](/insights/x/) [a](/insights/)\n[b](/in\\_sights/) [c](\\\\insights)\n[d](/q?a=1&amp;b=2)\n[e]()');
  const at = (url: string) => {
    const found = sources.inBody(route, url);
    return found && `${found.line}:${found.column}`;
  };
  assert.equal(at('/insights/'), '6:23', 'not the start of /insights/x/');
  assert.equal(at('/in_sights/'), '7:5', 'a backslash escape');
  assert.equal(at('%5Cinsights'), '7:23', 'an escaped backslash, not the start of /insights/');
  assert.equal(at('/q?a=1&b=2'), '8:5', '&amp;');
  assert.equal(at(''), '9:5', 'an empty address: `]()`');
  assert.equal(at('/elsewhere/'), null);
});

test('Sources.inBody: an address shown in code is text, not the link: the link after it is found', () => {
  const sources = new Sources('/site');
  const route = routeWithBody('Write `[x](/gone/)` for a link.\n\n```\n[y](/gone/)\n<a href="/gone/">y</a>\n```\n\n    [z](/gone/)\n\nSee [the page](/gone/) and <a href="/raw/">this</a>.\n\n[r]: /defined/');
  const at = (url: string) => {
    const found = sources.inBody(route, url);
    return found && `${found.line}:${found.column}`;
  };
  assert.equal(at('/gone/'), '15:16');
  assert.equal(at('/raw/'), '15:37', 'in raw HTML');
  assert.equal(at('/defined/'), '17:6', 'a definition');
});

test('Sources.linksWithText: inline, reference and raw HTML links, by the text the page shows, in document order; never in code', () => {
  const sources = new Sources('/site');
  const route = routeWithBody(
    '[**Run** it](javascript:go(1)) and [Run it][r]\n<a href="tel:+1555">Run <i>it</i></a>\n\n[r]: data:text/html,x\n\n' +
      '`[Run it](vbscript:a)` and\n\n    <a href="vbscript:b">Run it</a>\n\n[Run it] and <a>Run it</a>\n\n[run it]: file:///c:/x.pdf',
  );
  assert.deepEqual(
    sources.linksWithText(route, 'Run it').map((l) => [l.url, l.line, l.column]),
    [
      ['javascript:go(1)', 6, 14],
      ['data:text/html,x', 9, 6],
      ['tel:+1555', 7, 10],
      ['file:///c:/x.pdf', 17, 11],
    ],
  );
});

test('idInBody: a raw id or name (with or without the sanitiser\'s prefix), a markdown or raw heading\'s slug; checkDuplicateIds falls back to the template', async () => {
  const { idInBody, checkDuplicateIds } = await import('../../src/commands/check/ids.js');
  const route = routeWithBody('Intro `<b id="note">` and\n\n```\n## Net asset value\n```\n\n## Net *asset* value\n\n<span id="note">x</span>');
  const sources = new Sources('/site');
  const at = (id: string) => {
    const found = idInBody(sources, route, id);
    return found && `${found.line}:${found.column}`;
  };
  assert.equal(at('net-asset-value'), '12:1', 'the heading, not the line in code');
  assert.equal(at('note'), '14:1', 'the raw HTML element, not the code span');
  assert.equal(at('user-content-note'), '14:1');
  assert.equal(at('main'), null);
  // Raw HTML headings get slugs too (heading-ids.ts), unless they carry their own id; `name` names an anchor.
  const raw = routeWithBody('<div>\n<h3>Fees and costs</h3>\n<h3 id="kept">Risk</h3>\n</div>\n\nSee <a name="old-anchor">here</a>');
  const rawAt = (id: string) => {
    const found = idInBody(new Sources('/site'), raw, id);
    return found && `${found.line}:${found.column}`;
  };
  assert.equal(rawAt('fees-and-costs'), '7:1');
  assert.equal(rawAt('kept'), '8:1');
  assert.equal(rawAt('risk'), null);
  assert.equal(rawAt('old-anchor'), '11:5');

  const page = '<html><body><div id="___gatsby" data-component-chunk="component---templates-page-tsx"><main id="main"></main><div id="main"></div></div></body></html>';
  const site = siteOf({ '/a/': page, '/b/': page }, []);
  assert.deepEqual(
    mergeRepeats(checkDuplicateIds(site)).map((f) => [f.rule, f.file, f.page, f.morePages, f.message]),
    [['site/duplicate-id', 'templates/pages/page.tsx', '/a/', 1, '2 elements of the page have the id "main"']],
  );
});

test('checkLinks: the not-found page is fine through the language switcher (hreflang); internal files only matter to <a>', async () => {
  const { checkLinks } = await import('../../src/commands/check/links.js');
  const { resolveAll } = await import('../../src/commands/check/resolve.js');
  const notFound = (lang: string, other: string) =>
    `<html lang="${lang}"><body><div id="___gatsby" data-component-chunk="component---templates-not-found-tsx"><a href="${other}" hreflang="x">other language</a><img src="/static/images/a-40.1.png" alt="a"></div></body></html>`;
  const site = siteOf(
    {
      '/404.html': notFound('en', '/fr/404.html'),
      '/fr/404.html': notFound('fr', '/404.html'),
      '/': '<html><body><div id="___gatsby" data-component-chunk="component---templates-home-tsx"><a href="/404.html">lost</a><a href="/static/images/a-40.1.png">image</a><a href="/404.html#x">lost too</a></div></body></html>',
    },
    [],
    ['static/images/a-40.1.png'],
  );
  assert.deepEqual(
    checkLinks(site, resolveAll(site, new Resolver(site))).map((f) => [f.rule, f.page, f.message]),
    [
      ['links/not-found-page', '/', 'the link to /404.html leads to the "page not found" page'],
      ['links/internal-file', '/', "the link to /static/images/a-40.1.png opens one of the site's internal files, not a page or a document"],
      ['links/not-found-page', '/', 'the link to /404.html#x leads to the "page not found" page'],
    ],
  );
});

test('checkAddresses: mailto: and tel: addresses, whoever writes them (RFC 6068 allows the address in ?to=)', async () => {
  const { checkAddresses } = await import('../../src/commands/check/addresses.js');
  const { resolveAll } = await import('../../src/commands/check/resolve.js');
  const links = ['mailto:ir@x.example', 'mailto:?to=ir%40x.example&subject=Q2', 'mailto:a@x.example,b@x.example', 'mailto:?subject=Q2', 'mailto:a@x.example,b', 'tel:+15145550100', 'tel:', 'sms:?body=hi'];
  const site = siteOf(
    { '/': `<html><body><div id="___gatsby" data-component-chunk="component---templates-home-tsx">${links.map((l) => `<a href="${l}">x</a>`).join('')}</div></body></html>` },
    [],
  );
  assert.deepEqual(
    checkAddresses(site, resolveAll(site, new Resolver(site))).map((f) => [f.rule, f.file, f.message]),
    [
      ['links/empty-address', 'templates/pages/home.tsx', 'the link mailto:?subject=Q2 has no e-mail address: it opens a message to nobody'],
      ['links/malformed-address', 'templates/pages/home.tsx', 'the link mailto:a@x.example,b: "b" is not an e-mail address'],
      ['links/empty-address', 'templates/pages/home.tsx', 'the link tel: has no number: it opens a call to nobody'],
      ['links/empty-address', 'templates/pages/home.tsx', 'the link sms:?body=hi has no number: it opens a text message to nobody'],
    ],
  );
});
