// Content is untrusted input: bodies built to overflow a parser's stack or to run for minutes,
// front-matter and locale keys that are names of Object's own properties, and links that point
// outside the site. Each must end in a clear error naming the file and line (or a warning), in
// bounded time, and nothing from outside the site may be published.
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MARKDOWN_LIMITS } from '../../src/features/markdown/limits.js';
import { isOwnName } from '../../src/shared/paths.js';
import { buildFailure, buildToMemory, findDiagnostic, writableFixture } from '../helpers.js';

let root: string;
let outside: string;
const article = (dir: string) => path.join(root, 'content', 'articles', dir);

async function writeArticle(dir: string, body: string, extraFrontMatter = ''): Promise<string> {
  await mkdir(article(dir), { recursive: true });
  const file = path.join(article(dir), 'en.md');
  await writeFile(file, `---\ntitle: Hostile\nslug: ${dir}\ndate: 2025-03-01\ntype: news\n${extraFrontMatter}---\nFirst line.\n\n${body}`);
  return `content/articles/${dir}/en.md`;
}

before(async () => {
  root = await writableFixture('minimal', 'hostile-content');
  outside = await mkdtemp(path.join(os.tmpdir(), 'ir-outside-'));
  await writeFile(path.join(outside, 'secret.pdf'), 'TOP-SECRET');
});
after(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

// Each body sits after 6 front-matter lines, "First line." and a blank line: its first line is file line 9.
const BODY_LINE = 9;
const deepIndentedList = (n: number) => Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}- item`).join('\n');
/** Quotes, emphasis and raw HTML each within their own limit, together deeper than the compiled tree may be. */
function deepOnlyOnceCompiled(): string {
  const marks = Array.from({ length: 40 }, (_, i) => (i % 2 ? '_' : '*'));
  const emphasis = (inner: string) => `${marks.map((m) => `${m}a `).join('')}${inner}${[...marks].reverse().map((m) => ` a${m}`).join('')}`;
  return `${'> '.repeat(31)}${emphasis(`${'<span>'.repeat(30)}x${'</span>'.repeat(30)}`)}\n`;
}
const STRUCTURES: Array<{ name: string; body: string; line: number; message: RegExp }> = [
  { name: '5000 nested quotes', body: `${'>'.repeat(5000)} deep\n`, line: BODY_LINE, message: /nested 5000 levels deep/ },
  { name: 'a one-line list 3000 deep', body: `${'- '.repeat(3000)}x\n`, line: BODY_LINE, message: /nested 3000 levels deep/ },
  { name: 'an indented list 1000 deep', body: `${deepIndentedList(1000)}\n`, line: BODY_LINE + 32, message: /nested 33 levels deep/ },
  { name: 'quotes that deepen line by line', body: Array.from({ length: 300 }, (_, i) => `${'> '.repeat(i + 1)}x`).join('\n'), line: BODY_LINE + 32, message: /nested 33 levels/ },
  { name: '2000 nested <div>s', body: `${'<div>'.repeat(2000)}x${'</div>'.repeat(2000)}\n`, line: BODY_LINE, message: /HTML elements are nested more than 32/ },
  { name: '5000 unclosed <span>s on lines of their own', body: Array.from({ length: 5000 }, () => '<span>').join('\n'), line: BODY_LINE + 32, message: /HTML elements/ },
  { name: 'emphasis 20000 deep', body: `${'*'.repeat(20000)}x${'*'.repeat(20000)}\n`, line: BODY_LINE, message: /more than 2000 emphasis/ },
  { name: 'link brackets 5000 deep', body: `${'['.repeat(5000)}x${']'.repeat(5000)}\n`, line: BODY_LINE, message: /link markers/ },
  { name: 'quotes, emphasis and html that nest over 100 deep only once the html is parsed', body: deepOnlyOnceCompiled(), line: BODY_LINE, message: /nests elements more than 100 deep/ },
  { name: 'a body over the size limit', body: 'word '.repeat(MARKDOWN_LIMITS.bodyBytes / 5 + 10), line: 7, message: /MiB; the limit is 1 MiB/ },
];

describe('hostile structure: a clear error with file and line, in bounded time', () => {
  for (const { name, body, line, message } of STRUCTURES) {
    // The timeout bounds the work (a quadratic parse took minutes); it measures nothing.
    test(name, { timeout: 120_000 }, async () => {
      const dir = `deep-${name.replace(/\W+/g, '-')}`;
      const file = await writeArticle(dir, body);
      try {
        const diagnostics = await buildFailure(root, { cache: false });
        const d = findDiagnostic(diagnostics, { rule: 'content/body-limit', file });
        assert.equal(d.line, line, `${name}: ${d.message}`);
        assert.match(d.message, message);
        assert.match(d.hint ?? '', /docs\/content\.md "Limits"/);
      } finally {
        await rm(article(dir), { recursive: true, force: true });
      }
    });
  }

  test('within the limits: nesting and markers up to each limit build', { timeout: 120_000 }, async () => {
    const body = [
      `${'> '.repeat(MARKDOWN_LIMITS.blockNesting - 1)}quoted`,
      '',
      deepIndentedList(16),
      '',
      `${'<div>'.repeat(MARKDOWN_LIMITS.htmlNesting)}x${'</div>'.repeat(MARKDOWN_LIMITS.htmlNesting)}`,
      '',
      'Name: ______________________________________ Date: ________________',
      '',
      '```python',
      `${' '.repeat(200)}deeply_indented_code()`,
      '```',
    ].join('\n');
    await writeArticle('within-limits', body);
    try {
      const { out } = await buildToMemory(root, { cache: false });
      assert.match(out.text('article/within-limits/index.html'), /deeply_indented_code/);
    } finally {
      await rm(article('within-limits'), { recursive: true, force: true });
    }
  });
});

