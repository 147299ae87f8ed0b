// The XSS corpus: every payload in a body and in every free-text front-matter field, built
// into a site; then checked where a visitor could meet it: the built HTML (no script but the
// runtime's own, no handler, no script URL, no reserved id taken), the page records (no
// raw-HTML prop a template could render), and Chromium (no dialog, no Content-Security-Policy
// violation, the runtime working), on a direct load and after a client navigation.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Parser } from 'htmlparser2';
import { INLINE_SCRIPTS } from '../../src/build/render/document.js';
import { CHUNKS_SCRIPT_ID, PAGE_DATA_SCRIPT_ID, RESERVED_IDS, STATIC_QUERIES_SCRIPT_ID } from '../../src/shared/dom-ids.js';
import { isSafeUrl, MARKDOWN_TAGS } from '../../src/shared/markdown-guard.js';
import type { MarkdownNode, PageRecord } from '../../src/shared/types.js';
import { writableFixture } from '../helpers.js';
import { buildSite, openBrowser, skip, Tab, until, type Browser, type BuiltSite } from './runtime-harness.js';

/** Payloads for any text: each calls alert() if it ever runs. (An image's address is a site path: a relative one in a body must name a file next to it.) */
const TEXT_PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=/x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "'><img src=/x onerror=alert(1)>",
  '</script><script>alert(1)</script>',
  'javascript:alert(1)',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  "{{constructor.constructor('alert(1)')()}}",
  '${alert(1)}',
  '<a href="javascript:alert(1)">x</a>',
  ']]><script>alert(1)</script>',
  '--><script>alert(1)</script><!--',
  '\u2028\u2029<script>alert(1)</script>',
];

/**
 * What the runtime would hydrate if a body could shadow its record: the article's own record
 * (its shape, as the build writes it), with a body tree that runs script two ways.
 */
const CLOBBER_PATH = '/article/clobber/';
const HOSTILE_RECORD = JSON.stringify({
  componentChunkName: 'component---templates-article-tsx',
  path: CLOBBER_PATH,
  result: {
    pageContext: { locale: 'en', hrefLang: 'en-CA', originalPath: CLOBBER_PATH, alternates: [{ locale: 'en', hrefLang: 'en-CA', path: CLOBBER_PATH }] },
    data: {
      template: 'article',
      title: 'Clobbered',
      description: null,
      body: {
        type: 'root',
        children: [
          ['div', { dangerouslySetInnerHTML: { __html: '<img src=/x onerror=alert(1)>' } }],
          ['iframe', { srcDoc: '<script>parent.alert(2)</script>' }],
          ['a', { href: 'javascript:alert(3)', id: 'x' }, 'x'],
        ],
      },
      key: 'clobber',
      slug: 'clobber',
      date: '2025-03-01',
      type: 'news',
      sections: [],
      sectionLinks: [],
      quarter: null,
      author: null,
      video: null,
      documents: [],
    },
  },
  staticQueryHashes: [],
});

/** Payloads only a markdown body can carry. */
const BODY_PAYLOADS = [
  ...TEXT_PAYLOADS,
  '[x](javascript:alert(1))',
  '![x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<details open ontoggle=alert(1)>x</details>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<form><button formaction=javascript:alert(1)>x</button></form>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<object data="javascript:alert(1)"></object>',
  '<svg><script>alert(1)</script></svg>',
  '<noscript><p title="</noscript><img src=/x onerror=alert(1)>"></noscript>',
  "<style>@import 'javascript:alert(1)';</style>",
  '<input onfocus=alert(1) autofocus>',
  '<video><source onerror=alert(1)></video>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<img name="getElementById" src="https://example.com/x.png" alt="">',
  '<a id="gatsby-announcer">taken</a> <a id="___gatsby">root</a>',
  '<form name="body"><input name="head"></form>',
  '<p>```</p><script>alert(1)</script>',
];

/** Page paths may hold these (no spaces, query or fragment). */
const PATH_PAYLOADS = ['/x"><svg/onload=alert(1)>/', "/x'><img/src=x/onerror=alert(1)>/", '/<script>alert(1)<\/script>/'];

const yamlString = (s: string) => JSON.stringify(s);

