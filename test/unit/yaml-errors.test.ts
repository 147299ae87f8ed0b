// YAML errors in an editor's words, at the line that is wrong: each common mistake in
// several shapes (front matter, a .yaml data file, nested fields, list items).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseYamlText, readFrontMatter } from '../../src/build/content/frontmatter.js';
import { explainYamlError, type YamlProblem } from '../../src/build/content/yaml-errors.js';

function explain(text: string): YamlProblem {
  try {
    parseYamlText(text);
  } catch (error) {
    const problem = explainYamlError(text, error);
    assert.ok(problem, 'no explanation');
    return problem;
  }
  assert.fail(`expected ${JSON.stringify(text)} not to parse`);
}

/** The parser's own phrases never reach the editor. */
const PARSER_WORDS = /compact mappings|implicit map key|must start at the same column|without - indicator|Missing closing/;

function expectProblem(text: string, want: { line: number; column?: number; message: RegExp; hint: RegExp }) {
  const p = explain(text);
  assert.equal(p.line, want.line, `line for ${JSON.stringify(text)}: ${JSON.stringify(p)}`);
  if (want.column !== undefined) assert.equal(p.column, want.column, `column for ${JSON.stringify(text)}: ${JSON.stringify(p)}`);
  assert.match(p.message, want.message);
  assert.doesNotMatch(p.message, PARSER_WORDS);
  assert.match(p.hint ?? '', want.hint);
}

test('an unquoted colon in a value: the field, the colon, and the quoted value to write', () => {
  expectProblem('title: Q2: a good quarter\ndate: 2025-06-30\n', { line: 1, column: 10, message: /value of "title" has a colon/, hint: /title: "Q2: a good quarter"/ });
  expectProblem('date: 2025-06-30\ndescription: Note: rates fell\n', { line: 2, column: 18, message: /value of "description"/, hint: /description: "Note: rates fell"/ });
  expectProblem('title:\n  en: Outlook: cautious\n  fr: x\n', { line: 2, message: /value of "en"/, hint: /en: "Outlook: cautious"/ });
  expectProblem('holdings:\n  - company: Acme: Holdings\n', { line: 2, message: /value of "company"/, hint: /"Acme: Holdings"/ });
  expectProblem('title: A "quoted": thing\n', { line: 1, message: /colon/, hint: /"A \\"quoted\\": thing"/ });
});

test('a tab used for indentation, wherever it is', () => {
  expectProblem('title: x\nsections:\n\t- insights\n', { line: 3, column: 1, message: /indented with a tab/, hint: /spaces/ });
  expectProblem('video:\n\tprovider: youtube\n', { line: 2, column: 1, message: /tab/, hint: /spaces/ });
  expectProblem('video:\n  \tprovider: youtube\n', { line: 2, column: 3, message: /tab/, hint: /spaces/ });
});

test('a field indented too far is reported on its own line, not the line above', () => {
  // The portfolio case of the issue: the parser blames line 3 ("en"), the mistake is line 4.
  expectProblem('# comment\ntitle:\n  en: Global Equity\n   fr: Actions mondiales\norder: 1\n', { line: 4, column: 4, message: /"fr" is indented further/, hint: /2 spaces before "fr:"/ });
  expectProblem('title:\n  en: Global Equity\n    fr: Actions mondiales\n', { line: 3, message: /"fr" is indented further/, hint: /2 spaces/ });
  expectProblem('holdings:\n  - name: A\n    weight: 1\n  - name: B\n     weight: 2\n', { line: 5, column: 6, message: /"weight" is indented further/, hint: /4 spaces/ });
});

test('a field indented too little', () => {
  expectProblem('title:\n  en: Global Equity\n fr: Actions mondiales\n', { line: 3, column: 2, message: /not lined up/, hint: /2 spaces/ });
  expectProblem('holdings:\n  - company: A\n    weight: 4.8\n  - company: B\n   weight: 4.5\n', { line: 5, column: 4, message: /not lined up with the fields of the list item/, hint: /4 spaces/ });
});

test('a list item at the wrong depth', () => {
  expectProblem('order: 1\nholdings:\n  - { company: A }\n   - { company: B }\n', { line: 4, column: 4, message: /list item is at the wrong depth.*line 3 after 2/, hint: /after 2 spaces/ });
  expectProblem('order: 1\nholdings:\n  - { company: A }\n - { company: B }\n', { line: 4, column: 2, message: /wrong depth/, hint: /after 2 spaces/ });
  expectProblem('order: 1\nholdings:\n  - { company: A }\n    - { company: B }\n', { line: 4, column: 5, message: /wrong depth/, hint: /after 2 spaces/ });
  expectProblem('holdings:\n- name: A\n  weight: 1\n  - name: B\n', { line: 4, message: /wrong depth/, hint: /after 0 spaces/ });
});

