// The markdown-it fast path (src/markdown/markdown-it-hast.ts) must give exactly the page
// tree unified gives, or decline the body. Held to unified on every CommonMark spec example,
// GFM cases, the demo and fixture bodies, and seeded mixes of all of those (a mix is where
// one construct's laziness or definitions leak into the next).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import fg from 'fast-glob';
import { seededRandom } from '../seeded-random.js';
import { loadReferenceParser, markdownToTree, ReferenceParserNeeded, unifiedMarkdownToHast } from '../../src/markdown/index.js';
import { markdownItHast } from '../../src/markdown/markdown-it-hast.js';
import { toReactTree } from '../../src/markdown/to-react-tree.js';
import { GFM_CASES } from './markdown/gfm-cases.js';

test('a body the fast path declines asks for the reference parser until it is loaded', async () => {
  // Runs first: nothing has loaded the reference parser yet in this process.
  assert.deepEqual(markdownToTree('## Fast\n\nPlain *text*.', 'en').children.length, 3);
  assert.throws(() => markdownToTree('<b>raw</b>', 'en'), ReferenceParserNeeded);
  await loadReferenceParser();
  assert.equal(JSON.stringify(markdownToTree('<b>raw</b>', 'en')), JSON.stringify({ type: 'root', children: [['p', null, ['b', null, 'raw']]] }));
});

const spec = (createRequire(import.meta.url)('commonmark-spec') as { tests: Array<{ markdown: string; number: number }> }).tests;
const LABELS = { label: 'Notes', backLabel: () => 'back' };
const accepted = (markdown: string) => markdownItHast(markdown, LABELS) !== undefined;

function sameAsUnified(markdown: string, locale: string, name: string): void {
  const fast = JSON.stringify(markdownToTree(markdown, locale));
  const reference = JSON.stringify(toReactTree(unifiedMarkdownToHast(markdown, locale)));
  assert.equal(fast, reference, `${name}:\n${JSON.stringify(markdown)}`);
}

function demoBodies(): Array<[string, string]> {
  // Front matter is cut off by hand: some fixtures hold broken YAML on purpose.
  return fg.sync(['content/**/*.md', 'test/fixtures/**/*.md']).map((file) => [file, readFileSync(file, 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '')]);
}

test('every CommonMark spec example: the same tree as unified, or declined', () => {
  let taken = 0;
  for (const example of spec) {
    if (accepted(example.markdown)) taken++;
    sameAsUnified(example.markdown, 'en', `spec example ${example.number}`);
  }
  // The fast path must carry real weight, not decline its way to a pass.
  assert.ok(taken > spec.length / 2, `only ${taken} of ${spec.length} spec examples took the fast path`);
});

test('GFM cases, in both languages (footnote labels differ)', () => {
  let taken = 0;
  GFM_CASES.forEach((markdown, i) => {
    if (accepted(markdown)) taken++;
    for (const locale of ['en', 'fr']) sameAsUnified(markdown, locale, `GFM case ${i}`);
  });
  assert.ok(taken > GFM_CASES.length / 2, `only ${taken} of ${GFM_CASES.length} GFM cases took the fast path`);
});

test('demo and fixture bodies: the same trees, and nearly all take the fast path', () => {
  const bodies = demoBodies();
  assert.ok(bodies.length > 100, `expected the demo and fixture bodies, found ${bodies.length}`);
  const declined = bodies.filter(([, body]) => !accepted(body)).map(([file]) => file);
  for (const [file, body] of bodies) sameAsUnified(body, file.endsWith('fr.md') ? 'fr' : 'en', file);
  assert.ok(declined.length <= 10, `declined:\n${declined.join('\n')}`);
});

test('seeded mixes of spec examples and GFM cases', () => {
  const pool = [...spec.map((example) => example.markdown.replace(/\n$/, '')), ...GFM_CASES];
  const separators = ['\n', '\n\n', '\n\n> ', '\n- ', '\n\n    '];
  let taken = 0;
  for (const seed of [1, 2, 3]) {
    const next = seededRandom(seed);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    for (let n = 0; n < 1500; n++) {
      const parts = Array.from({ length: 2 + Math.floor(next() * 4) }, () => pick(pool));
      const markdown = parts.join(pick(separators));
      if (accepted(markdown)) taken++;
      sameAsUnified(markdown, 'en', `mix ${n} of seed ${seed}`);
    }
  }
  assert.ok(taken > 600, `only ${taken} of 4500 mixes took the fast path`);
});

