// Content that breaks the contract in ways that once built "successfully" into a wrong site: a
// page over another's files, paths that leave the output folder or read as another host, paths
// under another language's prefix or a legacy one, a commentary slug without its quarter, a
// byline dropped without a word. Each is an error (or a warning) naming file, line and field.
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathPartsProblem } from '../../src/build/content/path-shape.js';
import { buildFailure, buildToMemory, findDiagnostic, writableFixture } from '../helpers.js';

const root = await writableFixture('minimal', 'paths-and-contract');
// Warnings, and the checks held back while other content errors exist, in a site of their own.
const quiet = await writableFixture('minimal', 'paths-and-contract-quiet');
after(() => Promise.all([root, quiet].map((dir) => rm(dir, { recursive: true, force: true }))));

async function entry(rel: string, frontMatter: string, body = 'Text.', site = root): Promise<void> {
  const file = path.join(site, 'content', rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `---\n${frontMatter.trim()}\n---\n${body}\n`);
}

const page = (title: string, extra = '') => `title: ${title}\ntranslation: none\n${extra}`;
await entry('pages/index/en.md', page('Index'));
await entry('pages/html-home/en.md', page('Home again', 'path: /index.html'));
await entry('pages/aa-first/en.md', page('Index first', 'path: /index/')); // built before the home page
await entry('pages/dots/en.md', page('Dots', 'path: /a/../../etc/'));
await entry('pages/other-host/en.md', page('Other host', 'path: //evil.example/'));
await entry('pages/token/en.md', page('Token', 'path: /what-is-{sit}/'));
await entry('pages/french-prefix/fr.md', page('Préfixe', 'path: /fr/foo/'));
await entry('pages/cn/en.md', page('Legacy'));
await entry('team/two words/en.md', 'title: x\nname: Two Words\nrole: Role\ntranslation: none');
await entry('team/JDoe/en.md', 'title: x\nname: J Doe again\nrole: Role\ntranslation: none'); // content/team/jdoe exists
await entry('pages/cased/en.md', page('Cased', 'path: /Contact-Us/'));
const article = (slug: string, extra: string) => `title: ${slug}\nslug: ${slug}\ndate: 2025-07-15\ntranslation: none\n${extra}`;
await entry('articles/lower-quarter/en.md', article('commentary-q3-2025', 'type: commentary\nquarter: Q3-2025'));
await entry('articles/other-quarter/en.md', article('commentary-Q1-2025', 'type: commentary\nquarter: Q3-2025'));
await entry('articles/number/en.md', 'title: Number\nslug: 2025\ndate: 2025-07-15\ntype: news\ntranslation: none');
const diagnostics = await buildFailure(root);

await entry('team/drafted/en.md', 'title: x\nname: Drafted\nrole: Role\ndraft: true\ntranslation: none', 'Bio.', quiet);
await entry('articles/byline/en.md', article('byline', 'type: news\nauthor: drafted'), 'Text.', quiet);
await entry('articles/no-description/en.md', article('no-description', "type: news\ndescription: ''"), 'Text.', quiet);
const { result: withWarning, out: quietOut } = await buildToMemory(quiet);
await writeFile(path.join(quiet, 'config', 'redirects.yaml'), '- from: /old-contact/\n  to: /contact-us\n');
const redirectProblems = await buildFailure(quiet);

test('two paths that name one file are a conflict: / and /index/ (one page record), / and /index.html (one page)', () => {
  const record = findDiagnostic(diagnostics, { rule: 'graph/path-conflict', file: 'content/pages/index/en.md' });
  assert.match(record.message, /the file page-data\/index\/page-data\.json \(as \/ and \/index\/\)/);
  assert.match(record.message, /content\/pages\/home\/en\.md/);
  const html = findDiagnostic(diagnostics, { rule: 'graph/path-conflict', file: 'content/pages/html-home/en.md', field: 'path', line: 4 });
  assert.match(html.message, /the file index\.html/);
  // Whichever comes first, the error is at the page that is not at the file's own path, and the home page stays.
  const first = findDiagnostic(diagnostics, { rule: 'graph/path-conflict', file: 'content/pages/aa-first/en.md', field: 'path', line: 4 });
  assert.match(first.message, /\(as \/ and \/index\/\)/);
  assert.ok(!diagnostics.some((d) => d.file === 'content/pages/home/en.md'), 'nothing is reported at the home page');
});

