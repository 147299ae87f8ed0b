// Issue 21, point 1: nothing broken ships silently. Every build (and dev's compile) reports
// broken links and #anchors written in the bodies, missing translations and hreflang problems
// as warnings with file and line; `build --strict` refuses them; a UI string missing from one
// locale file is an error (its pages would show the key as text).
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import fg from 'fast-glob';
import path from 'node:path';
import { test } from 'node:test';
import { build } from '../../src/build/index.js';
import { siteChecks } from '../../src/commands/check/site-warnings.js';
import { StrictBuildError, type Diagnostic } from '../../src/errors/diagnostic.js';
import { bodyFacts } from '../../src/features/markdown/body-facts.js';
import { DevSite } from '../../src/commands/server/dev-site.js';
import { DevWarnings } from '../../src/commands/server/dev-warnings.js';
import { pageDataUrl } from '../../src/shared/paths.js';
import { recordBody } from '../../src/shared/props.js';
import type { PageRecord } from '../../src/shared/types.js';
import { buildFailure, buildToMemory, fileTree, findDiagnostic, fixture, REPO, writableFixture } from '../helpers.js';

const HOME = 'content/pages/home/en.md';
const ARTICLE = 'content/articles/commentary-q2-2025/en.md';

/** A writable copy of check-clean (its config reads the minimal fixture's), with its own locale files when `locales` is set. */
async function cleanCopy(name: string, locales?: Record<string, Record<string, string>>): Promise<string> {
  const root = await writableFixture('check-clean', name);
  const paths = locales ? `paths: { ...base.paths, locales: 'locales' }` : '';
  await writeFile(path.join(root, 'site.config.ts'), `import base from '../../fixtures/minimal/site.config.js';\nexport default { ...base, ${paths} };\n`);
  for (const [code, strings] of Object.entries(locales ?? {})) {
    await mkdir(path.join(root, 'locales'), { recursive: true });
    await writeFile(path.join(root, `locales/${code}.json`), JSON.stringify(strings, null, 2));
  }
  return root;
}

/** check-clean with broken links of every shape written into the English home page and article. */
async function brokenSite(): Promise<string> {
  const root = await cleanCopy('site-warnings');
  const home = path.join(root, HOME);
  await writeFile(
    home,
    `${await readFile(home, 'utf8')}
Our [insights](/insigths/) and a <a href="/nowhere/">raw link</a>.

The [table][perf] and a [good anchor](/article/commentary-Q2-2025/#performance).

[perf]: /article/commentary-Q2-2025/#perfomance

\`\`\`
[not a link](/in-a-code-block/)
\`\`\`

Inline \`[code](/in-code-span/)\` is not a link either, nor is a footnote[^1].

[^1]: A note: not an address.
`,
  );
  const article = path.join(root, ARTICLE);
  await writeFile(article, `${await readFile(article, 'utf8')}\nBack to the [top of the table](#performanse).\n`);
  // The French home page is gone: the entry misses a translation.
  await rm(path.join(root, 'content/pages/home/fr.md'));
  return root;
}

const warningsOf = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.severity === 'warning');

test('a clean site builds with no warning', async () => {
  const { result } = await buildToMemory(fixture('check-clean'), { cache: false });
  assert.deepEqual(result.diagnostics, []);
});