/** Editor-like bodies: the constructs articles use, in random order and nesting. */
function editorBody(next: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const inline = () =>
    Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
      pick(['Net asset value rose', '**strongly**', '*in the quarter*', '`NAV`', '[the report](/en/reports/ "Reports")', '[results][r]', '![chart](./chart.png)', 'see the note[^n1]', 'and[^n2]', 'dividends, 4.8%;', 'l’écart « actif »', '_emphasis_', '***both***']),
    ).join(' ');
  const paragraph = () => Array.from({ length: 1 + Math.floor(next() * 3) }, inline).join(pick(['\n', '  \n', '\\\n']));
  const list = (indent: string, depth: number, bullet = pick(['- ', '* ', ''])): string =>
    Array.from({ length: 1 + Math.floor(next() * 3) }, (_, i) => {
      const marker = bullet || `${i + 1}. `;
      const nested = depth < 2 && next() < 0.3 ? `\n${list(indent + ' '.repeat(marker.length), depth + 1)}` : '';
      return `${indent}${marker}${inline()}${nested}`;
    }).join(next() < 0.2 ? '\n\n' : '\n');
  const block = () =>
    pick([
      () => `${pick(['##', '###', '#'])} ${inline()}`,
      paragraph,
      paragraph,
      () => list('', 0),
      () => `| Period | ${pick(['Return', '**Return**'])} |\n|${pick(['---', ':--', ':-:'])}|--:|\n| Q1 | ${inline()} |\n| Q2 | 2.8% |`,
      () => `> ${paragraph().replace(/\n/g, '\n> ')}`,
      () => '```js\nconst value = 1;\n```',
      () => '---',
    ])();
  const body = Array.from({ length: 2 + Math.floor(next() * 8) }, block).join('\n\n');
  return `${body}\n\n[r]: /en/results/\n\n[^n1]: First note.\n[^n2]: Second note with *emphasis*.\n`;
}

test('seeded editor-like bodies: the same trees, and most take the fast path', () => {
  const next = seededRandom(7);
  let taken = 0;
  for (let n = 0; n < 1500; n++) {
    const markdown = editorBody(next);
    if (accepted(markdown)) taken++;
    sameAsUnified(markdown, n % 2 ? 'fr' : 'en', `editor body ${n}`);
  }
  assert.ok(taken > 1200, `only ${taken} of 1500 editor-like bodies took the fast path`);
});

test('bodies with constructs the two parsers read differently go to unified', () => {
  for (const markdown of [
    '<div>raw html</div>',
    'Text with <b>inline</b> html.',
    'Mail ir@example.com or visit www.example.com.',
    'Struck ~one~ and ~~two~~.',
    '- [ ] a task\n- [x] done',
    'Note[^a b].\n\n[^a b]: spaced label',
    'Note[^1].\n\n[^1]: one\n[^1]: the same label again',
    '[a](/x "")',
    '    indented code',
  ]) {
    assert.equal(accepted(markdown), false, `should decline ${JSON.stringify(markdown)}`);
    sameAsUnified(markdown, 'en', 'declined body');
  }
});

test('a typical article takes the fast path', () => {
  const article = [
    '## Overview',
    '',
    'The **fund** returned *4.8%* in [the quarter](/en/results/ "Results"), see the note[^1].',
    '',
    '| Period | Return |',
    '|---|--:|',
    '| Q1 | 4.8% |',
    '',
    '- First point',
    '- Second point with `code`',
    '',
    '1. One',
    '2. Two',
    '',
    '> A quote  ',
    '> over two lines.',
    '',
    '![A chart](./chart.png)',
    '',
    '```js',
    'const a = 1;',
    '```',
    '',
    '[^1]: The note.',
  ].join('\n');
  assert.equal(accepted(article), true);
  for (const locale of ['en', 'fr']) sameAsUnified(article, locale, 'typical article');
});
