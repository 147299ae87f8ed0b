// Every content error of issue 2, from fixture sites: all reported in one run, each
// with file, line and field.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildOptions } from '../../src/build/index.js';
import { buildFailure, buildToMemory, filesUnder, findDiagnostic, fixture, writableFixture } from '../helpers.js';

const diagnostics = await buildFailure(fixture('content-errors'));

test('all content errors come out of one run', () => {
  const files = new Set(diagnostics.map((d) => d.file));
  for (const name of ['bad-yaml', 'no-title', 'bad-date', 'bad-type', 'unknown-author', 'dup-b', 'claims-page', 'js-front-matter']) {
    assert.ok([...files].some((f) => f.includes(`/${name}/`)), `no error for ${name}`);
  }
  assert.ok(diagnostics.every((d) => d.severity === 'error'));
});

test('bad YAML: file, line, column and the field it belongs to', () => {
  const d = findDiagnostic(diagnostics, { file: 'content/articles/bad-yaml/en.md' });
  // The line where the `[` opens, not the next line where the parser gave up.
  assert.equal(d.line, 3);
  assert.match(d.message, /the \[ that opens this list is never closed/);
  assert.equal(d.field, 'slug');
  assert.match(d.message, /^invalid YAML front matter/);
});

test('missing title', () => {
  findDiagnostic(diagnostics, { file: 'content/articles/no-title/en.md', field: 'title', message: 'missing required field "title"' });
});

test('bad date says which part is wrong, at its line', () => {
  const d = findDiagnostic(diagnostics, { file: 'content/articles/bad-date/en.md', field: 'date', line: 4 });
  assert.match(d.message, /month 13 does not exist/);
  assert.ok(d.hint);
});

test('unknown type lists the valid types', () => {
  const d = findDiagnostic(diagnostics, { file: 'content/articles/bad-type/en.md', field: 'type', line: 5 });
  assert.match(d.message, /"blog-post" is not a valid type/);
});

test('unknown author names the handles that exist', () => {
  const d = findDiagnostic(diagnostics, { file: 'content/articles/unknown-author/en.md', field: 'author', line: 6, rule: 'graph/unknown-author' });
  assert.match(d.hint!, /jdoe/);
});

test('duplicate slug within a language names both files', () => {
  const d = findDiagnostic(diagnostics, { rule: 'graph/duplicate-slug', field: 'slug' });
  assert.equal(d.file, 'content/articles/dup-b/en.md');
  assert.equal(d.line, 5);
  assert.match(d.message, /content\/articles\/dup-a\/en\.md \(line 3\)/);
});

test('two entries claiming one path name both', () => {
  const d = findDiagnostic(diagnostics, { rule: 'graph/path-conflict' });
  assert.equal(d.file, 'content/articles/claims-page/en.md');
  assert.equal(d.field, 'atRoot');
  assert.match(d.message, /\/contact-us\/: content\/articles\/claims-page\/en\.md and content\/pages\/contact-us\/en\.md/);
});

test('JavaScript front matter is refused and never run', () => {
  findDiagnostic(diagnostics, { file: 'content/articles/js-front-matter/en.md' });
  assert.equal(existsSync('/tmp/ir-site-pwned'), false);
});

test('an unknown locale in the configuration fails with the SPEC message', async () => {
  const [d] = await buildFailure(fixture('bad-locale'));
  assert.equal(d!.message, 'Invalid localed provided: xx. See your i18n config file for a list of available locales.');
});

test('redirect rules: missing target, two rules from one path, chain, loop, a rule hiding a page', async () => {
  const found = await buildFailure(fixture('redirect-errors'));
  const at = (rule: string) => found.filter((d) => d.rule === rule).map((d) => `${d.line}: ${d.message}`);
  assert.deepEqual(at('redirects/missing-target'), ['1: the redirect from /gone/ points to /nowhere/, which is not a page of this site']);
  assert.deepEqual(at('redirects/duplicate-source'), ['5: two redirect rules from /old-about/: to /about/ (config/redirects.yaml:3) and to /team/']);
  assert.deepEqual(at('redirects/chain'), ['7: redirect chain: /a/ -> /b/ -> /about/']);
  assert.deepEqual(at('redirects/loop'), ['11: redirect loop: /loop-1/ -> /loop-2/ -> /loop-1/']);
  assert.deepEqual(at('redirects/shadows-page'), ['15: the redirect from /team/ hides a page that exists at that path']);
  assert.equal(found.length, 5, 'the valid rule /fine/ is not reported');
});

test('an output folder that is, holds or sits inside the site, its sources or its cache is refused before anything is written', async () => {
  const root = await writableFixture('minimal', 'output-clash');
  try {
    // The site's own files: the configuration's bundle goes to the cache before it is read.
    const sources = async () => (await filesUnder(root)).filter((f) => !f.startsWith('.ir-site/'));
    const before = await sources();
    const cases: [Partial<BuildOptions>, RegExp][] = [
      [{ outDir: '.' }, /holds the whole site/],
      [{ outDir: '..' }, /holds the whole site/],
      [{ outDir: 'content' }, /is or holds the content folder/],
      [{ outDir: 'content/articles/public' }, /is inside the content folder/],
      [{ outDir: '.ir-site/cache' }, /is or holds the cache folder/],
      [{ outDir: '.ir-site' }, /is or holds the cache folder/],
      [{ outDir: 'config' }, /is or holds the config folder/],
    ];
    for (const [options, message] of cases) {
      const problem = findDiagnostic(await buildFailure(root, options), { rule: 'config/invalid', field: '--out' });
      assert.match(problem.message, message, options.outDir);
    }
    assert.deepEqual(await sources(), before, 'nothing deleted or written');
    // paths.out in site.config.ts is named by its own field.
    const config = path.join(root, 'site.config.ts');
    await writeFile(config, (await readFile(config, 'utf8')).replace("paths: { ", "paths: { out: 'content', "));
    findDiagnostic(await buildFailure(root, { cache: false }), { rule: 'config/invalid', field: 'paths.out' });
    // A cache inside the content folder would be read as content (dev fed on its own images), or one holding it.
    for (const [cache, message] of [['content/x', /the cache folder content\/x is inside the content folder/], ['content', /is inside the content folder/], ['.', /holds the content folder/]] as const) {
      await writeFile(config, (await readFile(config, 'utf8')).replace(/paths: \{ (out|cache): '[^']*', /, "paths: { ").replace('paths: { ', `paths: { cache: '${cache}', `));
      assert.match(findDiagnostic(await buildFailure(root, { cache: false }), { rule: 'config/invalid', field: 'paths.cache' }).message, message, cache);
    }
    // In a dot folder of the content folder, which the build never reads: that builds.
    await writeFile(config, (await readFile(config, 'utf8')).replace(/paths: \{ cache: '[^']*', /, "paths: { cache: 'content/.cache', "));
    await buildToMemory(root);
    // A config folder that is the site's root holds the output as any site's root does: that builds.
    await writeFile(config, (await readFile(config, 'utf8')).replace(/paths: \{ cache: '[^']*', /, "paths: { config: '.', "));
    await buildToMemory(root, { cache: false });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('something other than a folder where the cache folder goes (a file, a link to nothing, a file on the way) is an error naming it, and is left alone', async () => {
  const root = await writableFixture('minimal', 'cache-in-the-way');
  const cache = path.join(root, '.ir-site', 'cache');
  const onDisk = { sink: undefined, workers: 0 };
  try {
    await mkdir(path.dirname(cache), { recursive: true });
    await writeFile(cache, 'the editor\'s');
    let problem = findDiagnostic(await buildFailure(root, onDisk), { rule: 'config/load', file: '.ir-site/cache' });
    assert.match(problem.message, /\.ir-site\/cache is a file, not a folder/);
    assert.match(problem.hint ?? '', /delete or move away what is there/);
    assert.equal(await readFile(cache, 'utf8'), 'the editor\'s', 'the file is left alone');
    await rm(cache);
    await symlink(path.join(root, 'nowhere'), cache);
    problem = findDiagnostic(await buildFailure(root, onDisk), { rule: 'config/load', file: '.ir-site/cache' });
    assert.match(problem.message, /\.ir-site\/cache is a link to nothing/);
    await rm(path.dirname(cache), { recursive: true });
    await writeFile(path.dirname(cache), 'a file');
    problem = findDiagnostic(await buildFailure(root, onDisk), { rule: 'config/load', file: '.ir-site/cache' });
    assert.match(problem.message, /a file is on the way to .*\.ir-site\/cache/);
    await rm(path.dirname(cache));
    // paths.cache moves the build cache (not the config's bundle): a file there is named too.
    const config = path.join(root, 'site.config.ts');
    await writeFile(config, (await readFile(config, 'utf8')).replace('paths: { ', "paths: { cache: 'my-cache', "));
    await writeFile(path.join(root, 'my-cache'), 'the editor\'s');
    problem = findDiagnostic(await buildFailure(root, onDisk), { rule: 'build/locked', file: 'my-cache' });
    assert.match(problem.message, /my-cache is a file, not a folder/);
    assert.match(problem.hint ?? '', /set paths\.cache/);
    assert.equal(await readFile(path.join(root, 'my-cache'), 'utf8'), 'the editor\'s', 'the file is left alone');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a field written twice in front matter is named at its second line', async () => {
  const root = await writableFixture('minimal', 'twice');
  try {
    const article = path.join(root, 'content/articles/press-one/en.md');
    await writeFile(article, (await readFile(article, 'utf8')).replace('atRoot: true\n', 'atRoot: true\nsections: [insights]\n'));
    const d = findDiagnostic(await buildFailure(root), { file: 'content/articles/press-one/en.md', rule: 'content/invalid-yaml' });
    assert.deepEqual([d.line, d.field], [8, 'sections']);
    assert.match(d.message, /"sections" is written twice \(first on line 6\)/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a problem deep in a YAML file or front matter is at its own line, not its top-level key\'s', async () => {
  const root = await writableFixture('minimal', 'nested-lines');
  try {
    await writeFile(
      path.join(root, 'content/site.yaml'),
      'performanceApprovalDate: 2025-10-15\nasAtDate: 2025-09-30\nidentities:\n  first:\n    displayName: { en: Alpha Corp, fr: Société Alpha }\n  second:\n    displayName:\n      en: Beta Corp\n      fr: [Société, Bêta]\n',
    );
    await writeFile(
      path.join(root, 'content/portfolio/core.yaml'),
      'title: { en: Core, fr: Noyau }\norder: 1\nholdings:\n  - { company: Acme, weight: 12.5 }\n  - company: Bolt\n    weight: { value: 3 }\n',
    );
    await writeFile(path.join(root, 'content/portfolio/other.yaml'), 'order: 2\ntitle:\n  en: Other\n  FR: Autre\n');
    await writeFile(path.join(root, 'config/redirects.yaml'), '- from: /old-contact/\n  to: /contact-us/\n\n# moved in May\n- from: /older/\n  to: javascript:alert(1)\n  code: 301\n');
    const article = path.join(root, 'content/articles/press-one/en.md');
    const text = await readFile(article, 'utf8');
    await writeFile(article, text.replace(/^---\n/, '---\ndocuments:\n  - { label: Annual report, file: report.pdf }\n  - label: Proxy circular\n    file: [proxy.pdf]\nsections: [insights]\n').replace('sections: [insights, column]\n', ''));
    const found = await buildFailure(root);
    const at = (match: Partial<(typeof found)[number]>) => findDiagnostic(found, match).line;
    assert.equal(at({ file: 'content/site.yaml', field: 'identities.second.displayName.fr' }), 9);
    assert.equal(at({ file: 'content/portfolio/core.yaml', field: 'holdings[1].weight', message: 'expected text, a number, true/false or nothing (null) in a cell' }), 6);
    assert.equal(at({ file: 'config/redirects.yaml', field: '[1].to' }), 6);
    const locale = findDiagnostic(found, { file: 'content/portfolio/other.yaml', field: 'title.FR' });
    assert.deepEqual([locale.line, locale.rule, locale.severity, locale.hint], [4, 'content/unknown-field', 'warning', 'did you mean "fr"?']);
    assert.equal(at({ file: 'config/redirects.yaml', field: '[1].code', rule: 'content/unknown-field' }), 7);
    assert.equal(at({ file: 'content/articles/press-one/en.md', field: 'documents[1].file' }), 5);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('an error in a template and one in the content: one build reports both', async () => {
  const root = await writableFixture('minimal', 'template-and-content', { ownTemplates: true });
  try {
    const template = path.join(root, 'templates/pages/article.tsx');
    await writeFile(template, (await readFile(template, 'utf8')).replace('</article>', '<p>{</p></article>'));
    const article = path.join(root, 'content/articles/press-one/en.md');
    await writeFile(article, (await readFile(article, 'utf8')).replace(/^date: .*$/m, 'date: 2025-13-16'));
    const found = await buildFailure(root);
    findDiagnostic(found, { file: 'content/articles/press-one/en.md', field: 'date' });
    assert.ok(found.some((d) => d.file === 'templates/pages/article.tsx' && d.severity === 'error'), JSON.stringify(found));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a legacy prefix that pages of the site start with: the redirect would hide them, an error at site.config.ts', async () => {
  const root = await writableFixture('minimal', 'legacy-prefix-pages');
  try {
    const config = path.join(root, 'site.config.ts');
    const text = await readFile(config, 'utf8');
    await writeFile(config, text.replace('export default defineConfig({', "export default defineConfig({\n  legacyPrefixes: ['cn', 'article'],"));
    const d = findDiagnostic(await buildFailure(root), { rule: 'redirects/shadows-page', file: 'site.config.ts', field: 'legacyPrefixes' });
    assert.match(d.message, /the legacy prefix \/article\/ is the start of pages of this site \(\/article\//);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('site.config.ts that throws as it runs (throw null, a getter that throws) or imports a package not installed: an error at site.config.ts saying so, never a crash', async () => {
  const root = await writableFixture('minimal', 'config-throws');
  const config = path.join(root, 'site.config.ts');
  const text = await readFile(config, 'utf8');
  const cases: [edit: (t: string) => string, message: RegExp, hint: RegExp][] = [
    [(t) => `${t}\nthrow null;\n`, /could not load the site configuration: null \(thrown, not an Error\)/, /threw as it ran/],
    [(t) => t.replace('export default defineConfig({', "export default defineConfig({\n  get compress(): boolean { throw 'no compress today'; },"), /reading the site configuration failed: no compress today \(thrown, not an Error\)/, /threw as it ran/],
    [(t) => `import missing from 'no-such-package-xyz';\n${t.replace('export default defineConfig({', 'export default defineConfig({\n  compress: Boolean(missing),')}`, /Cannot find package 'no-such-package-xyz'/, /imports no-such-package-xyz, which is not installed/],
  ];
  try {
    for (const [edit, message, hint] of cases) {
      await writeFile(config, edit(text));
      const d = findDiagnostic(await buildFailure(root), { rule: 'config/load', file: 'site.config.ts' });
      assert.match(d.message, message);
      assert.match(d.hint ?? '', hint);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a paths.content that names no folder: the missing website record is named where the content folder was said to be', async () => {
  const root = await writableFixture('minimal', 'content-misspelt');
  try {
    const config = path.join(root, 'site.config.ts');
    await writeFile(config, (await readFile(config, 'utf8')).replace('paths: { ', "paths: { content: 'contnet', "));
    const d = findDiagnostic(await buildFailure(root, { cache: false }), { rule: 'content/missing-website' });
    assert.equal(d.file, 'contnet/site.yaml');
    assert.match(d.hint ?? '', /paths\.content/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
