// config/navigation.yaml names pages by key (docs/content.md, "Navigation"): a key without a
// page in the default language is an error, a draft page is left out of the menus with a warning.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { buildFailure, buildToMemory, findDiagnostic, writableFixture } from '../helpers.js';

let root: string;
before(async () => {
  root = await writableFixture('minimal', 'navigation');
});
after(() => rm(root, { recursive: true, force: true }));

const insights = () => path.join(root, 'content', 'pages', 'insights', 'en.md');

/** Runs `check` with `file` holding `text`, then puts the file back as it was. */
async function withFile(file: string, text: string | null, check: () => Promise<void>): Promise<void> {
  const before = await readFile(file, 'utf8');
  if (text === null) await rm(file);
  else await writeFile(file, text);
  try {
    await check();
  } finally {
    await writeFile(file, before);
  }
}

test('a draft page in the navigation: left out of the menus, with a warning at its key', async () => {
  const text = await readFile(insights(), 'utf8');
  await withFile(insights(), text.replace(/^---\n/, '---\ndraft: true\n'), async () => {
    const { result, out } = await buildToMemory(root, { cache: false });
    const warning = findDiagnostic(result.diagnostics, { rule: 'graph/unknown-page' });
    assert.equal(warning.severity, 'warning');
    assert.deepEqual([warning.file, warning.line, warning.field], ['config/navigation.yaml', 1, 'main[0]']);
    assert.match(warning.message, /navigation names the page "insights", a draft: it is left out of the menus until it is published/);
    assert.doesNotMatch(out.text('index.html'), /href="\/insights\/"/);
    assert.match(out.text('fr/index.html'), /href="\/fr\/insights\/"/, 'the French page is published and in its menu');
  });
});

test('a navigation key whose page has no version in the default language, or none at all, is an error', async () => {
  await withFile(insights(), null, async () => {
    const error = findDiagnostic(await buildFailure(root, { cache: false }), { rule: 'graph/unknown-page' });
    assert.equal(error.severity, 'error');
    assert.match(error.message, /"insights", which has no en version/);
  });
  const navigation = path.join(root, 'config', 'navigation.yaml');
  await withFile(navigation, 'main: [insights, ghost]\nfooter: [contact-us]\n', async () => {
    const error = findDiagnostic(await buildFailure(root, { cache: false }), { rule: 'graph/unknown-page' });
    assert.deepEqual([error.severity, error.field, error.message], ['error', 'main[1]', 'navigation names the page "ghost", which does not exist']);
  });
});
