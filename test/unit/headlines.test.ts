// An article's headline put into a graph (src/build/graph/headlines.ts) gives the graph the
// validate and graph stages give for the same edit, for every article of the minimal fixture
// and of the demo site, in both languages; and the frame inputs (incremental/keys.ts) tell a
// headline edit from any other front-matter edit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/build/config/load.js';
import { loadContent } from '../../src/build/content/load.js';
import type { RawEntry, RawSite } from '../../src/build/content/raw.js';
import { validateContent } from '../../src/build/content/validate.js';
import { withEditedHeadlines } from '../../src/build/graph/headlines.js';
import { buildGraph } from '../../src/build/graph/index.js';
import { entryFrameInputs, entryGraphInputs } from '../../src/incremental/keys.js';
import { fixture, REPO } from '../helpers.js';

const FRENCH = { frenchTypography: true };

async function siteAt(root: string, includeDrafts: boolean) {
  const config = await loadConfig({ root });
  const { raw, diagnostics } = await loadContent(config);
  const compile = (site: RawSite) => {
    const validated = validateContent(site, config);
    const graph = buildGraph(validated.site, config, { includeDrafts });
    return { graph, findings: [...diagnostics, ...validated.diagnostics, ...graph.diagnostics] };
  };
  return { raw, compile, config };
}

/**
 * `entry` with its headline edited as an editor would, keeping its lines (a description only where
 * it has one), with the punctuation French typography spaces: the edit must be set as the graph sets it.
 */
function retitled(entry: RawEntry, n: number): RawEntry {
  const data: Record<string, unknown> = { ...entry.data, title: `${String(entry.data.title)}, corrected (${n}): why?` };
  if (typeof entry.data.description === 'string') data.description = `A new description ${n} : « up 5 % » !`;
  return { ...entry, data, matterDigest: `${entry.matterDigest} edited ${n}` };
}

for (const [name, root, includeDrafts] of [
  ['the minimal fixture, drafts included', fixture('minimal'), true],
  ['the demo site', REPO, false],
] as const) {
  test(`${name}: each article's headline put into the graph gives the graph a full run gives`, async () => {
    const { raw, compile, config } = await siteAt(root, includeDrafts);
    const before = compile(raw);
    const articles = raw.entries.filter((e) => e.collection === 'articles');
    assert.ok(articles.length >= 4, `articles to edit: ${articles.length}`);
    let patched = 0;
    for (const [n, entry] of articles.entries()) {
      const edited = retitled(entry, n);
      assert.deepEqual(entryFrameInputs(edited), entryFrameInputs(entry), entry.file);
      assert.notDeepEqual(entryGraphInputs(edited), entryGraphInputs(entry), entry.file);
      const site = { ...raw, entries: raw.entries.map((e) => (e === entry ? edited : e)) };
      const edit = withEditedHeadlines(before.graph, before.findings, [edited], config.markdown);
      if (!edit) continue; // a draft left out, or an article with a finding: the full run decides
      patched++;
      const full = compile(site);
      assert.deepStrictEqual(edit.graph, full.graph, `${entry.file}: the graph differs from the graph stage's`);
      assert.ok(edit.own.length >= 1 && edit.own.every((r) => r.file === entry.file), entry.file);
      const replaced = new Set([...edit.own, ...edit.lists]);
      const changed = full.graph.routes.filter((r, i) => JSON.stringify(r) !== JSON.stringify(before.graph.routes[i]));
      assert.deepEqual(changed.map((r) => r.path).sort(), [...replaced].map((r) => r.path).sort(), `${entry.file}: the routes replaced are those that changed`);
    }
    assert.ok(patched >= articles.length / 2, `most articles take the headline path (${patched} of ${articles.length})`);
  });
}

test('any other front-matter edit changes the frame inputs: a date, a section, a line moved, a field added', async () => {
  const { raw } = await siteAt(fixture('minimal'), true);
  const entry = raw.entries.find((e) => e.collection === 'articles' && typeof e.data.date === 'string')!;
  const frame = JSON.stringify(entryFrameInputs(entry));
  const edits: Partial<RawEntry>[] = [
    { data: { ...entry.data, date: '1999-01-01' } },
    { data: { ...entry.data, sections: ['somewhere-else'] } },
    { data: { ...entry.data, description: 'added' }, fieldLines: { ...entry.fieldLines, description: 99 } },
    { fieldLines: { ...entry.fieldLines, title: (entry.fieldLines.title ?? 0) + 1 } },
    { bodyLine: entry.bodyLine + 1 },
  ];
  for (const edit of edits) assert.notEqual(JSON.stringify(entryFrameInputs({ ...entry, ...edit })), frame, JSON.stringify(edit));
  // A page's title is not a headline: its frame inputs are its graph inputs.
  const page = raw.entries.find((e) => e.collection === 'pages')!;
  assert.deepEqual(entryFrameInputs(page), entryGraphInputs(page));
});

test('an edit the graph cannot take without the graph stage: a title that does not validate, an article with a finding', async () => {
  const { raw, compile } = await siteAt(fixture('minimal'), true);
  const { graph, findings } = compile(raw);
  const article = raw.entries.find((e) => e.collection === 'articles')!;
  assert.equal(withEditedHeadlines(graph, findings, [{ ...article, data: { ...article.data, title: '  ' } }], FRENCH), null, 'an empty title');
  assert.equal(withEditedHeadlines(graph, findings, [{ ...article, data: { ...article.data, title: 42 } }], FRENCH), null, 'a number');
  const finding = { severity: 'warning' as const, rule: 'content/unknown-field' as const, file: article.file, message: 'm' };
  assert.equal(withEditedHeadlines(graph, [finding], [retitled(article, 1)], FRENCH), null, 'its lines or messages may change');
  assert.ok(withEditedHeadlines(graph, [], [retitled(article, 1)], FRENCH));
});
