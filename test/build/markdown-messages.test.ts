// What the site's markdown plugins say about a body (`file.message()`; a message marked fatal):
// a warning (an error) at the body's file and line, reported by every build, dev and the
// command, the pages a build did not render again included. The fixture's plugins: remark-lint's
// no-html rule from npm, and one of the site's own written here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from '../../src/build/index.js';
import { check } from '../../src/commands/check/index.js';
import { siteChecks } from '../../src/commands/check/site-warnings.js';
import { DevSite } from '../../src/commands/server/dev-site.js';
import { StrictBuildError, type Diagnostic } from '../../src/errors/diagnostic.js';
import { RACY_MS } from '../../src/incremental/racy.js';
import { buildFailure, fileTree, REPO, writableFixture } from '../helpers.js';

const COMMENTARY = 'content/articles/commentary-q2-2025/en.md';
const PRESS = 'content/articles/press-one/en.md';
const PRESS_FR = 'content/articles/press-one/fr.md';

/** A plugin of the site's own: a warning without a position, and a note (file.info) that is not reported. */
const NOTES_PLUGIN = `export function remarkNotes() {
  return (_tree: unknown, file: { value: unknown; message(reason: string): unknown; info(reason: string): unknown }) => {
    if (String(file.value).includes('NAVPS')) file.message('spell NAVPS out on first use');
    file.info('read by remarkNotes');
  };
}
`;

const sites: string[] = [];
after(() => Promise.all(sites.map((site) => rm(site, { recursive: true, force: true }))));

/** A copy of the fixture whose remark plugins start with `plugins` (site.config.ts source, e.g. `[remarkLintNoHtml, ['error']]`). */
async function siteWith(name: string, plugins: string): Promise<string> {
  const site = await writableFixture('markdown-plugins', name);
  sites.push(site);
  await writeFile(path.join(site, 'plugins', 'remark-notes.ts'), NOTES_PLUGIN);
  const config = path.join(site, 'site.config.ts');
  const text = await readFile(config, 'utf8');
  const imports = "import remarkLintNoHtml from 'remark-lint-no-html';\nimport { remarkNotes } from './plugins/remark-notes.js';\n";
  await writeFile(config, imports + text.replace('remarkPlugins: [', `remarkPlugins: [${plugins}, `));
  return site;
}

/** Line numbers (1-based) of the lines of `file` that hold `text`. */
async function linesWith(site: string, file: string, text: string): Promise<number[]> {
  const lines = (await readFile(path.join(site, file), 'utf8')).split('\n');
  return lines.flatMap((line, i) => (line.includes(text) ? [i + 1] : []));
}

/** The line after the front matter's closing `---`: where a body starts. */
async function bodyLine(site: string, file: string): Promise<number> {
  return (await linesWith(site, file, '---'))[1]! + 1;
}

const plugins = (diagnostics: readonly Diagnostic[]) =>
  diagnostics
    .filter((d) => d.rule === 'config/markdown-message')
    .map((d) => `${d.severity} ${d.file}:${d.line}:${d.column ?? '-'} ${d.message}`)
    .sort();

/** What the fixture's bodies make the two plugins say, with no-html as a warning. */
async function expectedWarnings(site: string): Promise<string[]> {
  const [script] = await linesWith(site, COMMENTARY, '<script>');
  const [link] = await linesWith(site, COMMENTARY, 'javascript:');
  const html = 'Unexpected HTML, use markdown instead (remark-lint:no-html)';
  const commentary = [`${script}:1`, `${link}:1`, `${link}:${(await readFile(path.join(site, COMMENTARY), 'utf8')).split('\n')[link! - 1]!.indexOf('</a>') + 1}`];
  const navps = [];
  for (const file of [PRESS, PRESS_FR]) if ((await readFile(path.join(site, file), 'utf8')).includes('NAVPS')) navps.push(`warning ${file}:${await bodyLine(site, file)}:- spell NAVPS out on first use`);
  return [...commentary.map((at) => `warning ${COMMENTARY}:${at} ${html}`), ...navps].sort();
}

