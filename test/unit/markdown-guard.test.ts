// The Markdown component renders only what the build's sanitiser allows, whatever a page
// record holds: a record is data that reaches the browser over the network (or from a cache),
// so a hand-made tree must never carry script into the page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultSchema } from 'rehype-sanitize';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { isSafeUrl, MARKDOWN_TAGS } from '../../src/shared/markdown-guard.js';
import type { MarkdownNode, MarkdownTree } from '../../src/shared/types.js';
import { Markdown } from '../../templates/components/Markdown.js';

const render = (children: unknown[]) =>
  renderToString(createElement(Markdown, { tree: { type: 'root', children } as unknown as MarkdownTree, strings: {} }));

test('the tags it renders are exactly the sanitiser schema\'s', () => {
  assert.deepEqual([...MARKDOWN_TAGS].sort(), [...(defaultSchema.tagNames ?? [])].sort());
});

const HOSTILE: Array<[string, unknown]> = [
  ['dangerouslySetInnerHTML', ['div', { dangerouslySetInnerHTML: { __html: '<img src=x onerror=alert(1)>' } }]],
  ['children prop', ['div', { children: { dangerouslySetInnerHTML: { __html: '<b>x</b>' } } }]],
  ['iframe srcDoc', ['iframe', { srcDoc: '<script>alert(1)</script>' }, 'fallback']],
  ['srcDoc on an allowed tag', ['div', { srcDoc: '<script>alert(1)</script>' }]],
  ['event handler', ['img', { src: '/x.png', onError: 'alert(1)', onerror: 'alert(1)', alt: 'x' }]],
  ['javascript: href', ['a', { href: 'javascript:alert(1)' }, 'x']],
  ['javascript: with a tab and upper case', ['a', { href: 'JaVa\tScRiPt:alert(1)' }, 'x']],
  ['leading control characters', ['a', { href: '\u0001\u0002 javascript:alert(1)' }, 'x']],
  ['vbscript: src', ['img', { src: 'vbscript:msgbox(1)', alt: '' }]],
  ['data:text/html href', ['a', { href: 'data:text/html,<script>alert(1)</script>' }, 'x']],
  ['data:image/svg+xml src', ['img', { src: 'data:image/svg+xml,<svg onload=alert(1)>', alt: '' }]],
  ['srcset with a script URL', ['source', { srcSet: '/a.webp 1x, javascript:alert(1) 2x' }]],
  ['script element', ['script', null, 'alert(1)']],
  ['style element', ['style', null, 'body{background:url(javascript:alert(1))}']],
  ['object data', ['object', { data: 'javascript:alert(1)' }]],
  ['svg onload', ['svg', { onLoad: 'alert(1)' }, ['script', null, 'alert(1)']]],
  ['formAction', ['button', { formAction: 'javascript:alert(1)' }, 'x']],
  ['style string', ['p', { style: 'background:url(javascript:alert(1))' }, 'x']],
  ['an image record with a script URL', ['img', { image: { layout: 'fixed', width: 1, height: 1, placeholder: { fallback: 'javascript:alert(1)' }, images: { fallback: { src: 'javascript:alert(1)', srcSet: '', sizes: '' }, sources: [] } }, alt: '' }]],
  ['a number as a node', 42],
  ['an object as a node', { tag: 'script' }],
  ['a tag that is not a string', [{ toString: () => 'script' }, null, 'x']],
];

for (const [name, node] of HOSTILE) {
  test(`hostile tree: ${name}`, () => {
    const html = render([node, 'after']);
    assert.doesNotMatch(html, /<script|<iframe|<object|<style|<svg|srcdoc|\son[a-z]+=|javascript:|vbscript:|data:text|data:image\/svg|formaction/i, html);
    assert.match(html, /after/);
  });
}

test('what the build writes still renders: links, images, aligned cells, task lists, footnotes', () => {
  const tree: MarkdownNode[] = [
    ['p', null, ['a', { href: 'https://example.com/a?b=1' }, 'external'], ' ', ['a', { href: '/article/x/#net' }, 'internal'], ' ', ['a', { href: 'mailto:ir@example.com' }, 'mail']],
    ['table', null, ['tbody', null, ['tr', null, ['td', { style: { textAlign: 'right' } }, '4.8']]]],
    ['ul', { className: ['contains-task-list'].join(' ') }, ['li', null, ['input', { type: 'checkbox', checked: true, disabled: true }], ' done']],
    ['sup', null, ['a', { href: '#user-content-fn-1', id: 'user-content-fnref-1', 'data-footnote-ref': true, 'aria-describedby': 'user-content-footnote-label' }, '1']],
    ['img', { src: 'https://example.com/x.png', alt: 'chart' }],
  ];
  const html = render(tree);
  for (const part of ['href="https://example.com/a?b=1"', 'href="/article/x/#net"', 'href="mailto:ir@example.com"', 'text-align:right', 'type="checkbox"', 'checked=""', 'aria-describedby="user-content-footnote-label"', 'src="https://example.com/x.png"', 'alt="chart"']) {
    assert.ok(html.includes(part), `${part} in ${html}`);
  }
});

test('isSafeUrl: relative and the usual schemes pass, script schemes do not', () => {
  for (const url of ['/a/', 'a.pdf', '#x', '?q=1', 'https://x.example/', 'http://x.example', 'mailto:a@b.c', 'tel:+15550100']) assert.ok(isSafeUrl(url), url);
  for (const url of ['javascript:x', ' javascript:x', 'java\nscript:x', 'JAVASCRIPT:x', 'vbscript:x', 'data:text/html,x', 'file:///etc/passwd', 'blob:x']) assert.ok(!isSafeUrl(url), url);
  assert.ok(isSafeUrl('data:image/webp;base64,AAAA', { image: true }));
  assert.ok(!isSafeUrl('data:image/svg+xml;base64,AAAA', { image: true }));
});