test('paths that differ only in case (one folder on macOS and Windows) are a conflict: a bio folder, a page path', () => {
  const handle = diagnostics.find((d) => d.rule === 'graph/path-conflict' && /\/your-team\/jdoe\/ and \/your-team\/JDoe\/|\/your-team\/JDoe\/ and \/your-team\/jdoe\//.test(d.message));
  assert.ok(handle, diagnostics.map((d) => d.message).join('\n'));
  assert.match(handle.message, /differ only in case/);
  const cased = findDiagnostic(diagnostics, { rule: 'graph/path-conflict', file: 'content/pages/cased/en.md', field: 'path' });
  assert.match(cased.message, /\/Contact-Us\/ and \/contact-us\/|\/contact-us\/ and \/Contact-Us\//);
});

test('a path with "..", "//" or an unknown token is an error at its field', () => {
  const problems: [string, RegExp][] = [
    ['dots', /"\." or "\.\." part/],
    ['other-host', /"\/\/" leaves an empty part/],
    ['token', /unknown token \{sit\}/],
  ];
  for (const [name, message] of problems) {
    const d = findDiagnostic(diagnostics, { file: `content/pages/${name}/en.md`, rule: 'content/invalid-path', field: 'path', line: 4 });
    assert.match(d.message, message);
  }
});

test("a path under another language's prefix or a legacy prefix is an error, written or made from a folder name", () => {
  const written = findDiagnostic(diagnostics, { file: 'content/pages/french-prefix/fr.md', rule: 'graph/invalid-path', field: 'path', line: 4 });
  assert.match(written.message, /cannot be published at \/fr\/foo\/: it starts with \/fr\/, its language's prefix, which the build adds/);
  const folder = findDiagnostic(diagnostics, { file: 'content/pages/cn/en.md', rule: 'graph/invalid-path' });
  assert.match(folder.message, /legacy prefix/);
  assert.match(folder.hint ?? '', /folder name content\/pages\/cn/);
  const spaced = findDiagnostic(diagnostics, { file: 'content/team/two words/en.md', rule: 'graph/invalid-path' });
  assert.match(spaced.message, /\/your-team\/two words\/: no spaces/);
});

test('a commentary slug carries its quarter as written in quarter:, with the slug to write', () => {
  const lower = findDiagnostic(diagnostics, { file: 'content/articles/lower-quarter/en.md', rule: 'content/invalid-slug', field: 'slug', line: 3 });
  assert.match(lower.message, /e\.g\. slug: commentary-Q3-2025$/);
  const other = findDiagnostic(diagnostics, { file: 'content/articles/other-quarter/en.md', rule: 'content/invalid-slug', field: 'slug' });
  assert.match(other.message, /e\.g\. slug: commentary-Q3-2025$/);
});

test("an author whose bio this build does not publish is a warning, not a silently missing byline", () => {
  const d = findDiagnostic(withWarning.diagnostics, { file: 'content/articles/byline/en.md', rule: 'graph/unpublished-author', field: 'author', line: 7 });
  assert.equal(d.severity, 'warning');
});

test('an empty description is none: the page gets the fallback, not an empty meta description', () => {
  const html = quietOut.text('article/no-description/index.html');
  const meta = /<meta name="description" content="([^"]*)"/.exec(html);
  assert.ok(meta, 'a meta description');
  assert.notEqual(meta[1], '');
  const record = JSON.parse(quietOut.text('page-data/article/no-description/page-data.json')) as { result: { data: { description: unknown } } };
  assert.equal(record.result.data.description, null);
});

test('a number where text is expected says that YAML read a number, and how to quote it', () => {
  const d = findDiagnostic(diagnostics, { file: 'content/articles/number/en.md', field: 'slug', line: 3 });
  assert.match(d.message, /YAML read 2025 as a number; put the value in quotes, as written/);
});

test("a redirect to a path that is not a page is reported at its to: field", () => {
  const d = findDiagnostic(redirectProblems, { file: 'config/redirects.yaml', rule: 'redirects/missing-target' });
  assert.equal(d.field, 'to');
});

test('pathPartsProblem: page paths and redirect sources', () => {
  for (const good of ['/', '/a/', '/a/b/', '/404.html', '/what-is-{site}/', '/{name}s-corner/', '/été/']) assert.equal(pathPartsProblem(good, { page: true }), null, good);
  for (const bad of ['/a/../b/', '/./', '/a/..', '//x/', '/a//b/', '/a\\b/', '/caf%C3%A9/', '/a b/', '/{x}/', '/a}/']) assert.ok(pathPartsProblem(bad, { page: true }), bad);
  // A redirect's source is an address someone once used: %-codes and spaces are its own business.
  assert.equal(pathPartsProblem('/old%20page/'), null);
  assert.ok(pathPartsProblem('/a/../b/'));
});