test('a warning at the body\'s line, in every build: rendered on threads or not, kept pages, an unchanged output, the command up to date', async () => {
  const site = await siteWith('markdown-messages', 'remarkLintNoHtml, remarkNotes');
  const expected = await expectedWarnings(site);
  assert.ok(expected.length >= 4, `the fixture gives each plugin something to say: ${expected.join('\n')}`);

  const first = await build({ root: site, siteChecks, workers: 2 });
  assert.equal(first.render.workers, 2);
  assert.deepEqual(plugins(first.diagnostics), expected, 'rendered on threads');
  assert.ok(first.diagnostics.every((d) => !d.message.includes('read by remarkNotes')), 'file.info() is no warning');

  // Another body edited: the commentary's page is kept as it was, its warnings are the last build's.
  await appendFile(path.join(site, PRESS), '\nOne more sentence.\n');
  const second = await build({ root: site, siteChecks, workers: 0 });
  assert.ok(second.render.kept > 0 && second.render.rendered < second.pages, `a page or two rendered: ${JSON.stringify(second.render)}`);
  assert.deepEqual(plugins(second.diagnostics), expected, 'pages kept');

  const third = await build({ root: site, siteChecks });
  assert.equal(third.outputUnchanged, true);
  assert.deepEqual(plugins(third.diagnostics), expected, 'output unchanged');

  const checked = await check({ root: site });
  assert.deepEqual(plugins(checked.diagnostics), expected, 'ir-site check');

  // The command: the second run is up to date (nothing loaded) and says them again. The files
  // edited just now must first be older than the up-to-date record trusts (racy.ts).
  await sleep(RACY_MS + 100);
  const cli = () => spawnSync(process.execPath, [path.join(REPO, 'bin', 'ir-site.js'), 'build', '--root', site, '--profile'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  for (const [i, run] of [cli(), cli()].entries()) {
    assert.equal(run.status, 0, run.stderr);
    const said = `${run.stdout}${run.stderr}`;
    const warned = said.match(/^content\/\S+:\d+(:\d+)?  warning  (Unexpected HTML, use markdown instead \(remark-lint:no-html\)|spell NAVPS out on first use)$/gm);
    assert.equal(warned?.length, expected.length, said);
    if (i === 1) assert.match(said, /output +up to date: .* nothing loaded, rendered or written/);
  }

  // --strict refuses them, and leaves the output as it was.
  const before = await fileTree(path.join(site, 'public'));
  await appendFile(path.join(site, PRESS), '\nAnd another.\n');
  await assert.rejects(build({ root: site, siteChecks, strict: true }), (error: unknown) => {
    assert.ok(error instanceof StrictBuildError);
    assert.deepEqual(plugins(error.diagnostics), expected.map((line) => line.replace(/^warning/, 'error')));
    return true;
  });
  assert.deepEqual(await fileTree(path.join(site, 'public')), before, 'nothing written');

  // The body fixed: its warnings go, the other page's stay.
  const commentary = await readFile(path.join(site, COMMENTARY), 'utf8');
  await writeFile(path.join(site, COMMENTARY), commentary.replace(/^<script>.*\n/m, '').replace(/^<a href="javascript.*\n/m, ''));
  const fixed = await build({ root: site, siteChecks });
  assert.deepEqual(plugins(fixed.diagnostics), expected.filter((line) => !line.includes(COMMENTARY)));
});

test('a message the plugin marks fatal (remark-lint\'s error level) is an error at its line, and the build stops; on threads too', async () => {
  const site = await siteWith('markdown-messages-fatal', "[remarkLintNoHtml, ['error']], remarkNotes");
  const [script] = await linesWith(site, COMMENTARY, '<script>');
  for (const workers of [0, 2]) {
    const diagnostics = await buildFailure(site, { cache: false, workers });
    const errors = diagnostics.filter((d) => d.rule === 'config/markdown-message');
    assert.equal(errors.length, 1, `one error, the page's first: ${JSON.stringify(diagnostics)}`);
    assert.deepEqual([errors[0]!.severity, errors[0]!.file, errors[0]!.line, errors[0]!.message], ['error', COMMENTARY, script, 'Unexpected HTML, use markdown instead (remark-lint:no-html)']);
    assert.match(errors[0]!.hint ?? '', /site\.config\.ts/);
  }
});

test('dev: the warnings of every page, kept across edits of other bodies, gone with the body fixed', async () => {
  const site = await siteWith('markdown-messages-dev', 'remarkLintNoHtml, remarkNotes');
  const expected = await expectedWarnings(site);
  const devSite = new DevSite({ root: site });
  try {
    const initial = await devSite.rebuildAll();
    assert.ok(initial.ok, JSON.stringify(initial.diagnostics));
    assert.deepEqual(plugins(initial.diagnostics), expected);

    await appendFile(path.join(site, PRESS), '\nOne more sentence.\n');
    const body = await devSite.applyChanges([path.join(site, PRESS)]);
    assert.equal(body.kind, 'body');
    assert.deepEqual(plugins(body.diagnostics), expected, 'the commentary, not rendered again, still warned about');

    const commentary = await readFile(path.join(site, COMMENTARY), 'utf8');
    await writeFile(path.join(site, COMMENTARY), commentary.replace(/^<script>.*\n/m, '').replace(/^<a href="javascript.*\n/m, ''));
    const fixed = await devSite.applyChanges([path.join(site, COMMENTARY)]);
    assert.ok(fixed.ok);
    assert.deepEqual(plugins(fixed.diagnostics), expected.filter((line) => !line.includes(COMMENTARY)));
  } finally {
    devSite.close();
    await devSite.settled();
  }
});