let root: string;
let site: BuiltSite;
let browser: Browser;
const pages: string[] = [];

async function entry(collection: string, key: string, frontMatter: Record<string, unknown>, body: string): Promise<void> {
  const dir = path.join(root, 'content', collection, key);
  await mkdir(dir, { recursive: true });
  const yaml = Object.entries(frontMatter)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? yamlString(v) : JSON.stringify(v)}`)
    .join('\n');
  await writeFile(path.join(dir, 'en.md'), `---\n${yaml}\ntranslation: none\n---\n${body}\n`);
}

before(async () => {
  if (skip) return;
  root = await writableFixture('minimal', 'xss-corpus');
  for (const [i, payload] of BODY_PAYLOADS.entries()) {
    await entry('articles', `body-${i}`, { title: `Body payload ${i}`, slug: `body-${i}`, date: '2025-03-01', type: 'news' }, `Before.\n\n${payload}\n\nAfter ${i}.`);
    pages.push(`/article/body-${i}/`);
  }
  // The record a body would put first in the document, if ids from content were not prefixed.
  await entry('articles', 'clobber', { title: 'Clobber', slug: 'clobber', date: '2025-03-01', type: 'news' }, `<div id="__IR_PAGE_DATA__">${HOSTILE_RECORD}</div>`);
  pages.push(CLOBBER_PATH);
  for (const [i, payload] of TEXT_PAYLOADS.entries()) {
    await entry(
      'articles',
      `field-${i}`,
      {
        title: payload,
        description: payload,
        slug: `field-${i}`,
        date: '2025-03-02',
        type: 'news',
        sections: ['insights'],
        documents: [{ label: payload, file: 'https://example.com/report.pdf' }],
      },
      `Field payload ${i}.`,
    );
    pages.push(`/article/field-${i}/`);
    await entry('team', `member${i}`, { name: payload, role: payload, title: payload, description: payload }, `Bio ${i}.`);
    pages.push(`/your-team/member${i}/`);
    await entry('pages', `page-${i}`, { title: payload, description: payload, navTitle: payload }, `Page ${i}.`);
    pages.push(`/page-${i}/`);
  }
  for (const [i, payloadPath] of PATH_PAYLOADS.entries()) {
    await entry('pages', `path-${i}`, { title: `Path payload ${i}`, path: payloadPath }, `Path ${i}.`);
    pages.push(payloadPath);
  }
  pages.push('/', '/insights/', '/your-team/');
  // An SVG with script of every kind, published next to an article.
  await writeFile(
    path.join(root, 'content', 'articles', 'body-0', 'chart.svg'),
    `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40" onload="alert('onload')"><script>alert('script')</script><a xlink:href="javascript:alert('link')"><rect width="40" height="40" fill="#0b3d5c"/></a><foreignObject width="40" height="40"><iframe xmlns="http://www.w3.org/1999/xhtml" srcdoc="&lt;script&gt;parent.alert('srcdoc')&lt;/script&gt;"/></foreignObject><set attributeName="onmouseover" to="alert('set')"/></svg>\n`,
  );
  site = await buildSite(root);
  browser = await openBrowser();
});

