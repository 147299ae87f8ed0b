// dev's site (src/commands/server/dev-site.ts) without the watcher: changes handed to it as one
// batch, so each test knows exactly which files one change holds. After each, the pages dev
// holds are those a fresh build of the same files makes.
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../../src/build/index.js';
import { MemorySink } from '../../src/build/emit/sink.js';
import { DevSite } from '../../src/commands/server/dev-site.js';
import { htmlFileFor } from '../../src/shared/paths.js';
import { copyFixture, REPO } from '../helpers.js';

// Same depth as test/fixtures/<name>, so the fixture's relative template paths still hold.
const root = path.join(REPO, 'test', '.tmp', `dev-site-${process.pid}`);
const site = new DevSite({ root });

before(async () => {
  await rm(root, { recursive: true, force: true });
  await mkdir(path.dirname(root), { recursive: true });
  await copyFixture('minimal', root);
  assert.ok((await site.rebuildAll()).ok);
});

after(async () => {
  site.close();
  await rm(root, { recursive: true, force: true });
});

async function edit(rel: string, change: (text: string) => string): Promise<string> {
  const file = path.join(root, rel);
  await writeFile(file, change(await readFile(file, 'utf8')));
  return file;
}

const page = (pagePath: string) => site.sink.files.get(htmlFileFor(pagePath))?.toString('utf8') ?? '';

/** Every page file of a fresh build that dev holds with other bytes (or not at all). */
async function differFromBuild(): Promise<string[]> {
  await site.settled();
  const fresh = new MemorySink();
  await build({ root, sink: fresh, drafts: true, reporter: {} });
  return [...fresh.files.keys()].filter((f) => (f.endsWith('.html') || f.endsWith('page-data.json')) && !site.sink.files.get(f)?.equals(fresh.files.get(f)!));
}

test("one change holding an article's new title and another page's new body: the headline is put in, and the other page is rendered too", async () => {
  const files = [
    await edit('content/articles/press-one/en.md', (t) => t.replace('title: Press one', 'title: Press one, renamed')),
    await edit('content/pages/contact-us/en.md', (t) => t.replace('Write to us.', 'Write to us, or call.')),
  ];
  const report = await site.applyChanges(files);
  assert.ok(report.ok);
  assert.equal(report.kind, 'headline', 'the frame key is the last graph\'s: no validate and graph');
  assert.match(page('/article/press-one/'), /Press one, renamed/);
  assert.match(page('/contact-us/'), /Write to us, or call\./, 'the page whose body changed is rendered');
  assert.deepEqual(await differFromBuild(), []);
});

test('a change that fails leaves the output as it was; the change that mends it makes all it held', async () => {
  // A new page, in a change that fails (another page's front matter broken)...
  await mkdir(path.join(root, 'content/pages/new-page'), { recursive: true });
  const added = path.join(root, 'content/pages/new-page/en.md');
  await writeFile(added, '---\ntitle: A new page\n---\nNew.\n');
  const broken = await edit('content/pages/what-is/en.md', (t) => t.replace(/^title: .*$/m, 'title: [unclosed'));
  const failed = await site.applyChanges([added, broken]);
  assert.equal(failed.ok, false);
  assert.equal(page('/new-page/'), '', 'nothing of a change that failed is served');
  // ...mended by a save of the broken file alone.
  const mended = await edit('content/pages/what-is/en.md', (t) => t.replace('title: [unclosed', 'title: What is it'));
  const report = await site.applyChanges([mended]);
  assert.ok(report.ok, JSON.stringify(report.diagnostics));
  assert.match(page('/new-page/'), /A new page/);
  assert.deepEqual(await differFromBuild(), []);
});
