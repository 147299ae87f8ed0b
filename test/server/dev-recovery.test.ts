// dev after an edit that fails: what that edit changed (site.config.ts, a template, the
// stylesheet) is applied by the next change that builds, whatever it is; an error in the
// templates stays until they are fixed; and the output is then what a fresh build writes,
// no file of an earlier build left (an old stylesheet, a removed article's document).
// DevSite is driven directly, one change at a time, as the watcher would.
import assert from 'node:assert/strict';
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../../src/build/index.js';
import { MemorySink } from '../../src/build/emit/sink.js';
import { DevSite } from '../../src/commands/server/dev-site.js';
import { writableFixture } from '../helpers.js';

let root: string;
let site: DevSite;
const file = (rel: string) => path.join(root, rel);
const ARTICLE = 'content/articles/commentary-q2-2025/en.md';

/** Applies an edit to one file, as the watcher reports it. */
async function edit(rel: string, change: (text: string) => string) {
  await writeFile(file(rel), change(await readFile(file(rel), 'utf8')));
  return site.applyChanges([file(rel)]);
}

/** dev's output against a fresh build of the same files: the same files, the same bytes (but the offline worker's deploy id, which dev does not make). */
async function assertAsBuilt(when: string) {
  await site.settled();
  const fresh = new MemorySink();
  await build({ root, sink: fresh, drafts: true, reporter: {} });
  const byDesign = new Set(['sw.js', 'page-data/app-data.json']);
  const [live, built] = [site.sink.files, fresh.files].map((files) => [...files.keys()].filter((f) => !byDesign.has(f)).sort());
  assert.deepEqual(live!.filter((f) => !built!.includes(f)), [], `${when}: dev serves no file a build does not make`);
  assert.deepEqual(built!.filter((f) => !live!.includes(f)), [], `${when}: dev serves every file a build makes`);
  assert.deepEqual(built!.filter((f) => !site.sink.files.get(f)!.equals(fresh.files.get(f)!)), [], `${when}: no file differs from a fresh build`);
}

before(async () => {
  root = await writableFixture('minimal', `dev-recovery-${process.pid}`, { ownTemplates: true });
  site = new DevSite({ root });
  assert.ok((await site.rebuildAll()).ok);
});

after(async () => {
  site?.close();
  await rm(root, { recursive: true, force: true });
});

test('a stylesheet edit and a config edit made while the content has an error are applied once it is fixed', async () => {
  const good = await readFile(file(ARTICLE), 'utf8');
  assert.equal((await edit(ARTICLE, (t) => t.replace(/^date: .*$/m, 'date: 2025-13-15'))).ok, false);
  assert.equal((await edit('templates/styles.css', (t) => `${t}\n.dev-recovery-mark { color: red }\n`)).ok, false, 'the content still has its error');
  assert.equal((await edit('site.config.ts', (t) => t.replace("identity: 'second'", "identity: 'first'"))).ok, false, 'the content still has its error');
  await writeFile(file(ARTICLE), good);
  const fixed = await site.applyChanges([file(ARTICLE)]);
  assert.ok(fixed.ok, JSON.stringify(fixed.diagnostics));
  assert.deepEqual(site.errors, []);
  const home = site.sink.text('index.html');
  assert.match(home, /alpha\.example/, 'the configuration edit is applied');
  const stylesheet = /href="\/(static\/styles\.[0-9a-f]+\.css)"/.exec(home)?.[1];
  assert.ok(stylesheet && site.sink.text(stylesheet).includes('dev-recovery-mark'), 'the stylesheet edit is applied');
  await assertAsBuilt('after the fix');
});

test('a stylesheet edit alone, made while the content has an error, is applied once the content is fixed', async () => {
  const good = await readFile(file(ARTICLE), 'utf8');
  assert.equal((await edit(ARTICLE, (t) => t.replace(/^date: .*$/m, 'date: 2025-02-30'))).ok, false);
  assert.equal((await edit('templates/styles.css', (t) => `${t}\n.dev-recovery-second { color: blue }\n`)).ok, false);
  await writeFile(file(ARTICLE), good);
  const fixed = await site.applyChanges([file(ARTICLE)]);
  assert.ok(fixed.ok, JSON.stringify(fixed.diagnostics));
  const stylesheet = /href="\/(static\/styles\.[0-9a-f]+\.css)"/.exec(site.sink.text('index.html'))?.[1];
  assert.ok(stylesheet && site.sink.text(stylesheet).includes('dev-recovery-second'), 'the stylesheet edit is applied');
  await assertAsBuilt('after the fix');
});