after(async () => {
  await browser?.close();
  await site?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

interface Element {
  name: string;
  attrs: Record<string, string>;
  text: string;
}

function elementsOf(html: string): Element[] {
  const out: Element[] = [];
  const open: Element[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const el = { name, attrs, text: '' };
        out.push(el);
        open.push(el);
      },
      ontext(text) {
        const top = open[open.length - 1];
        if (top) top.text += text;
      },
      onclosetag() {
        open.pop();
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return out;
}

const htmlFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => path.join(e.parentPath, e.name));

const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'data', 'background', 'cite'];
const OUR_JSON = new Set([PAGE_DATA_SCRIPT_ID, STATIC_QUERIES_SCRIPT_ID, CHUNKS_SCRIPT_ID]);
/** Names that, on a form, image or embedded element, would shadow a property of `document`. */
const SHADOWED = new Set(['body', 'head', 'getElementById', 'getElementsByName', 'querySelector', 'cookie', 'location', 'documentElement', 'forms', 'images', 'title', 'defaultView']);
const EMBEDS = /^https:\/\/(www\.youtube-nocookie\.com\/embed|player\.vimeo\.com\/video)\//;

describe('the XSS corpus', { skip }, () => {
  test('the corpus built: every payload page is there', () => {
    for (const p of pages) assert.ok(site.record(p).path === p, p);
  });

  const isJson = (text: string) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };

  test('built HTML: only the runtime\'s scripts, no handler, no script URL, no embedded document, no reserved id taken', () => {
    const files = htmlFiles(site.dir);
    assert.ok(files.length >= pages.length);
    for (const file of files) {
      const where = path.relative(site.dir, file);
      const elements = elementsOf(readFileSync(file, 'utf8'));
      const ids = new Map<string, number>();
      for (const el of elements) {
        for (const [name, value] of Object.entries(el.attrs)) {
          assert.ok(!name.startsWith('on'), `${where}: <${el.name} ${name}>`);
          assert.ok(name !== 'srcdoc', `${where}: srcdoc`);
          if (URL_ATTRS.includes(name)) assert.ok(isSafeUrl(value, { image: el.name === 'img' }), `${where}: <${el.name} ${name}="${value}">`);
          if (name === 'srcset') for (const c of value.split(',')) assert.ok(isSafeUrl(c.trim().split(/\s+/)[0] ?? ''), `${where}: srcset ${value}`);
        }
        if (el.attrs.id !== undefined) ids.set(el.attrs.id, (ids.get(el.attrs.id) ?? 0) + 1);
        assert.ok(!['object', 'embed', 'base', 'frame', 'frameset', 'style', 'math'].includes(el.name), `${where}: <${el.name}>`);
        if (el.attrs.name !== undefined) assert.ok(!SHADOWED.has(el.attrs.name), `${where}: <${el.name} name="${el.attrs.name}"> shadows a document property`);
        if (el.name === 'iframe') assert.match(el.attrs.src ?? '', EMBEDS, `${where}: iframe ${el.attrs.src}`);
        if (el.name === 'meta' && el.attrs['http-equiv']) assert.equal(el.attrs['http-equiv'], 'Content-Security-Policy', where);
        if (el.name === 'script') {
          const ours =
            (el.attrs.type === 'application/json' && OUR_JSON.has(el.attrs.id ?? '')) ||
            (el.attrs.type === 'module' && /^\/static\/[\w.-]+\.js$/.test(el.attrs.src ?? '') && el.text === '') ||
            (Object.keys(el.attrs).length === 0 && INLINE_SCRIPTS.includes(el.text)) ||
            // Structured data (issue 20): JSON the browser never runs, escaped so no text closes it.
            (el.attrs.type === 'application/ld+json' && !/<\/?script|<!--/i.test(el.text) && isJson(el.text));
          assert.ok(ours, `${where}: a script that is not the runtime's: ${JSON.stringify(el)}`);
        }
        if (el.name === 'svg') assert.ok(!elements.some((e) => e.name === 'script' && e !== el && Object.keys(e.attrs).length === 0 && !INLINE_SCRIPTS.includes(e.text)));
      }
      for (const id of RESERVED_IDS) assert.ok((ids.get(id) ?? 0) <= 1, `${where}: id "${id}" appears ${ids.get(id)} times`);
    }
  });

  test('page records: every body tree holds only sanitiser tags, plain props and safe URLs', () => {
    const walk = (node: MarkdownNode, where: string): void => {
      if (typeof node === 'string') return;
      const [tag, props, ...children] = node;
      assert.ok(MARKDOWN_TAGS.has(tag), `${where}: <${tag}>`);
      for (const [name, value] of Object.entries(props ?? {})) {
        assert.ok(!/^on/i.test(name) && !['dangerouslySetInnerHTML', 'srcDoc', 'children'].includes(name), `${where}: ${tag}.${name}`);
        if (['href', 'src'].includes(name)) assert.ok(isSafeUrl(String(value), { image: tag === 'img' }), `${where}: ${tag}.${name}=${String(value)}`);
      }
      children.forEach((c) => walk(c, where));
    };
    for (const p of pages) {
      const record: PageRecord = site.record(p);
      const body = (record.result.data as { body?: { children: MarkdownNode[] } | null }).body;
      body?.children.forEach((c) => walk(c, p));
    }
  });

  test('an SVG from content opened at its URL runs nothing, and the drawing is still there', async () => {
    const dialogs: string[] = [];
    const page = await browser.context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const response = await page.goto(`${site.url}/article/body-0/chart.svg`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200);
    await page.mouse.move(20, 20);
    await page.click('rect', { timeout: 2000 }).catch(() => undefined);
    await page.waitForTimeout(200);
    assert.deepEqual(dialogs, []);
    assert.equal(await page.locator('rect').count(), 1);
    assert.equal(await page.locator('script').count(), 0);
    await page.close();
  });

  test('the policy: a script injected into a built page after the build does not run', async () => {
    const file = path.join(site.dir, 'article', 'body-1', 'index.html');
    const html = readFileSync(file, 'utf8');
    const injected = html.replace('<body>', '<body><script>window.__injected = "inline"</script><img src="/nope.png" alt="" onerror="window.__injected = \'handler\'"><a id="j" href="javascript:window.__injected=\'url\'">j</a>');
    await writeFile(file, injected);
    const tab = await Tab.open(browser.context, site, '/article/body-1/', {
      init: [
        () => {
          const w = window as unknown as { __violations: string[] };
          w.__violations = [];
          document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(e.violatedDirective));
        },
      ],
    });
    await tab.page.click('#j');
    await tab.page.waitForTimeout(200);
    const { injectedValue, violations } = await tab.page.evaluate(() => ({
      injectedValue: (window as unknown as { __injected?: string }).__injected ?? null,
      violations: (window as unknown as { __violations: string[] }).__violations,
    }));
    assert.equal(injectedValue, null);
    assert.ok(violations.filter((v) => v.startsWith('script-src')).length >= 2, `blocked and reported: ${violations.join(', ')}`);
    await tab.close();
    await writeFile(file, html);
  });

  async function visit(tab: Tab, dialogs: string[], violations: string[], where: string): Promise<void> {
    await until(() => tab.page.evaluate(() => document.readyState === 'complete'), `${where} to load`);
    // Time for anything deferred (an image error, a focus handler, a timer) to fire.
    await tab.page.waitForTimeout(150);
    const seen = await tab.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations.splice(0));
    violations.push(...seen.map((v) => `${where}: ${v}`));
    assert.deepEqual(dialogs, [], `${where}: a dialog opened`);
  }

  test('Chromium, each page loaded directly: no dialog, no policy violation, the runtime booted', { timeout: 300_000 }, async () => {
    const dialogs: string[] = [];
    const violations: string[] = [];
    for (const p of pages) {
      const tab = await Tab.open(browser.context, site, p, {
        init: [
          () => {
            const w = window as unknown as { __violations: string[] };
            w.__violations = [];
            document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
          },
        ],
        before: (page) => page.on('dialog', (d) => {
          dialogs.push(d.message());
          void d.dismiss();
        }),
      });
      await visit(tab, dialogs, violations, p);
      assert.deepEqual(tab.pageErrors, [], `${p}: page errors`);
      await tab.close();
    }
    assert.deepEqual(violations, []);
  });

  test('Chromium, each page reached by a client navigation: no dialog, no violation, the announcer and the record are the runtime\'s', { timeout: 300_000 }, async () => {
    const dialogs: string[] = [];
    const violations: string[] = [];
    const tab = await Tab.open(browser.context, site, '/', {
      init: [
        () => {
          const w = window as unknown as { __violations: string[] };
          w.__violations = [];
          document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
        },
      ],
      before: (page) => page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      }),
    });
    await tab.mark();
    for (const p of pages.filter((x) => x !== '/')) {
      const link = await tab.insertLink(p);
      await link.click();
      const expected = site.h1(p);
      await until(async () => {
        const s = await tab.state();
        return decodeURI(s.path) === p && s.h1 === expected;
      }, `client navigation to ${p}`);
      const state = await tab.state();
      assert.ok(state.marked, `${p} was a client navigation, not a full load`);
      assert.match(state.announcer, /Navigated to/, `${p}: the runtime's announcer spoke`);
      await visit(tab, dialogs, violations, p);
    }
    assert.deepEqual(tab.pageErrors, []);
    assert.deepEqual(violations, []);
    await tab.close();
  });
});