describe("names of Object's own properties are fields like any other", () => {
  test('front matter: constructor, toString, __proto__ and hasOwnProperty are unknown fields, each at its line', async () => {
    const file = await writeArticle('proto-names', 'Body.\n', 'constructor: 1\ntoString: x\n__proto__: { polluted: true }\nhasOwnProperty: 2\n');
    try {
      const { result } = await buildToMemory(root, { cache: false });
      ['constructor', 'toString', '__proto__', 'hasOwnProperty'].forEach((field, i) => {
        const d = findDiagnostic(result.diagnostics, { rule: 'content/unknown-field', file, field });
        assert.equal(d.line, 6 + i);
      });
      assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    } finally {
      await rm(article('proto-names'), { recursive: true, force: true });
    }
  });

  test('a locale file: a bad value under such a key names the file, line and key', async () => {
    const locales = path.join(root, 'locales');
    await mkdir(locales, { recursive: true });
    const source = JSON.parse(await readFile(path.join(root, '..', '..', '..', 'locales', 'en.json'), 'utf8')) as Record<string, string>;
    const text = JSON.stringify({ ...source, constructor: 5, toString: { a: 1 } }, null, 2);
    await writeFile(path.join(locales, 'en.json'), text);
    await writeFile(path.join(locales, 'fr.json'), await readFile(path.join(root, '..', '..', '..', 'locales', 'fr.json')));
    const config = path.join(root, 'site.config.ts');
    const before = await readFile(config, 'utf8');
    await writeFile(config, before.replace(`locales: '../../../locales'`, `locales: 'locales'`));
    try {
      const diagnostics = await buildFailure(root, { cache: false });
      const lines = text.split('\n');
      for (const key of ['constructor', 'toString']) {
        const d = findDiagnostic(diagnostics, { file: 'locales/en.json', field: key });
        assert.equal(lines[d.line! - 1]!.trim().startsWith(`"${key}"`), true, `${key} at line ${d.line}`);
        assert.doesNotMatch(`${d.message} ${d.hint ?? ''}`, /native code|\[object/);
      }
      // A string of the file given a number: that one error, not every other key of the file called missing.
      await writeFile(path.join(locales, 'en.json'), JSON.stringify({ ...source, skipLink: 42 }, null, 2));
      const one = await buildFailure(root, { cache: false });
      assert.deepEqual(one.map((d) => [d.rule, d.file, d.field]), [['locales/invalid-string', 'locales/en.json', 'skipLink']]);
      assert.match(one[0]!.message, /JSON read 42 as a number/);
    } finally {
      await writeFile(config, before);
      await rm(locales, { recursive: true, force: true });
    }
  });
});

describe('links that point outside the site are errors, and nothing of theirs is published', () => {
  test('a linked file and a linked folder outside: each named, the build fails; a link inside the site is fine', async () => {
    const dir = article('linked');
    await writeArticle('linked', 'Body.\n', 'documents:\n  - { label: Report, file: report.pdf }\n');
    await symlink(path.join(outside, 'secret.pdf'), path.join(dir, 'report.pdf'));
    await symlink(outside, path.join(dir, 'folder'));
    try {
      const diagnostics = await buildFailure(root, { cache: false });
      const file = findDiagnostic(diagnostics, { rule: 'content/outside-site', file: 'content/articles/linked/report.pdf' });
      assert.match(file.message, new RegExp(`to ${path.join(outside, 'secret.pdf').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      findDiagnostic(diagnostics, { rule: 'content/outside-site', file: 'content/articles/linked/folder' });

      // The same names, linked to files inside the site, build and publish.
      await rm(path.join(dir, 'report.pdf'));
      await rm(path.join(dir, 'folder'));
      await symlink(path.join(root, 'content', 'articles', 'commentary-q2-2025', 'report.pdf'), path.join(dir, 'report.pdf'));
      const { out } = await buildToMemory(root, { cache: false });
      assert.ok(out.files.has('article/linked/report.pdf'));
      assert.ok([...out.files.values()].every((data) => !data.toString('latin1').includes('TOP-SECRET')));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('control characters in front matter text', () => {
  test('a NUL or a bell in a description: an error at its field, not a raw U+0000 in the pages', async () => {
    const file = await writeArticle('control-chars', 'Body.\n', 'description: "before\\0after"\n');
    try {
      const d = findDiagnostic(await buildFailure(root, { cache: false }), { file, field: 'description' });
      assert.match(d.message, /invisible control character/);
      await writeArticle('control-chars', 'Body.\n', 'description: "ring\\a"\n');
      findDiagnostic(await buildFailure(root, { cache: false }), { file, field: 'description' });
    } finally {
      await rm(article('control-chars'), { recursive: true, force: true });
    }
  });
});

describe('a file name too long to publish', () => {
  test('an image named with 240 bytes: an error naming it, not an unreadable image', async () => {
    const dir = article('long-name');
    await writeArticle('long-name', 'Body.\n');
    const name = `${'a'.repeat(236)}.jpg`;
    await copyFile(path.join(root, 'content', 'team', 'jdoe', 'photo.jpg'), path.join(dir, name));
    try {
      const diagnostics = await buildFailure(root, { cache: false });
      findDiagnostic(diagnostics, { rule: 'content/name-too-long', file: `content/articles/long-name/${name}` });
      assert.deepEqual(diagnostics.filter((d) => d.rule === 'content/invalid-image'), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('links that lead to no file are errors naming them, not a crash', () => {
  test('a loop of links, a link to itself, a link to nothing inside the site and one to nothing outside it', async () => {
    const dir = article('dead-links');
    await writeArticle('dead-links', 'Body.\n');
    await symlink('b.pdf', path.join(dir, 'a.pdf'));
    await symlink('a.pdf', path.join(dir, 'b.pdf'));
    await symlink('self.pdf', path.join(dir, 'self.pdf'));
    await symlink('missing.pdf', path.join(dir, 'nothing.pdf'));
    await symlink(path.join(outside, 'missing.pdf'), path.join(dir, 'away.pdf'));
    try {
      for (const cache of [false, true]) {
        const diagnostics = await buildFailure(root, { cache });
        for (const name of ['a.pdf', 'b.pdf', 'self.pdf']) {
          const d = findDiagnostic(diagnostics, { rule: 'content/broken-symlink', file: `content/articles/dead-links/${name}` });
          assert.match(d.message, /loop of links/);
        }
        assert.match(findDiagnostic(diagnostics, { rule: 'content/broken-symlink', file: 'content/articles/dead-links/nothing.pdf' }).message, /points to nothing/);
        findDiagnostic(diagnostics, { rule: 'content/outside-site', file: 'content/articles/dead-links/away.pdf' });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('configuration and locale files: links out of the site are not read; a byte-order mark is no error', () => {
  test('config/redirects.yaml linked to a file outside: an error naming it, and its rules nowhere', async () => {
    const redirects = path.join(root, 'config', 'redirects.yaml');
    const before = await readFile(redirects);
    await writeFile(path.join(outside, 'rules.yaml'), '- from: /outside-marker/\n  to: /\n');
    await rm(redirects);
    await symlink(path.join(outside, 'rules.yaml'), redirects);
    try {
      const diagnostics = await buildFailure(root, { cache: false });
      const link = findDiagnostic(diagnostics, { rule: 'content/outside-site', file: 'config/redirects.yaml' });
      assert.match(link.message, /rules\.yaml$/);
      assert.ok(diagnostics.every((d) => !`${d.message} ${d.excerpt ?? ''}`.includes('outside-marker')), 'nothing of the file is read or shown');
    } finally {
      await rm(redirects);
      await writeFile(redirects, before);
    }
  });

  test('a locale file saved with a byte-order mark builds', async () => {
    const locales = path.join(root, 'locales');
    await mkdir(locales, { recursive: true });
    for (const code of ['en', 'fr']) {
      const text = await readFile(path.join(root, '..', '..', '..', 'locales', `${code}.json`), 'utf8');
      await writeFile(path.join(locales, `${code}.json`), code === 'fr' ? `\uFEFF${text}` : text);
    }
    const config = path.join(root, 'site.config.ts');
    const before = await readFile(config, 'utf8');
    await writeFile(config, before.replace(`locales: '../../../locales'`, `locales: 'locales'`));
    try {
      const { result } = await buildToMemory(root, { cache: false });
      assert.deepEqual(result.diagnostics.filter((d) => d.file.startsWith('locales/')), []);
    } finally {
      await writeFile(config, before);
      await rm(locales, { recursive: true, force: true });
    }
  });
});

describe('names a file system or a URL decoder refuses: an error at the field or line, never a crash', () => {
  test('a slug or a page path part over 200 bytes, and an image address with a "%" that starts no code', async () => {
    const long = 'a'.repeat(300);
    await mkdir(article('long-slug'), { recursive: true });
    await writeFile(path.join(article('long-slug'), 'en.md'), `---\ntitle: Long\nslug: ${long}\ndate: 2025-03-01\ntype: news\n---\nBody.\n`);
    const page = path.join(root, 'content', 'pages', 'long-path');
    await mkdir(page, { recursive: true });
    await writeFile(path.join(page, 'en.md'), `---\ntitle: Long\npath: /x/${'é'.repeat(101)}/\n---\nBody.\n`);
    const percent = await writeArticle('percent', '![x](a%zz.png)\n');
    try {
      const diagnostics = await buildFailure(root, { cache: false });
      const slug = findDiagnostic(diagnostics, { file: 'content/articles/long-slug/en.md', field: 'slug' });
      assert.equal(slug.line, 3);
      assert.match(slug.message, /at most 200 characters/);
      const pagePath = findDiagnostic(diagnostics, { file: 'content/pages/long-path/en.md', field: 'path' });
      assert.equal(pagePath.line, 3);
      assert.match(pagePath.message, /202 bytes long, over 200/);
      const image = findDiagnostic(diagnostics, { rule: 'content/missing-image', file: percent });
      assert.equal(image.line, BODY_LINE);
    } finally {
      await rm(article('long-slug'), { recursive: true, force: true });
      await rm(page, { recursive: true, force: true });
      await rm(article('percent'), { recursive: true, force: true });
    }
  });
});

describe("content that would take a place the build writes its own files to: an error at its field, never a crash or a page written over", () => {
  const page = (key: string) => path.join(root, 'content', 'pages', key);
  async function writePage(key: string, frontMatter: string): Promise<string> {
    await mkdir(page(key), { recursive: true });
    await writeFile(path.join(page(key), 'en.md'), `---\ntitle: Taken\n${frontMatter}translation: none\n---\nBody.\n`);
    return `content/pages/${key}/en.md`;
  }

  test("a section key that is not a plain key (its search page would be /search/../, the home page)", async () => {
    const files = [await writePage('climb', 'template: section\nsection: ".."\n'), await writePage('slash', 'template: column\nsection: x/y\n')];
    try {
      const diagnostics = await buildFailure(root, { cache: false });
      for (const file of files) {
        const found = findDiagnostic(diagnostics, { rule: 'content/invalid-section', file });
        assert.equal(found.line, 4);
        assert.match(found.message, /lower-case letters, digits and dashes/);
      }
    } finally {
      for (const key of ['climb', 'slash']) await rm(page(key), { recursive: true, force: true });
    }
  });

  test("a page whose path starts with one of the build's own names, by folder, path or an article at the root; a file next to the home page named like one", async () => {
    const byFolder = await Promise.all(['sw.js', 'robots.txt', 'page-data', 'Static'].map((key) => writePage(key, '')));
    const byPath = await writePage('under-static', 'path: /static/x/\n');
    const atRoot = await writeArticle('static', '', 'atRoot: true\n');
    const favicon = path.join(root, 'content', 'pages', 'home', 'favicon.svg');
    await writeFile(favicon, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    try {
      const diagnostics = await buildFailure(root, { cache: false });
      for (const file of byFolder) assert.match(findDiagnostic(diagnostics, { rule: 'graph/invalid-path', file }).message, /a name the build writes its own files under/);
      assert.equal(findDiagnostic(diagnostics, { rule: 'graph/invalid-path', file: byPath, field: 'path' }).line, 3);
      findDiagnostic(diagnostics, { rule: 'graph/invalid-path', file: atRoot, field: 'atRoot' });
      assert.match(findDiagnostic(diagnostics, { rule: 'graph/invalid-path', file: 'content/pages/home/favicon.svg' }).message, /the build writes its own favicon\.svg there/);
    } finally {
      for (const key of ['sw.js', 'robots.txt', 'page-data', 'Static', 'under-static']) await rm(page(key), { recursive: true, force: true });
      await rm(article('static'), { recursive: true, force: true });
      await rm(favicon, { force: true });
    }
  });

  test("every name at the top of a build's output is a page's, a published file's, or one the build keeps for its own", async () => {
    const { result, out } = await buildToMemory(root, { cache: false });
    assert.equal(result.diagnostics.filter((d) => d.severity === 'error').length, 0);
    const top = new Set([...out.files.keys()].map((file) => file.split('/')[0]!.replace(/\.(br|gz)$/, '')));
    // A page's folder (or a language's or legacy prefix's, whose not-found page is `cn/404.html`).
    const pages = new Set([...out.files.keys()].filter((file) => file.endsWith('.html') && file.includes('/')).map((file) => file.split('/')[0]!));
    const own = [...top].filter((name) => !pages.has(name) && !name.endsWith('.html'));
    assert.ok(own.includes('sw.js') && own.includes('static'), own.join(' '));
    for (const name of own) assert.ok(isOwnName(name), `the build writes ${name} at the top of the output, but isOwnName does not keep it from pages`);
  });
});

test('redirect rules no host file can carry, or that would hide a whole prefix: errors at their lines, not a crash after the render', async () => {
  const rules = path.join(root, 'config', 'redirects.yaml');
  const before = await readFile(rules, 'utf8');
  await writeFile(
    rules,
    [
      '- from: /old-contact/', //        1
      '  to: /contact-us/',
      '- from: "/fr/*"', //              3: would send every French page away on the hosts
      '  to: "/:splat"',
      '- from: "/old\u0085x/"', //       5: a C1 control, which \s does not match
      '  to: /contact-us/',
      '- from: /gone/', //               7
      '  to: "https://evil.example/a b"', // 8: a space inside a URL
    ].join('\n'),
  );
  const file = await writeArticle('moved-away', '', 'redirectFrom:\n  - "/x/*"\n  - "/y\u0085/"\n');
  try {
    const diagnostics = await buildFailure(root, { cache: false });
    const at = (line: number) => diagnostics.find((d) => d.file === 'config/redirects.yaml' && d.line === line);
    assert.match(at(3)?.message ?? '', /a "\*" is not allowed/);
    assert.ok(at(5), `an error at line 5 among ${JSON.stringify(diagnostics)}`);
    assert.match(at(8)?.message ?? '', /no spaces/);
    const moved = diagnostics.filter((d) => d.file === file && d.field?.startsWith('redirectFrom'));
    assert.equal(moved.length, 2, JSON.stringify(diagnostics));
  } finally {
    await writeFile(rules, before);
    await rm(article('moved-away'), { recursive: true, force: true });
  }
});

test('documents named with "#", "?", "%" or a space: each link leads to its file; a missing one is named at its own line', async () => {
  const names = ['a b#c.pdf', 'q?x.pdf', '100%.pdf'];
  const file = await writeArticle('odd-documents', '', `documents:\n${names.map((n, i) => `  - label: Doc ${i}\n    file: "${n}"\n`).join('')}  - label: Missing\n    file: nowhere.pdf\n`);
  for (const name of names) await writeFile(path.join(article('odd-documents'), name), `%PDF ${name}`);
  try {
    const missing = findDiagnostic(await buildFailure(root, { cache: false }), { rule: 'content/missing-file', file, field: 'documents[3].file' });
    assert.equal(missing.line, 14, 'the line of its file: field, not the line of documents:');
    await rm(path.join(article('odd-documents'), 'en.md'));
    await writeArticle('odd-documents', '', `documents:\n${names.map((n, i) => `  - label: Doc ${i}\n    file: "${n}"\n`).join('')}`);
    const { out } = await buildToMemory(root, { cache: false });
    const html = out.text('article/odd-documents/index.html');
    for (const name of names) {
      const href = `/article/odd-documents/${encodeURIComponent(name)}`;
      assert.ok(html.includes(`href="${href}"`), `a link to ${href}`);
      // What a host does with the address: the file of that name.
      assert.equal(out.text(decodeURIComponent(new URL(href, 'https://x.example').pathname).slice(1)), `%PDF ${name}`);
    }
  } finally {
    await rm(article('odd-documents'), { recursive: true, force: true });
  }
});