test('an unclosed quote is reported where it opens', () => {
  expectProblem('title: "Quarterly\ndate: 2025-06-30\n', { line: 1, column: 8, message: /double quote .* never closed/, hint: /\\"/ });
  expectProblem("title: 'Quarterly\ndate: 2025-06-30\n", { line: 1, column: 8, message: /single quote .* never closed/, hint: /''/ });
  expectProblem('date: 2025-06-30\ntitle: "Quarterly\nslug: q\n', { line: 2, message: /never closed/, hint: /"/ });
  expectProblem('title: "He said \\"hi\\"\ndate: 2025-06-30\n', { line: 1, message: /never closed/, hint: /"/ });
});

test('an unclosed bracket, and a field written twice', () => {
  expectProblem('sections: [a, b\ndate: 2025-01-01\n', { line: 1, column: 11, message: /\[ that opens this list is never closed/, hint: /\]/ });
  expectProblem('video: { provider: youtube, id: x\ndate: 2025-01-01\n', { line: 1, message: /\{ .* never closed/, hint: /\}/ });
  expectProblem('title: a\ndate: x\ntitle: b\n', { line: 3, message: /"title" is written twice \(first on line 1\)/, hint: /keep one/ });
  // The first of the two as the parser found it, not a line that merely looks alike.
  expectProblem('date: 1\nx:\n  at: 1\n  at: 2\n', { line: 4, message: /"at" is written twice \(first on line 3\)/, hint: /keep one/ });
  expectProblem('identities:\n  first:\n    displayName: a\n  second:\n    displayName: b\n    displayName: c\n', { line: 6, message: /"displayName" is written twice \(first on line 5\)/, hint: /keep one/ });
  expectProblem('- from: /a/\n  to: /b/\n  to: /c/\n', { line: 3, message: /"to" is written twice \(first on line 2\)/, hint: /keep one/ });
});

test('in front matter, the line and column are file lines, and the field is named', () => {
  const fm = readFrontMatter('---\ntitle: Q2: a good quarter\ndate: 2025-06-30\n---\nBody\n');
  assert.ok('message' in fm);
  assert.equal(fm.line, 2);
  assert.equal(fm.column, 10);
  assert.equal(fm.field, 'title');
  assert.match(fm.hint ?? '', /title: "Q2: a good quarter"/);
  const indented = readFrontMatter('---\ntitle: A\nvideo:\n  provider: youtube\n   id: abc\n---\n');
  assert.ok('message' in indented);
  assert.equal(indented.line, 5);
  assert.equal(indented.field, 'video');
  // A tab before a field of its own is labelled with that field, not the one above it.
  const tabbed = readFrontMatter('---\ntitle: A\ndate: 2025-07-15\n\ttype: commentary\nquarter: Q2-2025\n---\n');
  assert.ok('message' in tabbed);
  assert.deepEqual([tabbed.line, tabbed.column, tabbed.field], [4, 1, 'type']);
  assert.match(tabbed.message, /tab/);
  const first = readFrontMatter('---\n\ttitle: A\ndate: 2025-07-15\n---\n');
  assert.ok('message' in first);
  assert.deepEqual([first.line, first.field], [2, 'title']);
  // Under a field with no value of its own, the tabbed line is inside that field.
  const nested = readFrontMatter('---\ntitle: A\nvideo:\n\tprovider: youtube\n---\n');
  assert.ok('message' in nested);
  assert.deepEqual([nested.line, nested.field], [4, 'video']);
});

test('a tag YAML does not know (!!js/function) is an error at its line, in front matter and in a data file, and nothing is printed', async () => {
  const printed: unknown[] = [];
  const onWarning = (warning: unknown) => printed.push(warning);
  process.on('warning', onWarning);
  try {
    const fm = readFrontMatter("---\ndate: 2025-06-30\ntitle: !!js/function 'function () { return 1 }'\n---\nBody\n");
    assert.ok('message' in fm, 'the tagged front matter was accepted');
    assert.equal(fm.line, 3);
    assert.equal(fm.field, 'title');
    assert.match(fm.message, /tag/);
    assert.match(fm.hint ?? '', /remove the tag/);
    assert.throws(() => parseYamlText('- name: a\n  run: !custom x\n'), (error: unknown) => explainYamlError('- name: a\n  run: !custom x\n', error)?.line === 2);
    // The core schema's own tags are still read.
    assert.deepEqual(parseYamlText('a: !!str 12\nb: !!int "3"\n').data, { a: '12', b: 3 });
    // A warning about style (the value as written) is neither an error nor printed.
    assert.deepEqual(parseYamlText('a: &x: 1\n').data, { a: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(printed, []);
  } finally {
    process.off('warning', onWarning);
  }
});
