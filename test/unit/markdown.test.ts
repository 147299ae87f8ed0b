import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toHtml } from 'hast-util-to-html';
import { MarkdownCompiler } from '../../src/features/markdown/index.js';
import { toReactTree } from '../../src/features/markdown/to-react-tree.js';

const compiler = new MarkdownCompiler();
const markdownToHast = (md: string, locale: string) => compiler.toHast(md, locale);
const markdownToTree = async (md: string, locale: string) => toReactTree(await compiler.toHast(md, locale)).tree;
const html = async (md: string, locale = 'en') => toHtml(await markdownToHast(md, locale));

test('GFM tables for financial figures', async () => {
  const out = await html('| Period | Return |\n|---|--:|\n| Q2 | 5.1% |\n');
  assert.match(out, /<table>/);
  assert.match(out, /<td align="right">5.1%<\/td>/);
});

test('headings get stable GitHub-style ids, and in-page anchors keep working', async () => {
  const out = await html('## Net asset value\n\nSee [the table](#net-asset-value).\n\n## Net asset value\n');
  assert.match(out, /<h2 id="net-asset-value">/);
  assert.match(out, /<h2 id="net-asset-value-1">/);
  assert.match(out, /href="#net-asset-value"/);
});

test('a body with # headings is demoted so the page title stays the only h1', async () => {
  const out = await html('# Top\n\n## Sub\n\n### Deep\n');
  assert.doesNotMatch(out, /<h1/);
  assert.match(out, /<h2 id="top">/);
  assert.match(out, /<h3 id="sub">/);
  assert.match(out, /<h4 id="deep">/);
});

test('raw HTML is sanitised: no script, no event handlers, no javascript: URLs', async () => {
  const out = await html('<script>alert(1)</script>\n\n<a href="javascript:alert(1)">x</a> <img src="a.png" onerror="alert(1)"> <b>ok</b>\n\n<iframe src="https://evil.example"></iframe>\n');
  assert.doesNotMatch(out, /<script|alert\(1\)|onerror|javascript:|<iframe/i);
  assert.match(out, /<b>ok<\/b>/);
});

test('footnote references and their targets match, with French labels on French pages', async () => {
  const out = await html('Texte[^1].\n\n[^1]: Une note.\n', 'fr');
  const ref = /href="#([^"]+)"[^>]*data-footnote-ref/.exec(out)?.[1];
  assert.ok(ref);
  assert.match(out, new RegExp(`<li id="${ref}">`));
  assert.match(out, /Retour à l’appel de note 1/);
});

test('pages carry the body as React-ready JSON: React prop names, cell alignment as style, no table whitespace', async () => {
  const tree = await markdownToTree('## A b\n\n| x | y |\n|---|--:|\n| 1 | 2 |\n\nSee[^1].\n\n[^1]: Note.\n', 'en');
  const json = JSON.stringify(tree);
  assert.deepEqual(tree.children[0], ['h2', { id: 'a-b' }, 'A b']);
  assert.match(json, /\["th",\{"style":\{"textAlign":"right"\}\},"y"\]/);
  assert.match(json, /"aria-describedby":"footnote-label"|"aria-describedby":"user-content-footnote-label"/);
  assert.match(json, /"data-footnote-ref":true/);
  assert.match(json, /"className":"footnotes"/);
  const table = tree.children.find((c) => Array.isArray(c) && c[0] === 'table') as unknown[];
  assert.ok(table.slice(2).every((c) => typeof c !== 'string'), 'no whitespace text directly in a table');
  assert.doesNotMatch(json, /position/);
});

test('tel: links are kept (phone numbers on an investor site); script schemes are not', async () => {
  const html = toHtml(await markdownToHast('Call [+1 555 0100](tel:+15550100), or [not this](javascript:alert(1)).', 'en'));
  assert.match(html, /<a href="tel:\+15550100">\+1 555 0100<\/a>/);
  assert.doesNotMatch(html, /javascript/);
});