test('an error in a template stays through later content edits, until the template is fixed', async () => {
  const template = 'templates/pages/article.tsx';
  const good = await readFile(file(template), 'utf8');
  const broken = await edit(template, (t) => t.replace('</article>', '<p>{</p></article>'));
  assert.equal(broken.ok, false);
  assert.equal(broken.kind, 'templates');
  const later = await edit(ARTICLE, (t) => `${t}\nA sentence written while the template is broken.\n`);
  assert.equal(later.ok, false, 'a content edit does not hide the template error');
  assert.ok(site.errors.length > 0);
  await writeFile(file(template), good);
  assert.ok((await site.applyChanges([file(template)])).ok);
  assert.match(site.sink.text('article/commentary-Q2-2025/index.html'), /A sentence written while the template is broken\./);
  await assertAsBuilt('after the template is fixed');
});

test('an error in a template and one in the content at once: both are reported, and each stays until it is fixed', async () => {
  const template = 'templates/pages/article.tsx';
  const [goodTemplate, goodArticle] = await Promise.all([readFile(file(template), 'utf8'), readFile(file(ARTICLE), 'utf8')]);
  const templateError = (d: { file: string }) => d.file.startsWith('templates/');
  const dateError = (d: { file: string; field?: string }) => d.file === ARTICLE && d.field === 'date';
  assert.equal((await edit(template, (t) => t.replace('</article>', '<p>{</p></article>'))).ok, false);
  const both = await edit(ARTICLE, (t) => t.replace(/^date: .*$/m, 'date: 2025-13-16'));
  assert.equal(both.ok, false);
  assert.ok(site.errors.some(templateError) && site.errors.some(dateError), JSON.stringify(site.errors));
  // The template fixed first: the content's error alone is left.
  await writeFile(file(template), goodTemplate);
  assert.equal((await site.applyChanges([file(template)])).ok, false);
  assert.ok(site.errors.some(dateError) && !site.errors.some(templateError), JSON.stringify(site.errors));
  // Broken again, then a restart of dev: the first build reports both too.
  await edit(template, (t) => t.replace('</article>', '<p>{</p></article>'));
  assert.equal((await site.rebuildAll()).ok, false);
  assert.ok(site.errors.some(templateError) && site.errors.some(dateError), JSON.stringify(site.errors));
  await Promise.all([writeFile(file(template), goodTemplate), writeFile(file(ARTICLE), goodArticle)]);
  assert.ok((await site.applyChanges([file(template), file(ARTICLE)])).ok);
  await assertAsBuilt('after both are fixed');
});

test("an article removed: its pages and its published document are no longer served", async () => {
  const pdf = [...site.sink.files.keys()].find((f) => f.endsWith('report.pdf'));
  assert.ok(pdf, 'the article publishes its document');
  const dir = file('content/articles/commentary-q2-2025');
  await rm(dir, { recursive: true });
  const report = await site.applyChanges([file(ARTICLE), file('content/articles/commentary-q2-2025/fr.md'), file('content/articles/commentary-q2-2025/report.pdf')]);
  assert.ok(report.ok, JSON.stringify(report.diagnostics.map((d) => d.message)));
  assert.equal(site.sink.files.has(pdf), false, `${pdf} is gone`);
  await assertAsBuilt('after the removal');
});

test('a stylesheet replaced by a link out of the site is reported and not read, as the build does; made a file again, it is applied', async () => {
  const sheet = file('templates/styles.css');
  const good = await readFile(sheet, 'utf8');
  const outside = path.join(path.dirname(root), `outside-${process.pid}.css`);
  await writeFile(outside, '.secret-from-outside { color: red }\n');
  try {
    await rm(sheet);
    await symlink(outside, sheet);
    const linked = await site.applyChanges([sheet]);
    assert.equal(linked.ok, false);
    assert.ok(linked.diagnostics.some((d) => d.rule === 'content/outside-site' && d.file === 'templates/styles.css'), JSON.stringify(linked.diagnostics));
    assert.ok(![...site.sink.files.values()].some((bytes) => bytes.includes('secret-from-outside')), 'nothing of the outside file is served');
    await rm(sheet);
    await writeFile(sheet, good);
    const fixed = await site.applyChanges([sheet]);
    assert.ok(fixed.ok, JSON.stringify(fixed.diagnostics));
    await assertAsBuilt('after the stylesheet is a file again');
  } finally {
    await rm(outside, { force: true });
  }
});
