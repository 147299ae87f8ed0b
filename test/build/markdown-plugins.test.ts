// The plugin seam: `markdown: { remarkPlugins, rehypePlugins }` in site.config.ts applies to
// every body in build (this thread and the render threads), dev and check. The fixture uses a
// real plugin from npm (rehype-external-links) and a site's own (plugins/remark-expand.ts).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { check } from '../../src/commands/check/index.js';
import { build } from '../../src/build/index.js';
import { MemorySink } from '../../src/build/emit/sink.js';
import { DiagnosticsError } from '../../src/errors/diagnostic.js';
import { dev, type RunningDev } from '../../src/commands/server/dev.js';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildFailure, buildToMemory, fixture, writableFixture } from '../helpers.js';

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
  // The npm plugin's installed version is part of the configuration's key: an upgrade renders again.
  assert.deepEqual(Object.keys(single.result.config.module.packages), ['rehype-external-links']);
  assert.match(single.result.config.module.packages['rehype-external-links']!, /^\d+\.\d+\.\d+/);
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

test('a plugin that throws on a body: an error at that body, naming the plugin and its message; when attached: one error, at site.config.ts; on render threads too', async () => {
  const site = await writableFixture('markdown-plugins', 'markdown-plugin-failure');
  try {
    await writeFile(
      path.join(site, 'plugins', 'remark-fails.ts'),
      [
        'export function remarkTripsOnWord() {',
        '  return (tree: unknown) => {',
        '    if (JSON.stringify(tree).includes("NAVPS")) throw new Error("the word NAVPS is not allowed");',
        '  };',
        '}',
        'export function remarkFailsToAttach(): never {',
        '  throw new Error("no options given");',
        '}',
        'export function remarkRejects() {',
        '  return async () => Promise.reject(new Error("a promise rejected"));',
        '}',
        'export function remarkCallsBack() {',
        '  return (_tree: unknown, _file: unknown, next: (error?: Error) => void) => setTimeout(() => next(new Error("called back with an error")));',
        '}',
        '// What a plugin knows of the body: its path in the site, the site\'s folder, its text.',
        'export function remarkSaysWhere() {',
        '  return (_tree: unknown, file: { path: string; cwd: string; value: unknown }) => {',
        '    if (String(file.value).includes("NAVPS")) throw new Error(`in ${file.path} of ${file.cwd}`);',
        '  };',
        '}',
        '',
      ].join('\n'),
    );
    const config = path.join(site, 'site.config.ts');
    const text = await readFile(config, 'utf8');
    const escaped = site.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const [plugin, message] of [
      ['remarkTripsOnWord', /^markdown\.remarkPlugins\[0\] \(remarkTripsOnWord\) failed: the word NAVPS is not allowed \(on this body\)$/],
      ['remarkFailsToAttach', /^markdown\.remarkPlugins\[0\] \(remarkFailsToAttach\) failed when attached: no options given$/],
      ['remarkRejects', /^markdown\.remarkPlugins\[0\] \(remarkRejects\) failed: a promise rejected \(on this body\)$/],
      ['remarkCallsBack', /^markdown\.remarkPlugins\[0\] \(remarkCallsBack\) failed: called back with an error \(on this body\)$/],
      ['remarkSaysWhere', new RegExp(`^markdown\\.remarkPlugins\\[0\\] \\(remarkSaysWhere\\) failed: in (content/\\S+\\.md) of ${escaped} \\(on this body\\)$`)],
    ] as const) {
      await writeFile(
        config,
        `import { ${plugin} } from './plugins/remark-fails.js';\n${text.replace('remarkPlugins: [', `remarkPlugins: [${plugin}, `)}`,
      );
      for (const workers of [0, 2]) {
        const diagnostics = await buildFailure(site, { cache: false, workers });
        const failed = diagnostics.filter((d) => d.rule === 'config/markdown-plugin');
        assert.ok(failed.length > 0, `${plugin}, ${workers} workers: ${JSON.stringify(diagnostics)}`);
        if (plugin === 'remarkFailsToAttach') {
          assert.equal(failed.length, 1, 'said once, not once per body');
          assert.equal(failed[0]!.file, 'site.config.ts');
          assert.match(failed[0]!.message, message);
          assert.match(failed[0]!.hint ?? '', /as it was attached, before any body/);
          const error = await build({ root: site, sink: new MemorySink(), cache: false, workers }).then(() => null, (e: unknown) => e);
          assert.ok(error instanceof DiagnosticsError && error.stage === 'configuration', 'the configuration failed, not a page\'s render');
          continue;
        }
        for (const d of failed) {
          assert.match(d.file, /^content\/.*\.md$/, 'the body it failed on');
          assert.ok(d.line && d.line > 1, 'at the body\'s first line');
          assert.match(d.message, message);
          assert.match(d.hint ?? '', /site\.config\.ts/);
          if (plugin === 'remarkSaysWhere') assert.equal(message.exec(d.message)?.[1], d.file, 'the plugin sees the body\'s path in the site');
        }
      }
    }
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});

test('dev: an edit to a plugin of the site\'s own (a file bundled into the configuration) rebuilds every page with it', async () => {
  const site = await writableFixture('markdown-plugins', 'markdown-plugin-dev');
  const watching = await dev({ root: site, port: 0 });
  try {
    await watching.ready;
    const page = () => fetch(`${watching.url}/article/press-one/`).then((r) => r.text());
    assert.match(await page(), />net asset value per share<\/a>/);
    const plugin = path.join(site, 'plugins', 'remark-expand.ts');
    const source = await readFile(plugin, 'utf8');
    assert.ok(source.includes("value: options.meaning }"), 'the fixture plugin as this test expects it');
    await writeFile(plugin, source.replace("value: options.meaning }", "value: options.meaning.toUpperCase() }"));
    const deadline = Date.now() + 20_000;
    let html = '';
    while (Date.now() < deadline && !(html = await page()).includes('>NET ASSET VALUE PER SHARE</a>')) await new Promise((r) => setTimeout(r, 50));
    assert.match(html, />NET ASSET VALUE PER SHARE<\/a>/, 'the page shows what the edited plugin makes');
  } finally {
    await watching.close();
    await rm(site, { recursive: true, force: true });
  }
});

test('a plugin\'s options changed: a build with the cache makes the search index a build without it makes (the pages\' words are the plugins\' too)', async () => {
  const site = await writableFixture('markdown-plugins', 'markdown-plugin-search');
  try {
    await buildToMemory(site);
    const config = path.join(site, 'site.config.ts');
    await writeFile(config, (await readFile(config, 'utf8')).replace("meaning: 'net asset value per share'", "meaning: 'quokka value per share'"));
    const cached = await buildToMemory(site);
    const fresh = await buildToMemory(site, { cache: false });
    const index = (files: Map<string, Buffer>) => [...files].filter(([file]) => file.startsWith('search-index/')).map(([file, data]) => [file, data.toString('utf8')]);
    assert.ok(index(fresh.out.files).some(([, text]) => text!.includes('quokka')), 'the new word is in the index');
    assert.deepEqual(index(cached.out.files), index(fresh.out.files));
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});
