// Ids and names from content never collide with the page's own: raw HTML ids and names get
// the user-content- prefix (links within the body follow them), footnotes stay linked, and
// heading slugs skip every reserved id. The templates' ids are all on the reserved list.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Element, Root } from 'hast';
import { MarkdownCompiler } from '../../src/features/markdown/index.js';
import { CONTENT_ID_PREFIX, RESERVED_IDS } from '../../src/shared/dom-ids.js';
import { REPO } from '../helpers.js';

const compiler = new MarkdownCompiler();
const markdownToHast = (md: string, locale: string) => compiler.toHast(md, locale);

function elements(tree: Root): Element[] {
  const out: Element[] = [];
  const walk = (nodes: Root['children']) => {
    for (const node of nodes) {
      if (node.type !== 'element') continue;
      out.push(node);
      walk(node.children);
    }
  };
  walk(tree.children);
  return out;
}

const ids = (tree: Root) => elements(tree).flatMap((e) => (e.properties.id === undefined ? [] : [String(e.properties.id)]));

test('ids and names written in raw HTML get the prefix; a link in the body to one follows it', async () => {
  const tree = await markdownToHast(
    [
      '<div id="__IR_PAGE_DATA__">{"path":"/x/"}</div>',
      '',
      '<a id="gatsby-announcer" name="getElementById">x</a>',
      '',
      'See <a href="#gatsby-announcer">to the anchor</a> and [markdown link](#gatsby-announcer) and [a heading](#notes).',
      '',
      '## Notes',
    ].join('\n'),
    'en',
  );
  const all = elements(tree);
  assert.deepEqual(ids(tree).filter((id) => id !== 'notes').sort(), [`${CONTENT_ID_PREFIX}__IR_PAGE_DATA__`, `${CONTENT_ID_PREFIX}gatsby-announcer`]);
  assert.deepEqual(
    all.flatMap((e) => (e.properties.name === undefined ? [] : [e.properties.name])),
    [`${CONTENT_ID_PREFIX}getElementById`],
  );
  const hrefs = all.filter((e) => e.tagName === 'a' && e.properties.href).map((e) => e.properties.href);
  assert.deepEqual(hrefs, [`#${CONTENT_ID_PREFIX}gatsby-announcer`, `#${CONTENT_ID_PREFIX}gatsby-announcer`, '#notes']);
  for (const id of ids(tree)) assert.ok(!RESERVED_IDS.includes(id), `${id} is reserved`);
});

test('footnotes: every reference still reaches its note and back, and the label its describers', async () => {
  const tree = await markdownToHast('Text[^a] and more[^b].\n\n[^a]: One.\n[^b]: Two.\n', 'en');
  const all = elements(tree);
  const idSet = new Set(ids(tree));
  for (const e of all) {
    const href = e.properties.href;
    if (typeof href === 'string' && href.startsWith('#')) assert.ok(idSet.has(href.slice(1)), `${href} has a target`);
    const described = e.properties.ariaDescribedBy;
    if (Array.isArray(described)) for (const id of described) assert.ok(idSet.has(String(id)), `aria-describedby ${id} has a target`);
  }
  for (const id of idSet) assert.ok(id.startsWith(CONTENT_ID_PREFIX), `${id} carries the prefix`);
});

test('heading slugs skip every reserved id, and headings without a collision keep their plain slug', async () => {
  const headings = RESERVED_IDS.map((id) => `## ${id.replace(/-/g, ' ')}`).join('\n\n');
  const tree = await markdownToHast(`${headings}\n\n## Net asset value\n\n## Net asset value\n`, 'en');
  const headingIds = elements(tree)
    .filter((e) => /^h\d$/.test(e.tagName))
    .map((e) => String(e.properties.id));
  for (const id of headingIds) assert.ok(!RESERVED_IDS.includes(id), `heading id ${id} is reserved`);
  assert.deepEqual(headingIds.slice(-2), ['net-asset-value', 'net-asset-value-1']);
  assert.ok(headingIds.includes('main-content-1'));
});

test('every fixed id in the templates is reserved; ids made from data hold a ":" (never in a slug)', async () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (/\.tsx?$/.test(entry.name)) files.push(abs);
    }
  };
  walk(path.join(REPO, 'templates'));
  const literal: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:id|errorId)(?:=|:\s*)["'`]([^"'`]+)["'`]/g)) literal.push(m[1]!);
    for (const m of text.matchAll(/\bid=\{([^}]+)\}/g)) {
      assert.match(m[1]!, /^(id|headingId|captionId|errorId)$/, `${path.relative(REPO, file)}: id={${m[1]}} must be a reserved literal or made by seriesId()`);
    }
  }
  assert.ok(literal.length >= 10, 'the scan finds the templates\' ids');
  for (const id of literal) assert.ok(RESERVED_IDS.includes(id), `template id "${id}" is not in RESERVED_IDS (src/shared/dom-ids.ts)`);
});

test("a heading never takes an id the body already gives (a footnote's, raw HTML's)", async () => {
  const md = '## user-content-fn-1\n\n## user-content-x\n\nText[^1] and <span id="x">x</span>.\n\n[^1]: A note.\n';
  const tree = await markdownToHast(md, 'en');
  const all = ids(tree);
  assert.equal(new Set(all).size, all.length, `duplicate ids: ${all.join(' ')}`);
  assert.ok(all.includes('user-content-fn-1') && all.includes('user-content-x'));
  const headingIds = elements(tree).filter((e) => /^h\d$/.test(e.tagName)).map((e) => String(e.properties.id));
  assert.deepEqual(headingIds.slice(0, 2), ['user-content-fn-1-1', 'user-content-x-1']);
});