test('every build warns of broken links and anchors in the bodies, at their file, line and column, with a did-you-mean', async () => {
  const root = await brokenSite();
  const { result } = await buildToMemory(root, { cache: false });
  const warnings = warningsOf(result.diagnostics);
  assert.equal(result.diagnostics.length, warnings.length, 'warnings only: the site is built');

  const typo = findDiagnostic(warnings, { rule: 'links/broken', file: HOME, line: 8, column: 16 });
  assert.match(typo.message, /\/insigths\/ leads nowhere/);
  assert.equal(typo.hint, 'did you mean /insights/?');
  findDiagnostic(warnings, { rule: 'links/broken', file: HOME, line: 8, column: 43 });
  const anchor = findDiagnostic(warnings, { rule: 'links/missing-anchor', file: HOME, line: 12 });
  assert.match(anchor.message, /has no element with id "perfomance"/);
  assert.match(anchor.hint ?? '', /did you mean #performance\?/);
  const samePage = findDiagnostic(warnings, { rule: 'links/missing-anchor', file: ARTICLE, line: 19 });
  assert.match(samePage.hint ?? '', /did you mean #performance\?/);
  // Code is not content: nothing from the fenced block or the code span; the good anchor passes.
  assert.ok(!warnings.some((w) => /in-code|#performance[^a-z]/.test(w.message)), JSON.stringify(warnings, null, 2));
  assert.equal(warnings.filter((w) => w.rule.startsWith('links/')).length, 4, JSON.stringify(warnings, null, 2));
});

test('every build warns of a missing translation', async () => {
  const root = await brokenSite();
  const { result } = await buildToMemory(root, { cache: false });
  const missing = findDiagnostic(result.diagnostics, { rule: 'languages/missing-translation', file: HOME, severity: 'warning' });
  assert.match(missing.message, /no French version: there is no content\/pages\/home\/fr\.md/);
  assert.equal(missing.line, 2);
});

test('the warnings come back from the build cache: a warm build reports them without a new check', async () => {
  const root = await brokenSite();
  const cold = await buildToMemory(root);
  const warm = await buildToMemory(root);
  assert.equal(warm.result.graphFromSnapshot, 'same');
  assert.equal(warm.result.timings.check, undefined, 'no check ran');
  assert.deepEqual(warningsOf(warm.result.diagnostics), warningsOf(cold.result.diagnostics));
});

test('a body edited under the build cache is checked again: a link broken, fixed or moved is reported as a build without the cache reports it', async () => {
  const root = await cleanCopy('site-warnings-edits');
  const article = path.join(root, ARTICLE);
  const original = await readFile(article, 'utf8');
  await buildToMemory(root);
  const edits = [
    `${original}\nSee the [old report](/reports/2019/).\n`,
    `${original}\nA new paragraph.\n\nAnother one.\n\nSee the [old report](/reports/2019/).\n`,
    `${original}\nSee the [table](#performance).\n`,
    `${original}\nSee the [table](#performanse).\n`,
    original,
  ];
  for (const text of edits) {
    await writeFile(article, text);
    const warm = await buildToMemory(root);
    // The bodies are not graph inputs: the graph is the last build's.
    assert.equal(warm.result.graphFromSnapshot, 'same');
    const { result } = await buildToMemory(root, { cache: false });
    assert.deepEqual(warningsOf(warm.result.diagnostics), warningsOf(result.diagnostics), text.slice(original.length));
  }
  await writeFile(article, edits[0]!);
  await buildToMemory(root);
  // Prose edited elsewhere (no link, no heading): the last warnings hold, and no check runs.
  const home = path.join(root, HOME);
  await writeFile(home, `${await readFile(home, 'utf8')}\nA sentence more.\n`);
  const prose = await buildToMemory(root);
  assert.equal(prose.result.timings.check, undefined, 'no check ran');
  assert.deepEqual(warningsOf(prose.result.diagnostics), warningsOf((await buildToMemory(root, { cache: false })).result.diagnostics));
  // A heading added there gives the page an id: checked again.
  await writeFile(home, `${await readFile(home, 'utf8')}\n## A heading\n`);
  const heading = await buildToMemory(root);
  assert.notEqual(heading.result.timings.check, undefined, 'checked again');
  const strict = await buildFailure(root, { strict: true });
  findDiagnostic(strict, { rule: 'links/broken', file: ARTICLE });
});

test("given each body's facts (its page's links and ids), the checks read only the bodies a warning points into", async () => {
  const root = await brokenSite();
  // Written a minute ago, so the build cache trusts their size and time (incremental/racy.ts).
  const past = new Date(Date.now() - 60_000);
  for (const file of await fg('content/**/*.md', { cwd: root })) await utimes(path.join(root, file), past, past);
  await buildToMemory(root);
  // A warm build's graph: its bodies unread (known by size and time).
  const { result, out } = await buildToMemory(root);
  const { graph, config } = result;
  const withBody = graph.routes.filter((r) => r.markdown);
  assert.ok(withBody.every((r) => r.markdown!.text === null), 'the bodies are unread');
  // Each body as its page shows it: the tree in its page data.
  const pageData = (at: string) => JSON.parse(out.files.get(pageDataUrl(at).slice(1))!.toString('utf8')) as PageRecord;
  const facts = new Map(withBody.map((r) => [r.path, bodyFacts(recordBody(pageData(r.path))!)]));
  const expected = await siteChecks.run(graph, config, (route) => facts.get(route.path)!);
  assert.ok(expected.length >= 5, JSON.stringify(expected));
  assert.deepEqual(expected, warningsOf(result.diagnostics).filter((w) => w.rule.startsWith('links/') || w.rule.startsWith('languages/')));
  // The body of every entry no warning names is changed: reading one fails (its digest is not the graph's).
  const warned = new Set(expected.map((w) => w.file));
  const unwarned = [...new Set(withBody.map((r) => r.markdown!.file))].filter((file) => !warned.has(file));
  assert.ok(unwarned.length > 3);
  for (const file of unwarned) await writeFile(path.join(root, file), `${await readFile(path.join(root, file), 'utf8')}\nChanged.\n`);
  assert.deepEqual(await siteChecks.run(graph, config, (route) => facts.get(route.path)!), expected);
});

test('the checks see the body as its page has it: ids and links a site plugin adds, footnotes, raw HTML ids found without their prefix', async () => {
  const root = await cleanCopy('site-warnings-plugin');
  // A local rehype plugin that gives every paragraph an id, and adds a link to a page that does not exist.
  await writeFile(
    path.join(root, 'plugin.mjs'),
    `export default function stamp() {
  return (tree) => {
    let n = 0;
    for (const node of tree.children) if (node.type === 'element' && node.tagName === 'p') node.properties.id = 'para-' + ++n;
    tree.children.push({ type: 'element', tagName: 'p', properties: {}, children: [{ type: 'element', tagName: 'a', properties: { href: '/added-by-plugin/' }, children: [{ type: 'text', value: 'x' }] }] });
    // What the Markdown component does not render (shared/markdown-guard.ts): a figure's own id (it is unwrapped), a link inside an svg (dropped whole).
    tree.children.push({ type: 'element', tagName: 'figure', properties: { id: 'fig-1' }, children: [{ type: 'text', value: 'A figure' }] });
    tree.children.push({ type: 'element', tagName: 'svg', properties: {}, children: [{ type: 'element', tagName: 'a', properties: { href: '/inside-an-svg/' }, children: [] }] });
  };
}
`,
  );
  await writeFile(path.join(root, 'site.config.ts'), `import base from '../../fixtures/minimal/site.config.js';\nimport stamp from './plugin.mjs';\nexport default { ...base, markdown: { rehypePlugins: [stamp] } };\n`);
  const home = path.join(root, HOME);
  await writeFile(
    home,
    `${await readFile(home, 'utf8')}
To the [first paragraph](#para-1), to a [raw box](/article/commentary-Q2-2025/#box), to [the figure](#fig-1) and a note[^1].

[^1]: See [the note's back link](#user-content-fnref-1).
`,
  );
  const article = path.join(root, ARTICLE);
  await writeFile(article, `${await readFile(article, 'utf8')}\n<div id="box">A box.</div>\n`);
  for (const cache of [false, true, true]) {
    const { result, out } = await buildToMemory(root, { cache });
    const html = out.text('index.html');
    assert.ok(!html.includes('id="fig-1"') && !html.includes('href="/inside-an-svg/"'), 'the page has neither the id nor the link (its data has both)');
    const warnings = warningsOf(result.diagnostics).filter((w) => w.rule.startsWith('links/'));
    // The plugin's link, on every page with a body (each of them got one), and the figure the page does not have.
    const [anchors, broken] = [warnings.filter((w) => w.rule === 'links/missing-anchor'), warnings.filter((w) => w.rule !== 'links/missing-anchor')];
    assert.deepEqual(anchors.map((w) => [w.file, /"fig-1"/.test(w.message)]), [[HOME, true]], JSON.stringify(anchors, null, 2));
    assert.ok(broken.length > 0 && broken.every((w) => w.rule === 'links/broken' && /\/added-by-plugin\/ leads nowhere/.test(w.message)), JSON.stringify(broken, null, 2));
  }
});

test('bodies of the same bytes in two languages are checked each with its own tokens, with the build cache too', async () => {
  const root = await writableFixture('check-clean', 'site-warnings-tokens');
  const tokens = `tokens: { see: { en: '/insights/', fr: '/nowhere-fr/' } }`;
  await writeFile(path.join(root, 'site.config.ts'), `import base from '../../fixtures/minimal/site.config.js';\nexport default { ...base, identities: { ...base.identities, second: { ...base.identities.second, ${tokens} } } };\n`);
  for (const locale of ['en', 'fr']) {
    const file = path.join(root, `content/pages/home/${locale}.md`);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/\n---\n[\s\S]*$/, '\n---\nSee [x]({{see}}).\n'));
  }
  const expected = warningsOf((await buildToMemory(root, { cache: false })).result.diagnostics);
  findDiagnostic(expected, { rule: 'links/broken', file: 'content/pages/home/fr.md' });
  for (const build of ['first', 'second']) assert.deepEqual(warningsOf((await buildToMemory(root)).result.diagnostics), expected, `the ${build} build with the cache`);
});

test('build --strict refuses the warnings as errors, and writes nothing', async () => {
  const root = await brokenSite();
  const diagnostics = await buildFailure(root, { strict: true, cache: false });
  assert.ok(diagnostics.length >= 5 && diagnostics.every((d) => d.severity === 'error'));
  findDiagnostic(diagnostics, { rule: 'links/broken', file: HOME, line: 8 });
  await assert.rejects(buildToMemory(root, { strict: true, cache: false }), StrictBuildError);
  // A clean site passes --strict.
  await buildToMemory(fixture('check-clean'), { strict: true, cache: false });
});

test('build --strict on disk: the pages rendered before the checks refused them are not published, and nothing is left behind', async () => {
  const root = await cleanCopy('site-warnings-strict-disk');
  const out = path.join(root, 'public');
  await build({ root, reporter: {}, siteChecks, strict: true });
  const published = await fileTree(out);
  // A new article (its pages written by the render) with a broken link, and an edited one.
  await mkdir(path.join(root, 'content/articles/new-one'), { recursive: true });
  await writeFile(path.join(root, 'content/articles/new-one/en.md'), '---\ntitle: New one\ndescription: A new article.\nslug: new-one\ndate: 2025-09-01\ntype: insight\nsections: [insights]\n---\nA [broken](/nowhere-at-all/) link.\n');
  await writeFile(path.join(root, ARTICLE), `${await readFile(path.join(root, ARTICLE), 'utf8')}\nMore prose.\n`);
  for (const cache of [true, false]) {
    await assert.rejects(build({ root, reporter: {}, siteChecks, strict: true, cache }), (error: unknown) => {
      assert.ok(error instanceof StrictBuildError, String((error as Error)?.stack ?? error));
      findDiagnostic(error.diagnostics, { rule: 'links/broken', file: 'content/articles/new-one/en.md', severity: 'error' });
      return true;
    });
    assert.deepEqual(await fileTree(out), published, `the output is as the last build left it (cache: ${cache})`);
    assert.deepEqual((await readdir(root)).filter((name) => name.startsWith('public.')), [], 'no staging folder left');
  }
  // Without --strict the same site builds, with the warning.
  const built = await build({ root, reporter: {}, siteChecks });
  findDiagnostic(built.diagnostics, { rule: 'links/broken', file: 'content/articles/new-one/en.md', severity: 'warning' });
});

test('a broken link is named as written, not percent-encoded as the page has it', async () => {
  const root = await cleanCopy('site-warnings-readable');
  await writeFile(path.join(root, HOME), `${await readFile(path.join(root, HOME), 'utf8')}\nSee [the summer](/insights/été/).\n`);
  const { result } = await buildToMemory(root, { cache: false });
  const broken = findDiagnostic(result.diagnostics, { rule: 'links/broken', file: HOME });
  assert.match(broken.message, /^the link to \/insights\/été\/ leads nowhere/);
  assert.match(broken.excerpt ?? '', /\[the summer\]\(\/insights\/été\/\)/);
});

test('build --strict lists the site warnings with the content warnings of its own, in one run', async () => {
  const root = await cleanCopy('site-warnings-strict-all');
  const article = path.join(root, ARTICLE);
  await writeFile(article, (await readFile(article, 'utf8')).replace('quarter: Q2-2025', 'quarter: Q2-2025\nbogus: 1'));
  await writeFile(path.join(root, HOME), `${await readFile(path.join(root, HOME), 'utf8')}\nA [broken](/strict-nowhere/).\n`);
  await assert.rejects(buildToMemory(root, { cache: false, strict: true }), (error: unknown) => {
    assert.ok(error instanceof StrictBuildError);
    assert.deepEqual(error.diagnostics.map((d) => d.rule).sort(), ['content/unknown-field', 'links/broken']);
    return true;
  });
});

test('a build --strict --no-cache that is refused keeps the record of the output: the next build renders nothing again', async () => {
  const root = await cleanCopy('site-warnings-strict-record');
  await writeFile(path.join(root, HOME), `${await readFile(path.join(root, HOME), 'utf8')}\nA [broken](/strict-nowhere/).\n`);
  await build({ root, reporter: {}, siteChecks });
  await assert.rejects(build({ root, reporter: {}, siteChecks, strict: true, cache: false }), StrictBuildError);
  const again = await build({ root, reporter: {}, siteChecks });
  assert.equal(again.render.rendered, 0, `rendered ${again.render.rendered} pages again`);
});

test("dev reports the same warnings (its overlay and terminal show them)", async () => {
  const root = await brokenSite();
  const site = new DevSite({ root });
  const report = await site.rebuildAll('initial');
  assert.ok(report.ok, JSON.stringify(report.diagnostics));
  const warnings = new DevWarnings(site, () => undefined);
  warnings.afterChange(report);
  findDiagnostic(warnings.current, { rule: 'links/broken', file: HOME, line: 8, severity: 'warning' });
  findDiagnostic(warnings.current, { rule: 'languages/missing-translation', severity: 'warning' });
  assert.deepEqual(warnings.current, warningsOf((await buildToMemory(root, { cache: false })).result.diagnostics));
  site.close();
});

test('a UI string missing from one locale file is an error, whichever file lacks it', async () => {
  const en = JSON.parse(await readFile(path.join(REPO, 'locales/en.json'), 'utf8')) as Record<string, string>;
  const fr = JSON.parse(await readFile(path.join(REPO, 'locales/fr.json'), 'utf8')) as Record<string, string>;
  for (const [lacking, other, key] of [['fr', 'en', 'home.latest'], ['en', 'fr', 'home.latest'], ['fr', 'en', 'article.by']] as const) {
    const strings = { en: { ...en }, fr: { ...fr } };
    assert.ok(strings[lacking][key], `the repository's locales have ${key}`);
    delete strings[lacking][key];
    const root = await cleanCopy(`missing-string-${lacking}-${key}`, strings);
    const diagnostics = await buildFailure(root, { cache: false });
    const d = findDiagnostic(diagnostics, { rule: 'locales/missing-string', file: `locales/${lacking}.json`, field: key, severity: 'error' });
    assert.match(d.message, new RegExp(`is missing here \\(locales/${other}\\.json:\\d+ has it\\); its pages would show "${key}" as text`));
    assert.match(d.hint ?? '', new RegExp(`add "${key}": .* to locales/${lacking}\\.json`));
    assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
  }
});
