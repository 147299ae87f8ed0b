// `ir-site check --dir`: an already built folder, checked as it is on disk. The defects the
// build can never produce (one-way hreflang, a missing x-default, a chain in redirects.json,
// a file lost after the build) are planted by editing a built copy of check-clean.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { check, CheckInputError, type Finding } from '../../src/commands/check/index.js';
import { journalFile } from '../../src/build/emit/journal.js';
import { build } from '../../src/build/index.js';
import { fixture, writableFixture } from '../helpers.js';

const ROOT = fixture('check-clean');
let work: string;
let built: string;

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'ir-check-dir-'));
  built = path.join(work, 'public');
  await build({ root: ROOT, outDir: built });
});
after(() => rm(work, { recursive: true, force: true }));

let copies = 0;
/** A fresh copy of the built site, edited by `edit`, then checked with --dir. */
async function checkEdited(edit: (dir: string) => Promise<void>): Promise<{ diagnostics: Finding[]; dir: string }> {
  const dir = path.join(work, `copy-${copies++}`);
  await cp(built, dir, { recursive: true });
  await edit(dir);
  const result = await check({ root: ROOT, dir });
  return { diagnostics: result.diagnostics, dir };
}

async function editFile(file: string, change: (text: string) => string): Promise<void> {
  const before = await readFile(file, 'utf8');
  const after = change(before);
  assert.notEqual(after, before, `the edit of ${file} changed nothing`);
  await writeFile(file, after);
}

const pick = (f: Finding, ...keys: (keyof Finding)[]) => Object.fromEntries(keys.map((k) => [k, f[k]]));

test('--dir on an untouched build: nothing to report, and no build time', async () => {
  const result = await check({ root: ROOT, dir: built });
  assert.deepEqual(result.diagnostics, []);
  assert.equal(result.stats.buildMs, null);
  assert.equal(result.stats.pages, 12); // with the two offline pages
});

test('--dir on a folder a build was interrupted publishing (its journal beside it): refused, as serve refuses it, naming the way out', async () => {
  const dir = path.join(work, `copy-${copies++}`);
  await cp(built, dir, { recursive: true });
  await writeFile(journalFile(dir), '{}');
  await assert.rejects(check({ root: ROOT, dir }), (error: unknown) => {
    assert.ok(error instanceof CheckInputError);
    assert.match(error.message, /half updated: the build that was publishing it was interrupted .*Run `ir-site build`/);
    return true;
  });
});

test('languages/hreflang-not-reciprocal: the French page no longer points back to the English one', async () => {
  const { diagnostics } = await checkEdited((dir) =>
    editFile(path.join(dir, 'fr/article/commentaire-Q2-2025/index.html'), (t) => t.replace(/<link rel="alternate" hreflang="en-CA"[^>]*>/, '')),
  );
  assert.deepEqual(
    diagnostics.map((d) => pick(d, 'severity', 'rule', 'file', 'page', 'message')),
    [
      {
        severity: 'error',
        rule: 'languages/hreflang-not-reciprocal',
        file: 'content/articles/commentary-q2-2025/en.md',
        page: '/article/commentary-Q2-2025/',
        message: 'hreflang "fr-CA" points to /fr/article/commentaire-Q2-2025/, which does not point back to this page',
      },
    ],
  );
});

test('languages/hreflang-self and languages/hreflang-x-default', async () => {
  const { diagnostics } = await checkEdited(async (dir) => {
    await editFile(path.join(dir, 'fr/insights/index.html'), (t) => t.replace(/<link rel="alternate" hreflang="fr-CA"[^>]*>/, ''));
    await editFile(path.join(dir, 'insights/index.html'), (t) => t.replace(/<link rel="alternate" hreflang="x-default"[^>]*>/, ''));
  });
  const found = diagnostics.map((d) => pick(d, 'rule', 'file', 'page', 'message'));
  assert.deepEqual(found.sort((a, b) => String(a.rule).localeCompare(String(b.rule))), [
    { rule: 'languages/hreflang-self', file: 'content/pages/insights/fr.md', page: '/fr/insights/', message: 'the hreflang alternates do not include the page itself (fr-CA)' },
    { rule: 'languages/hreflang-x-default', file: 'content/pages/insights/en.md', page: '/insights/', message: 'the hreflang alternates have no x-default' },
  ]);
});

