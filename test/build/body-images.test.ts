// A body's images are the images its markdown parser sees (docs/images.md): every form markdown
// and HTML have for one is resolved next to the entry or reported missing at its line, and image
// syntax inside code, comments or escapes is text. Each use of a file takes its own layout.
import assert from 'node:assert/strict';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { buildFailure, buildToMemory, fixture, writableFixture } from '../helpers.js';

let root: string;
const folder = () => path.join(root, 'content', 'articles', 'pictures');
const FILE = 'content/articles/pictures/en.md';

before(async () => {
  root = await writableFixture('minimal', 'body-images');
  await mkdir(folder(), { recursive: true });
  await cp(path.join(fixture('minimal'), 'content/articles/press-one/chart.png'), path.join(folder(), 'chart.png'));
});
after(() => rm(root, { recursive: true, force: true }));

/** The article with `body` after its 7 front-matter lines: the body's first line is file line 8. */
const writeBody = (body: string) => writeFile(path.join(folder(), 'en.md'), `---\ntitle: Pictures\nslug: pictures\ndate: 2025-03-01\ntype: news\ntranslation: none\n---\n${body}`);

test('every form of image markdown and HTML have is checked: missing files are errors at their lines', async () => {
  await writeBody(
    [
      "![single](missing1.png 'single title')", // 8
      '![paren](missing2.png (paren title))', // 9
      '![refstyle][r]', // 10
      '<img src=missing4.png alt="unquoted">', // 11
      '![multi', // 12
      'line](missing5.png)', // 13
      '![fine](chart.png)', // 14
      '',
      '[r]: missing3.png',
    ].join('\n'),
  );
  const missing = (await buildFailure(root, { cache: false })).filter((d) => d.rule === 'content/missing-image' && d.file === FILE);
  assert.deepEqual(
    missing.map((d) => [d.line, /"([^"]+)"/.exec(d.message)![1]]).sort((a, b) => Number(a[0]) - Number(b[0])),
    [
      [8, 'missing1.png'],
      [9, 'missing2.png'],
      [10, 'missing3.png'],
      [11, 'missing4.png'],
      [12, 'missing5.png'],
    ],
  );
});

test('image syntax in code, comments and escapes is text; each use of one file takes its own layout', async () => {
  await writeBody(
    [
      '`![x](codeonly.png)`',
      '',
      '```',
      '![x](fenced.png)',
      '```',
      '',
      '    ![indented code](indented.png)',
      '',
      '<!-- old chart, file deleted: ![x](old-chart.png) -->',
      '',
      '\\![not an image](escaped.png)',
      '',
      '![small](chart.png "fixed")',
      '',
      '![wide][wide]',
      '',
      '[wide]: ./chart.png "fullWidth"',
    ].join('\n'),
  );
  const { result, out } = await buildToMemory(root, { cache: false });
  // No missing image: the escaped `!` leaves a plain link, which the site checks see as the page has it.
  const found = result.diagnostics.filter((d) => d.file === FILE);
  assert.deepEqual(found.map((d) => [d.rule, d.severity, d.line]), [['links/missing-file', 'warning', 18]], JSON.stringify(found));
  assert.match(found[0]!.message, /the link to escaped\.png: no such file/);
  const html = out.text('article/pictures/index.html');
  const layouts = [...html.matchAll(/<span class="ir-image ir-image--(\w+)[ "]/g)].map((m) => m[1]);
  assert.deepEqual(layouts, ['fixed', 'fullWidth']);
  assert.match(html, /!\[x\]\(codeonly\.png\)/, 'the code span shows the markdown as written');
});
