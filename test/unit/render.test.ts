// Stage 4 alone: a registry of recording templates shows exactly which props each page gets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createElement } from 'react';
import { loadConfig } from '../../src/build/config/load.js';
import { loadContent } from '../../src/build/content/load.js';
import { validateContent } from '../../src/build/content/validate.js';
import { buildGraph } from '../../src/build/graph/index.js';
import { createRenderContext, renderRoute, TemplateError, type TemplateRegistry } from '../../src/build/render/index.js';
import { jsonForScript } from '../../src/shared/escape.js';
import type { TemplateProps } from '../../src/shared/types.js';
import { fixture } from '../helpers.js';

const config = await loadConfig({ root: fixture('minimal') });
const { site } = validateContent((await loadContent(config)).raw, config);
const graph = buildGraph(site, config, { includeDrafts: false });

const seen: TemplateProps[] = [];
const recorder = (props: TemplateProps) => {
  seen.push(props);
  return createElement('main', null, createElement('h1', null, props.pageData.title));
};
const registry = new Proxy({} as TemplateRegistry, { get: () => recorder });
const ctx = createRenderContext(graph, registry, { stylesheet: '/static/s.css', client: null, buildHash: 'test' }, config.markdown, config.root);

test('every template receives the SPEC props', async () => {
  for (const route of graph.routes) await renderRoute(route, ctx);
  assert.equal(seen.length, graph.routes.length);
  for (const props of seen) {
    for (const key of ['site', 'pageContext', 'pageData', 'location', 'portfolio', 'performanceApprovalDate', 'asAtDate', 'allPortfolioSeries']) {
      assert.ok(key in props, `${props.location.pathname} lacks ${key}`);
    }
    assert.equal(props.performanceApprovalDate, '2025-10-15');
    assert.equal(props.asAtDate, '2025-09-30');
    assert.equal(props.site.identity, 'second');
    assert.deepEqual(props.allPortfolioSeries, [{ key: 'core', title: props.pageContext.locale === 'fr' ? 'Noyau' : 'Core', order: 1 }]);
    assert.ok(Object.keys(props.strings).length > 0);
  }
});

test('portfolio holds the composed series on the portfolio-template page only', () => {
  const others = seen.filter((p) => p.pageData.template !== 'portfolio');
  assert.ok(others.every((p) => p.portfolio === null));
});

test('the body arrives as a hast tree, not HTML', () => {
  const article = seen.find((p) => p.location.pathname === '/article/commentary-Q2-2025/')!;
  assert.equal(article.pageData.body?.type, 'root');
});

test('a template that throws names the page', async () => {
  const broken = createRenderContext(graph, new Proxy({} as TemplateRegistry, { get: () => () => { throw new Error('boom'); } }), { stylesheet: null, client: null, buildHash: 'test' }, config.markdown, config.root);
  await assert.rejects(renderRoute(graph.routes[0]!, broken), (e: unknown) => e instanceof TemplateError && /failed on \//.test(e.message) && /boom/.test(e.message));
});

test('inline JSON cannot close its script element', () => {
  assert.equal(jsonForScript({ a: '</script><script>alert(1)</script>' }), '{"a":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}');
});
