import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fg from 'fast-glob';
import { fieldAtLine, grayMatter, readFrontMatter, splitFrontMatter } from '../../src/content/frontmatter.js';
import { seededRandom } from '../seeded-random.js';

test('dates and times stay strings (YAML core schema, not 1.1)', () => {
  const fm = readFrontMatter('---\ntitle: A\ndate: 2025-13-05\ntime: 12:30:00\n---\nBody\n');
  assert.ok(!('message' in fm));
  assert.equal(fm.data.date, '2025-13-05');
  assert.equal(fm.data.time, '12:30:00');
});

test('field lines and body line are file lines', () => {
  const fm = readFrontMatter('---\ntitle: A\n\ndate: 2025-01-05\n---\n\nBody\n');
  assert.ok(!('message' in fm));
  assert.deepEqual(fm.fieldLines, { title: 2, date: 4 });
  assert.equal(fm.bodyLine, 6);
  assert.equal(fm.body.trim(), 'Body');
});

test('CRLF files and a BOM read the same as LF files', () => {
  const fm = readFrontMatter('\uFEFF---\r\ntitle: A\r\n---\r\nBody\r\n');
  assert.ok(!('message' in fm));
  assert.equal(fm.data.title, 'A');
});

test('bad YAML names the file line, column and field', () => {
  const fm = readFrontMatter('---\ntitle: A\nsections: [a, b\ndate: 2025-01-01\n---\nBody');
  assert.ok('message' in fm);
  assert.equal(fm.line, 4);
  assert.equal(fm.field, 'sections');
  assert.match(fm.message, /^invalid YAML front matter/);
});

test('duplicate keys are an error, not a silent overwrite', () => {
  const fm = readFrontMatter('---\ntitle: A\ntitle: B\n---\n');
  assert.ok('message' in fm);
  assert.equal(fm.line, 3);
  assert.equal(fm.field, 'title');
});

test('JavaScript front matter is refused, never evaluated', () => {
  const marker = `ir_site_eval_${process.pid}`;
  const fm = readFrontMatter(`---js\n{ title: (globalThis.${marker} = 1) }\n---\n`);
  assert.ok('message' in fm);
  assert.match(fm.message, /not allowed/);
  assert.equal((globalThis as Record<string, unknown>)[marker], undefined);
});

test('a front matter that is not a mapping is an error', () => {
  const fm = readFrontMatter('---\n- a\n- b\n---\n');
  assert.ok('message' in fm);
});

test('fieldAtLine: an error at the start of a key line belongs to the previous field', () => {
  const lines = { title: 2, slug: 3, date: 4 };
  assert.equal(fieldAtLine(lines, 4, 1), 'slug');
  assert.equal(fieldAtLine(lines, 4, 7), 'date');
  assert.equal(fieldAtLine(lines, 3, 9), 'slug');
});

/** What a front-matter reader makes of a text, or the message it throws. */
function outcome(read: typeof grayMatter, text: string): unknown {
  try {
    const { data, content, matter: block } = read(text);
    return { data, content, matter: block };
  } catch (error) {
    return { thrown: (error as Error).message };
  }
}
const split = (text: string) => outcome(splitFrontMatter, text);
const wholeFile = (text: string) => outcome(grayMatter, text);

// splitFrontMatter hands gray-matter only the text up to the closing delimiter: for every
// text, the result must be what gray-matter makes of the whole file.
const EDGE_CASES = [
  '',
  'no front matter at all',
  '---',
  '---\n',
  '---\n---',
  '---\n---\n',
  '---\n---\nbody',
  '---\n\n---\n\nbody\n',
  '----\ntitle: a\n----\nbody',
  '---\ntitle: a\n---',
  '---\ntitle: a\n---\n',
  '---\ntitle: a\n---\n\n\nbody\n',
  '---\ntitle: a\n----\nbody',
  '---\ntitle: a\n--- trailing words\nbody',
  '---\ntitle: a\n---body on the delimiter line',
  '---yaml\ntitle: a\n---\nbody',
  '--- \ntitle: a\n---\nbody',
  '---\ntitle: a\nno closing delimiter\n',
  '---\n# only a comment\n---\nbody',
  '---\ntitle: "a\n---\nb"\n---\nbody',
  '---\ntitle: a\n---\r\nbody',
  '---\r\ntitle: a\r\n---\r\n\r\nbody',
  'text first\n---\ntitle: a\n---\n',
  '---js\n{ title: 1 }\n---\nbody',
  '---\n- a\n- b\n---\n',
  '---\ntitle: [a, b\n---\n',
  '---\ntitle: a\n---\n---\nsecond: block\n---\nbody\n---\n',
];

test('splitFrontMatter reads every edge case as gray-matter reads the whole file', () => {
  for (const text of EDGE_CASES) assert.deepEqual(split(text), wholeFile(text), JSON.stringify(text));
});

test('splitFrontMatter reads the demo and fixture files, and seeded mixes of their lines, as gray-matter does', () => {
  const files = fg.sync(['content/**/*.md', 'test/fixtures/**/*.md']).map((file) => readFileSync(file, 'utf8'));
  assert.ok(files.length > 100, 'the demo content and fixtures are found');
  for (const text of files) assert.deepEqual(split(text), wholeFile(text));
  // Mixes: lines of those files, delimiters, blank lines and comments in any order.
  const lines = [...new Set(files.flatMap((text) => text.split('\n')))];
  const pieces = ['---', '----', '--- x', '---yaml', '', '# comment', '\r', 'title: a', 'title: [a', ...lines];
  const next = seededRandom(11);
  for (let i = 0; i < 3000; i++) {
    const count = 1 + Math.floor(next() * 12);
    const picked = Array.from({ length: count }, () => pieces[Math.floor(next() * pieces.length)]!);
    const text = (next() < 0.8 ? '---\n' : '') + picked.join('\n');
    assert.deepEqual(split(text), wholeFile(text), `mix ${i}: ${JSON.stringify(text)}`);
  }
});
