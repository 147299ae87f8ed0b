// Issue 20 point 5 on the minimal fixture: one content tree, two identities. Tokens from
// site.config.ts in bodies and front matter, {{#only}} blocks, `identities:` on entries and
// `en.<identity>.md` variants, and the problems each may have.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { buildFailure, buildToMemory, findDiagnostic, writableFixture } from '../helpers.js';

const root = await writableFixture('minimal', 'identity-tokens');
const write = (file: string, text: string) => writeFile(path.join(root, file), text);

const config = await readFile(path.join(root, 'site.config.ts'), 'utf8');
await write(
  'site.config.ts',
  config
    .replace(
      "first: { site: 'alpha', name: 'ann', siteUrl: 'https://alpha.example' },",
      "first: { site: 'alpha', name: 'ann', siteUrl: 'https://alpha.example', tokens: { short: 'Alpha', company: { en: 'Alpha Corporation', fr: 'Société Alpha' }, evil: '<img src=/x.png onerror=alert(1)><script>alert(2)</script>[x](javascript:alert(3))' } },",
    )
    .replace("siteUrl: 'https://beta.example/',", "siteUrl: 'https://beta.example/', tokens: { short: 'Beta', company: { en: 'Beta Corporation', fr: 'Société Beta' }, evil: '' },"),
);
await write('content/pages/what-is/en.md', `---
title: What is {{short}}
description: "{{company}} in brief"
path: /what-is-{site}/
---
About {{company}} ({{ short }}), at {{siteUrl}}.

{{#only first}}
Only in alpha's build.
{{/only}}
{{#only second}}
Only in beta's build.
{{/only}}

Evil token: {{evil}}
`);
await write('content/pages/what-is/fr.md', `---
title: "{{short}} en bref"
description: "La {{company}}"
path: /what-is-{site}/
---
À propos de la {{company}}.
`);
await write('content/pages/contact-us/en.first.md', `---
title: Contact {{short}}
description: Alpha's own contact page
form: contact
---
Alpha's head office.
`);
for (const l of ['en', 'fr']) {
  const text = await readFile(path.join(root, `content/articles/press-one/${l}.md`), 'utf8');
  await write(`content/articles/press-one/${l}.md`, text.replace('---\n', '---\nidentities: [second]\n'));
}

const alpha = await buildToMemory(root, { site: 'first' });
const beta = await buildToMemory(root, { site: 'second' });

