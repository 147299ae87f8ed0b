import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldAtLine, readFrontMatter } from '../../src/build/content/frontmatter.js';

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
  assert.equal(fm.line, 3);
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

test('front matter in another language (---toml) says ir-site reads YAML, not which engine is missing', () => {
  const problem = readFrontMatter('---toml\ntitle = "x"\n---\nBody\n');
  assert.ok('message' in problem && !('data' in problem));
  assert.equal(problem.message, 'front matter in "toml" cannot be read: ir-site reads YAML only');
  assert.equal(problem.line, 1);
});

test('front matter gray-matter has an engine of its own for (---json), or named like what every object has: refused, never read as no fields', () => {
  for (const language of ['json', 'constructor', 'toString', 'hasOwnProperty']) {
    const problem = readFrontMatter(`---${language}\n{"title": "x"}\n---\nBody\n`);
    assert.ok('message' in problem && !('data' in problem), language);
    assert.equal(problem.message, `front matter in "${language}" cannot be read: ir-site reads YAML only`);
    assert.equal(problem.line, 1);
  }
  for (const plain of ['---\ntitle: x\n---\nBody\n', '---yaml\ntitle: x\n---\nBody\n', '---yml\ntitle: x\n---\nBody\n']) {
    const parsed = readFrontMatter(plain);
    assert.ok(!('message' in parsed) && parsed.data.title === 'x', plain);
  }
});

test('values the HTML and the record would carry differently: -0 is 0, a lone surrogate is U+FFFD', () => {
  const parsed = readFrontMatter('---\ntitle: "Press \\ud800 one"\nweight: -0\nlist: [-0.0, "\\udfff"]\n---\nBody\n');
  assert.ok(!('message' in parsed));
  const data = parsed.data as { title: string; weight: number; list: [number, string] };
  assert.equal(data.title, 'Press \ufffd one');
  assert.ok(Object.is(data.weight, 0));
  assert.ok(Object.is(data.list[0], 0));
  assert.equal(data.list[1], '\ufffd');
  // What the record's JSON carries is what the HTML shows.
  assert.equal(JSON.parse(JSON.stringify(data.title)), data.title);
});

test('a YAML alias inside the node its anchor names is an error, not a value without end; an alias used twice elsewhere is fine', () => {
  for (const text of ['---\ntags: &t [one, *t]\n---\nBody\n', '---\na: &x\n  b: *x\n---\nBody\n']) {
    const problem = readFrontMatter(text);
    assert.ok('message' in problem && !('data' in problem), text);
    assert.match(problem.message, /a YAML alias \(\*name\) is used inside the node its anchor \(&name\) names/);
  }
  const shared = readFrontMatter('---\nbase: &b { t: 1 }\nx: *b\ny: *b\n---\nBody\n');
  assert.ok(!('message' in shared));
  assert.deepEqual(shared.data.y, { t: 1 });
});