test('redirects in the folder: a chain added to redirects.json is found there', async () => {
  const { diagnostics, dir } = await checkEdited((dir) =>
    editFile(path.join(dir, 'redirects.json'), (t) => {
      const rules = JSON.parse(t) as object[];
      rules.push({ fromPath: '/oldest-insights/', toPath: '/old-insights/', isPermanent: false, ignoreCase: true, redirectInBrowser: true });
      return JSON.stringify(rules);
    }),
  );
  assert.deepEqual(
    diagnostics.map((d) => pick(d, 'severity', 'rule', 'file', 'message', 'hint')),
    [
      {
        severity: 'error',
        rule: 'redirects/chain',
        file: `${path.relative(ROOT, dir).split(path.sep).join('/')}/redirects.json`,
        message: 'redirect chain: /oldest-insights/ -> /old-insights/ -> /insights/',
        hint: 'point /oldest-insights/ at /insights/',
      },
    ],
  );
});

test('links/missing-file: an image lost after the build is traced to the markdown that shows it', async () => {
  const { diagnostics } = await checkEdited((dir) => rm(path.join(dir, 'article/commentary-Q2-2025/chart.svg')));
  assert.deepEqual(
    diagnostics.map((d) => pick(d, 'severity', 'rule', 'file', 'line', 'column', 'page', 'message')),
    [
      {
        severity: 'error',
        rule: 'links/missing-file',
        file: 'content/articles/commentary-q2-2025/en.md',
        line: 14,
        column: 31,
        page: '/article/commentary-Q2-2025/',
        message: 'the image chart.svg: no such file in the output',
      },
    ],
  );
});

test('a broken link that comes from the template is reported once, with the number of pages', async () => {
  // The stylesheet every page links is gone: one finding, not one per page.
  const { diagnostics } = await checkEdited(async (dir) => {
    const { readdir } = await import('node:fs/promises');
    const css = (await readdir(path.join(dir, 'static'))).find((f) => f.endsWith('.css'))!;
    await rm(path.join(dir, 'static', css));
  });
  assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics, null, 2));
  const [f] = diagnostics;
  assert.equal(f!.rule, 'links/missing-file');
  assert.match(f!.message, /^the <link rel="stylesheet"> to \/static\/styles\.[0-9a-f]+\.css: no such file in the output$/);
  assert.equal(f!.morePages, 11, 'the 12 pages (the two offline pages included) all link it');
});

test('check/stale-output: a folder that does not match the content says so once', async () => {
  const { diagnostics } = await checkEdited(async (dir) => {
    await cp(path.join(dir, 'insights'), path.join(dir, 'views'), { recursive: true });
  });
  const stale = diagnostics.find((d) => d.rule === 'check/stale-output');
  assert.ok(stale, JSON.stringify(diagnostics, null, 2));
  assert.equal(stale.severity, 'warning');
  assert.match(stale.message, /^the folder does not match the content: 1 page\(s\) in it have no source \(e\.g\. \/views\/\)$/);
});

test('a dot folder in the output (a staging folder a killed build left) is not read: no server serves it', async () => {
  const { diagnostics } = await checkEdited(async (dir) => {
    await cp(path.join(dir, 'insights'), path.join(dir, '.ir-site-staging-1234', 'views'), { recursive: true });
    await writeFile(path.join(dir, '.ir-site-staging-1234', 'broken.html'), '<html><body><a href="/nowhere/">x</a></body></html>');
  });
  assert.deepEqual(diagnostics.map((d) => `${d.rule}: ${d.message}`), []);
});

test('check/redirects-file: a redirects.json missing, not JSON, or not a list of rules is an error naming it', async () => {
  for (const [edit, message] of [
    [(dir: string) => rm(path.join(dir, 'redirects.json')), /^the folder has no redirects\.json;/],
    [(dir: string) => writeFile(path.join(dir, 'redirects.json'), '{oops'), /^redirects\.json is not JSON: /],
    [(dir: string) => writeFile(path.join(dir, 'redirects.json'), '{"fromPath": "/a/"}'), /^redirects\.json is not a list of rules/],
  ] as const) {
    const { diagnostics, dir } = await checkEdited(edit);
    const found = diagnostics.filter((d) => d.rule === 'check/redirects-file');
    assert.equal(found.length, 1, JSON.stringify(diagnostics, null, 2));
    assert.equal(found[0]!.severity, 'error');
    assert.equal(found[0]!.file, `${path.relative(ROOT, dir).split(path.sep).join('/')}/redirects.json`);
    assert.match(found[0]!.message, message);
  }
});

