// The per-body choice of GFM constructs (src/markdown/gfm-parts.ts) must never change a
// tree: every body here parses to exactly what remark-gfm gives, positions included.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fg from 'fast-glob';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { ALL_GFM_PARTS, gfmPartsIn, remarkGfmParts } from '../../src/markdown/gfm-parts.js';

const reference = unified().use(remarkParse).use(remarkGfm).freeze();
const parts = (mask: number) => unified().use(remarkParse).use(remarkGfmParts, mask).freeze();

const TRICKY = [
  'Write to ir@example.com or visit www.example.com and https://example.com/a_b?c=d.',
  'Emails inside words: foo.bar+baz@sub.example.org, not a@b, and mailto:x@y.z and xmpp:me@host.example.',
  'WWW.EXAMPLE.COM and HTTP://EXAMPLE.COM in capitals; www without dot; http without colon.',
  '| a | b |\n|---|--:|\n| 1 | 2 |\n\nText | with a pipe but no table.',
  'a | b\n--|--\n1 | 2',
  'Note[^1] and [^missing].\n\n[^1]: The note, with ~~struck~~ text.',
  '~one~ and ~~two~~ and ~~~three~~~ and a lone ~ tilde.',
  '- [ ] open\n- [x] done\n- [link](/x) and [ref][r]\n\n[r]: /y',
  '* [X] capital\n1. [ ] ordered',
  '<div>raw <b>html</b> with @handle</div>\n\n`code with | pipe` and `~tilde~`',
  '```\nfenced | code @ www http ~ [^1]\n```',
  'Plain paragraph with nothing special, accents é à ç, and numbers 1.5%.',
  '> quote with www.example.com\n>\n> | not | a table in quote? |\n> |---|---|\n> | x | y |',
  '',
];

function bodies(): string[] {
  // Front matter is cut off by hand: some fixtures hold broken YAML on purpose.
  const files = fg.sync(['content/**/*.md', 'test/fixtures/**/*.md'], { absolute: true });
  return [...TRICKY, ...files.map((file) => readFileSync(file, 'utf8').replace(/^---\n[\s\S]*?\n---\n/, ''))];
}

test('each body parses to the tree remark-gfm gives, with only the constructs it could hold', () => {
  const all = bodies();
  assert.ok(all.length > 50, `expected the demo and fixture bodies, found ${all.length}`);
  for (const body of all) {
    assert.deepEqual(parts(gfmPartsIn(body)).parse(body), reference.parse(body), `body:\n${body.slice(0, 300)}`);
  }
});

test('every construct switched on is remark-gfm', () => {
  for (const body of TRICKY) assert.deepEqual(parts(ALL_GFM_PARTS).parse(body), reference.parse(body));
});

test('a body without the starting characters skips the costly constructs', () => {
  assert.equal(gfmPartsIn('Plain words only.'), 0);
  assert.notEqual(gfmPartsIn('mail ir@example.com') & 1, 0);
  assert.notEqual(gfmPartsIn('| a |') & (1 << 3), 0);
  // Dropping a construct a body needs would change the tree: the test above would catch it.
  const body = 'Visit www.example.com.';
  assert.notDeepEqual(parts(0).parse(body), reference.parse(body));
});