test('tokens become the built identity\'s values, per language, in the body and the front matter', () => {
  const a = alpha.out.text('what-is-alpha/index.html');
  assert.match(a, /<h1[^>]*>What is Alpha<\/h1>/);
  assert.match(a, /About Alpha Corporation \(Alpha\), at <a href="https:\/\/alpha\.example">/);
  assert.match(a, /<meta name="description" content="Alpha Corporation in brief"/);
  assert.match(alpha.out.text('fr/what-is-alpha/index.html'), /La Société Alpha|la Société Alpha/);
  const b = beta.out.text('what-is-beta/index.html');
  assert.match(b, /About Beta Corporation \(Beta\), at <a href="https:\/\/beta\.example">/);
  assert.doesNotMatch(b, /\{\{|Alpha/);
});

test('{{#only}} blocks: each build has its own paragraph and not the other\'s', () => {
  const a = alpha.out.text('what-is-alpha/index.html');
  const b = beta.out.text('what-is-beta/index.html');
  assert.match(a, /<p>Only in alpha&#x27;s build\.<\/p>|<p>Only in alpha’s build\.<\/p>|Only in alpha.s build/);
  assert.doesNotMatch(a, /Only in beta/);
  assert.match(b, /Only in beta.s build/);
  assert.doesNotMatch(b, /Only in alpha|#only|\/only/);
});

test('a token\'s value is sanitised like any body: no script, no event handler, no javascript: link', () => {
  const a = alpha.out.text('what-is-alpha/index.html');
  const body = a.slice(a.indexOf('Evil token'), a.indexOf('</main>'));
  assert.ok(body.length > 0, 'the paragraph is there');
  assert.doesNotMatch(body, /<script>alert|onerror=|href="javascript:/i);
});

test('identities: on an entry publishes it in those builds only; en.<identity>.md replaces en.md in that build', () => {
  const alphaPaths = new Set(alpha.result.graph.routes.map((r) => r.path));
  const betaPaths = new Set(beta.result.graph.routes.map((r) => r.path));
  assert.ok(betaPaths.has('/article/press-one/') && betaPaths.has('/press-one/'));
  assert.ok(![...alphaPaths].some((p) => p.includes('press-one')), 'no press-one page in alpha');
  assert.match(alpha.out.text('contact-us/index.html'), /Alpha.s head office/);
  assert.match(beta.out.text('contact-us/index.html'), /Write to us/);
  assert.doesNotMatch(beta.out.text('contact-us/index.html'), /head office/);
  // The variant is the English page of the same entry: the French one is still its translation.
  const route = alpha.result.graph.routes.find((r) => r.path === '/contact-us/')!;
  assert.match(route.file!, /content\/pages\/contact-us\/en\.first\.md$/);
  assert.deepEqual(route.alternates.map((a) => a.path), ['/contact-us/', '/fr/contact-us/']);
});

test('an unknown token, an unclosed block, an unknown identity: build errors at the line, naming what is known', async () => {
  const broken = await writableFixture('minimal', 'identity-broken');
  await writeFile(path.join(broken, 'content/pages/what-is/en.md'), '---\ntitle: What\npath: /what-is-{site}/\n---\nfirst line\n{{shrot}} here\n');
  await writeFile(path.join(broken, 'content/pages/home/en.md'), '---\ntitle: Welcome\ntemplate: home\n---\nHello.\n{{#only second}}\nnever closed\n');
  await writeFile(path.join(broken, 'content/pages/contact-us/en.nope.md'), '---\ntitle: Contact\n---\nx\n');
  await writeFile(path.join(broken, 'content/pages/insights/en.md'), '---\ntitle: Insights\ntemplate: section\nsection: insights\ndescription: "About {{compny}}"\n---\nx\n');
  const diagnostics = await buildFailure(broken);
  // In front matter: at the field's line, naming the field.
  const field = findDiagnostic(diagnostics, { rule: 'content/identity-text', file: 'content/pages/insights/en.md' });
  assert.deepEqual([field.line, field.field], [5, 'description']);
  assert.match(field.message, /unknown identity token "\{\{compny\}\}"/);
  const token = findDiagnostic(diagnostics, { rule: 'content/identity-text', file: 'content/pages/what-is/en.md' });
  assert.equal(token.line, 6);
  assert.match(token.message, /unknown identity token "\{\{shrot\}\}"/);
  assert.match(token.hint ?? '', /known: name, site, siteUrl/);
  const block = findDiagnostic(diagnostics, { rule: 'content/identity-text', file: 'content/pages/home/en.md' });
  assert.equal(block.line, 6);
  assert.match(block.message, /never closed/);
  findDiagnostic(diagnostics, { rule: 'content/identity-text', file: 'content/pages/contact-us/en.nope.md' });
});

test('every unknown token of a file is reported, in its front matter and its body, two on a line included', async () => {
  const broken = await writableFixture('minimal', 'identity-many');
  await writeFile(path.join(broken, 'content/pages/what-is/en.md'), '---\ntitle: "What {{a}}"\ndescription: "{{b}}"\n---\n{{c}} and {{d}}\nfine\n{{e}}\n');
  const found = (await buildFailure(broken)).filter((d) => d.rule === 'content/identity-text' && d.file === 'content/pages/what-is/en.md');
  assert.deepEqual(
    found.map((d) => [d.line, /"\{\{(\w+)\}\}"/.exec(d.message)?.[1]]).sort(),
    [[2, 'a'], [3, 'b'], [5, 'c'], [5, 'd'], [7, 'e']],
  );
});
