// The plugin seam: `markdown: { remarkPlugins, rehypePlugins }` in site.config.ts applies to
// every body in build (this thread and the render threads), dev and check. The fixture uses a
// real plugin from npm (rehype-external-links) and a site's own (plugins/remark-expand.ts).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { check } from '../../src/commands/check/index.js';
import { dev, type RunningDev } from '../../src/commands/server/dev.js';
import { buildToMemory, fixture } from '../helpers.js';

const root = fixture('markdown-plugins');
const PAGE = 'article/press-one/index.html';

function assertPluginsApplied(html: string, where: string): void {
  // The site's remark plugin: the abbreviation became a link to the glossary.
  assert.match(html, /<a href="\/glossary\/navps\/">net asset value per share<\/a> rose/, `${where}: remark plugin`);
  // The npm rehype plugin, with its options: external links only.
  assert.match(html, /<a href="https:\/\/www\.sedarplus\.ca\/" rel="nofollow noopener" target="_blank">the filing<\/a>/, `${where}: rehype plugin`);
  assert.match(html, /<a href="\/insights\/">our page<\/a>/, `${where}: internal links untouched`);
}

test('build: the plugins apply on the main thread and on render threads, with the same bytes', async () => {
  const single = await buildToMemory(root, { cache: false, workers: 0 });
  assertPluginsApplied(single.out.text(PAGE), 'main thread');
  const threaded = await buildToMemory(root, { cache: false, workers: 2 });
  assert.equal(threaded.result.render.workers, 2);
  assertPluginsApplied(threaded.out.text(PAGE), 'render threads');
  for (const [file, data] of single.out.files) assert.ok(threaded.out.files.get(file)?.equals(data), `${file} differs between threads and main thread`);
});

test('check: it sees what the plugins made (the link the remark plugin added goes nowhere)', async () => {
  const result = await check({ root });
  const broken = result.diagnostics.filter((f) => f.rule === 'links/broken' && f.message.includes('/glossary/navps/'));
  assert.ok(broken.length > 0, JSON.stringify(result.diagnostics.map((f) => [f.rule, f.message])));
});

let running: RunningDev | undefined;
after(() => running?.close());

test('dev: the plugins apply to the pages it serves', async () => {
  running = await dev({ root, port: 0 });
  await running.ready;
  const html = await (await fetch(`${running.url}/article/press-one/`)).text();
  assertPluginsApplied(html, 'dev');
});