test('--dir on an untouched build of a site whose article has a cover: nothing to report (the covers are read as the build read them)', async () => {
  const site = await writableFixture('check-clean', `check-dir-cover-${process.pid}`);
  try {
    // Its configuration extends the minimal fixture's, next to it in test/fixtures.
    await editFile(path.join(site, 'site.config.ts'), (t) => t.replace("'../minimal/site.config.js'", "'../../fixtures/minimal/site.config.js'"));
    const sharp = (await import('sharp')).default;
    const folder = path.join(site, 'content/articles/commentary-q2-2025');
    await sharp({ create: { width: 1200, height: 630, channels: 3, background: { r: 20, g: 60, b: 120 } } }).jpeg().toFile(path.join(folder, 'cover.jpg'));
    await editFile(path.join(folder, 'en.md'), (t) => t.replace(/^---\n/, '---\ncover:\n  file: cover.jpg\n  alt: "A blue field"\n'));
    const out = path.join(site, 'public');
    await build({ root: site, outDir: out });
    const result = await check({ root: site, dir: out });
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule}: ${d.message}`), []);
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});

test('a page lost after the build, that case-insensitive and foreign-slug rules point at: its rules point nowhere, and there is no loop (the server never redirects a path to itself)', async () => {
  const { diagnostics } = await checkEdited((dir) => rm(path.join(dir, 'article/commentary-Q2-2025'), { recursive: true }));
  assert.deepEqual(diagnostics.filter((d) => d.rule === 'redirects/loop').map((d) => d.message), []);
  assert.ok(diagnostics.some((d) => d.rule === 'redirects/missing-target' && d.message.includes('/article/commentary-Q2-2025/')), JSON.stringify(diagnostics.map((d) => `${d.rule}: ${d.message}`)));
});

test('--dir: a body image that is not next to its entry is reported, though --dir renders nothing', async () => {
  const site = await writableFixture('check-clean', `check-dir-image-${process.pid}`);
  try {
    await editFile(path.join(site, 'site.config.ts'), (t) => t.replace("'../minimal/site.config.js'", "'../../fixtures/minimal/site.config.js'"));
    const out = path.join(site, 'public');
    await build({ root: site, outDir: out });
    const file = path.join(site, 'content/articles/commentary-q2-2025/en.md');
    await editFile(file, (t) => `${t}\n![Gone](gone.png)\n`);
    const result = await check({ root: site, dir: out });
    const missing = result.diagnostics.find((d) => d.rule === 'content/missing-image');
    assert.ok(missing, JSON.stringify(result.diagnostics, null, 2));
    assert.equal(missing.file, 'content/articles/commentary-q2-2025/en.md');
    assert.match(missing.message, /the image "gone\.png" is not next to this entry/);
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});

test('check/stale-output: a folder built before its content changed names what changed; one built with drafts says so; untouched, nothing', async () => {
  const site = await writableFixture('check-clean', `check-dir-changed-${process.pid}`);
  // The build records its inputs' states only once they are 2 s old (incremental/racy.ts).
  const settle = () => new Promise((resolve) => setTimeout(resolve, 2100));
  try {
    await editFile(path.join(site, 'site.config.ts'), (t) => t.replace("'../minimal/site.config.js'", "'../../fixtures/minimal/site.config.js'"));
    await settle();
    const out = path.join(site, 'public');
    await build({ root: site, outDir: out });
    const stale = async () => (await check({ root: site, dir: out })).diagnostics.filter((d) => d.rule === 'check/stale-output').map((d) => `${d.file}: ${d.message}`);
    assert.deepEqual(await stale(), []);

    await editFile(path.join(site, 'content/articles/commentary-q2-2025/en.md'), (t) => `${t}\nA sentence added after the build.\n`);
    await writeFile(path.join(site, 'content/articles/commentary-q2-2025/notes.txt'), 'not content, but in the content folder');
    assert.deepEqual(await stale(), [
      'public: the folder was built before content/articles/commentary-q2-2025/en.md and 1 more file changed: a finding may point at a template or a line when what the page shows was in the old text',
    ]);

    await settle();
    await build({ root: site, outDir: out, drafts: true });
    assert.deepEqual(await stale(), ['public: the folder was built with another configuration (or with --drafts): its pages may differ from what a build makes now']);
  } finally {
    await rm(site, { recursive: true, force: true });
  }
});
