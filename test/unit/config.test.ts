import assert from 'node:assert/strict';
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/build/config/load.js';
import { invalidLocaleMessage, resolveConfig } from '../../src/build/config/resolve.js';
import { siteConfigSchema } from '../../src/build/config/schema.js';
import type { Diagnostic } from '../../src/errors/diagnostic.js';
import { DiagnosticsError } from '../../src/errors/diagnostic.js';
import { BUNDLE_KEPT_MS } from '../../src/files/module-bundle.js';
import { fixture, REPO, writableFixture } from '../helpers.js';

const base = {
  identity: 'b',
  identities: { a: { site: 'alpha', name: 'ann', siteUrl: 'https://a.example' }, b: { site: 'beta', name: 'bob', siteUrl: 'https://b.example/' } },
  locales: [
    { code: 'en', hrefLang: 'en-CA' },
    { code: 'fr', hrefLang: 'fr-CA' },
  ],
};
const resolve = (input: unknown, identity?: string) =>
  resolveConfig(siteConfigSchema.parse(input), { root: '/site', configFile: 'site.config.ts', identity, availableLocales: new Set(['en', 'fr']), module: { path: '/site/.ir-site/cache/site.config.0.mjs', hash: '0', packages: {}, files: [] } });

test('defaults fill every optional part; the site URL loses its trailing slash', () => {
  const config = resolve(base);
  assert.ok(!Array.isArray(config));
  assert.equal(config.identityKey, 'b');
  assert.equal(config.identity.siteUrl, 'https://b.example');
  assert.deepEqual(config.legacyPrefixes, ['cn']);
  assert.equal(config.integrations.tagManager.dataLayerName, 'dataLayer');
  // SPEC.md section 9: script load timeout 5000 ms, font load timeout 3000 ms.
  assert.equal(config.integrations.fontKit.scriptTimeout, 5000);
  assert.equal(config.integrations.fontKit.fontTimeout, 3000);
  assert.equal(config.dirs.out, '/site/public');
  assert.ok(Object.isFrozen(config));
});

test('--site picks the other identity', () => {
  const config = resolve(base, 'a');
  assert.ok(!Array.isArray(config));
  assert.equal(config.identity.site, 'alpha');
});

test('an unknown identity is an error naming the configured ones', () => {
  const problems = resolve(base, 'zzz') as Diagnostic[];
  assert.match(problems[0]!.message, /unknown site identity "zzz"/);
  assert.match(problems[0]!.hint!, /a, b/);
});

test('a name Object\'s prototype holds (constructor, toString, __proto__) is no identity either', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const problems = resolve(base, name) as Diagnostic[];
    assert.ok(Array.isArray(problems), name);
    assert.match(problems[0]!.message, new RegExp(`unknown site identity "${name}"`));
  }
});

test('a legacy prefix that is a locale code or a folder the build writes is a configuration error', () => {
  for (const prefix of ['fr', 'static', 'page-data', 'search-index']) {
    const problems = resolve({ ...base, legacyPrefixes: [prefix] }, 'a') as Diagnostic[];
    assert.ok(Array.isArray(problems), prefix);
    assert.ok(problems.some((p) => p.field === 'legacyPrefixes' && p.message.includes(`"${prefix}" cannot be a legacy prefix`)), JSON.stringify(problems));
  }
  assert.ok(!Array.isArray(resolve({ ...base, legacyPrefixes: ['cn', 'zh'] }, 'a')));
});

test('two locales whose codes differ only in case are one locale listed twice (one folder on macOS and Windows)', () => {
  const input = siteConfigSchema.parse({ ...base, locales: [{ code: 'en', hrefLang: 'en-CA' }, { code: 'EN', hrefLang: 'en-US' }] });
  const problems = resolveConfig(input, { root: '/site', configFile: 'site.config.ts', identity: 'a', availableLocales: new Set(['en', 'EN']), module: { path: '/site/.ir-site/cache/site.config.0.mjs', hash: '0', packages: {}, files: [] } });
  assert.ok(Array.isArray(problems));
  assert.ok(problems.some((p) => p.field === 'locales' && /locale "EN" is listed twice \(its code differs from another only in case\)/.test(p.message)), JSON.stringify(problems));
});

test('an unknown locale fails with the SPEC message', () => {
  const problems = resolve({ ...base, locales: [...base.locales, { code: 'de', hrefLang: 'de-DE' }] }) as Diagnostic[];
  assert.equal(problems[0]!.message, 'Invalid localed provided: de. See your i18n config file for a list of available locales.');
  assert.equal(invalidLocaleMessage('x'), 'Invalid localed provided: x. See your i18n config file for a list of available locales.');
});

test('a malformed language tag and a default locale that is not configured both fail', () => {
  const tag = resolve({ ...base, locales: [{ code: 'en', hrefLang: 'not a tag!' }, base.locales[1]] }) as Diagnostic[];
  assert.match(tag[0]!.message, /Invalid localed provided: not a tag!/);
  const def = resolve({ ...base, defaultLocale: 'fr-x' }) as Diagnostic[];
  assert.match(def[0]!.message, /Invalid localed provided: fr-x/);
});

test('the sign-in section is validated', () => {
  const bad = siteConfigSchema.safeParse({
    ...base,
    identities: { b: { ...base.identities.b, signIn: { provider: 'p', region: 'nowhere', userPoolId: 'x', clientId: 'y', mandatory: 'yes' } } },
  });
  assert.ok(!bad.success);
  const fields = bad.error.issues.map((i) => i.path.join('.'));
  assert.deepEqual(fields.sort(), ['identities.b.signIn.mandatory', 'identities.b.signIn.region']);
});

test('loadConfig bundles site.config.ts, including relative imports and defineConfig', async () => {
  const config = await loadConfig({ root: fixture('content-errors') });
  assert.equal(config.identityKey, 'second');
  assert.equal(config.identity.signIn?.region, 'us-west-2');
});

test('loadConfig: an edited config is bundled anew; the last bundle stays an hour, for a build that may still use it', async () => {
  const root = await writableFixture('minimal', 'config-bundles');
  const cache = path.join(root, '.ir-site', 'cache');
  const bundles = async () => (await readdir(cache)).filter((f) => f.startsWith('site.config.')).sort();
  await loadConfig({ root });
  const [first] = await bundles();
  const file = path.join(root, 'site.config.ts');
  await writeFile(file, `${await readFile(file, 'utf8')}\nexport const edited = true;\n`);
  await loadConfig({ root });
  const both = await bundles();
  assert.equal(both.length, 2, 'a build that loaded the first may still start its workers from it');
  const [second] = both.filter((f) => f !== first);

  const overAnHourAgo = new Date(Date.now() - BUNDLE_KEPT_MS - 60_000);
  await utimes(path.join(cache, first!), overAnHourAgo, overAnHourAgo);
  await loadConfig({ root });
  assert.deepEqual(await bundles(), [second], 'a bundle untouched for over an hour is removed');
});

test('loadConfig replaces the bundle whole, never rewrites it in place: another build may be importing it', async () => {
  const root = await writableFixture('minimal', 'config-bundle-replaced');
  const config = await loadConfig({ root });
  const before = await stat(config.module.path);
  const again = await loadConfig({ root });
  assert.equal(again.module.path, config.module.path, 'the same config, the same bundle');
  assert.notEqual((await stat(again.module.path)).ino, before.ino, 'a new file was renamed over it');
  assert.deepEqual((await readdir(path.dirname(config.module.path))).filter((f) => !/^site\.config\.[0-9a-f]+\.mjs$/.test(f) && f.startsWith('site.config')), [], 'no temporary file left');
});

test('loadConfig reports an unknown locale from the real config file', async () => {
  await assert.rejects(loadConfig({ root: fixture('bad-locale') }), (error: unknown) => {
    assert.ok(error instanceof DiagnosticsError);
    assert.equal(error.diagnostics[0]!.file, 'site.config.ts');
    assert.match(error.diagnostics[0]!.message, /^Invalid localed provided: xx\./);
    return true;
  });
});

/** Loads the minimal fixture's config with `edit` applied to its text; the diagnostics it fails with. */
async function configErrors(copy: string, edit: (text: string) => string): Promise<Diagnostic[]> {
  const root = await writableFixture('minimal', copy);
  const file = path.join(root, 'site.config.ts');
  await writeFile(file, edit(await readFile(file, 'utf8')));
  try {
    await loadConfig({ root });
  } catch (error) {
    assert.ok(error instanceof DiagnosticsError, String(error));
    return error.diagnostics;
  }
  assert.fail('expected the configuration to be refused');
}

test('a siteUrl with a path is refused: pages link each other from the root', async () => {
  const diagnostics = await configErrors('config-site-url-path', (t) => t.replace("siteUrl: 'https://beta.example/'", "siteUrl: 'https://beta.example/ir/'"));
  const d = diagnostics.find((x) => x.field?.endsWith('.siteUrl'));
  assert.ok(d, JSON.stringify(diagnostics));
  assert.match(d.message, /the address of the site's root, with no path/);
});

test('a siteUrl that is no web address gets one message, which says what to write', async () => {
  for (const url of ['nope', 'ftp://beta.example']) {
    const diagnostics = await configErrors('config-site-url-invalid', (t) => t.replace("siteUrl: 'https://beta.example/'", `siteUrl: '${url}'`));
    const messages = diagnostics.filter((x) => x.field?.endsWith('.siteUrl')).map((x) => x.message);
    assert.equal(messages.length, 1, `${url}: ${JSON.stringify(messages)}`);
    assert.match(messages[0]!, /expected a web address starting with http:\/\/ or https:\/\//);
  }
});

test('unknown keys in site.config.ts are errors at their line, with the closest option, at every depth', async () => {
  const cases: { edit: (text: string) => string; key: string; field: string; guess: RegExp }[] = [
    { edit: (t) => t.replace(/identity:/, "defaultLocal: 'fr',\n  identity:"), key: 'defaultLocal', field: 'defaultLocal', guess: /did you mean "defaultLocale"/ },
    { edit: (t) => t.replace(/identity:/, "legacyPrefix: ['cn'],\n  identity:"), key: 'legacyPrefix', field: 'legacyPrefix', guess: /did you mean "legacyPrefixes"/ },
    { edit: (t) => t.replace(/paths: \{/, "paths: { templats: 'templates',"), key: 'templats', field: 'paths.templats', guess: /did you mean "templates"/ },
    { edit: (t) => t.replace(/identity:/, "integrations: { tagManger: { containerId: 'GTM-1' } },\n  identity:"), key: 'tagManger', field: 'integrations.tagManger', guess: /did you mean "tagManager"/ },
    { edit: (t) => t.replace(/siteUrl:/, "siteURL: 'https://x.example',\n      siteUrl:"), key: 'siteURL', field: '', guess: /did you mean "siteUrl"/ },
    { edit: (t) => t.replace(/identity:/, "'markdwn': { frenchTypography: false },\n  identity:"), key: 'markdwn', field: 'markdwn', guess: /did you mean "markdown"/ },
    { edit: (t) => t.replace(/identity:/, 'colourScheme: 1,\n  identity:'), key: 'colourScheme', field: 'colourScheme', guess: /the keys here are: identity, identities, .*paths/ },
  ];
  for (const [i, c] of cases.entries()) {
    const root = `config-unknown-${i}`;
    const diagnostics = await configErrors(root, c.edit);
    const d = diagnostics.find((x) => x.rule === 'config/unknown-key');
    assert.ok(d, `${c.key}: ${JSON.stringify(diagnostics)}`);
    assert.equal(d.severity, 'error');
    assert.equal(d.file, 'site.config.ts');
    if (c.field) assert.equal(d.field, c.field);
    else assert.match(d.field ?? '', new RegExp(`^identities\\.[\\w-]+\\.${c.key}$`));
    assert.match(d.message, new RegExp(`unknown key "${c.key}"`));
    assert.match(d.hint ?? '', c.guess);
    const text = await readFile(path.join(REPO, 'test', '.tmp', root, 'site.config.ts'), 'utf8');
    assert.ok(d.line !== undefined && text.split('\n')[d.line - 1]!.includes(c.key), `${c.key} is on line ${d.line}`);
  }
});

test('a value of the wrong kind in site.config.ts is an error at its line, at any depth', async () => {
  const root = 'config-wrong-kind';
  const diagnostics = await configErrors(root, (t) => t.replace(/identity:/, "compress: 'yes' as unknown as boolean,\n  identity:").replace(/paths: \{/, 'paths: { out: 5 as unknown as string,'));
  const text = (await readFile(path.join(REPO, 'test', '.tmp', root, 'site.config.ts'), 'utf8')).split('\n');
  for (const [field, written] of [['compress', "compress: 'yes'"], ['paths.out', 'out: 5']] as const) {
    const d = diagnostics.find((x) => x.rule === 'config/invalid' && x.field === field);
    assert.ok(d?.line !== undefined && text[d.line - 1]!.includes(written), `${field}: ${JSON.stringify(diagnostics)}`);
  }
});

test('with the build cache, site.config.ts is bundled again only when a file esbuild read for it changed', async () => {
  const { BundleCache } = await import('../../src/incremental/bundle-cache.js');
  const { diskMemo } = await import('../../src/incremental/memo.js');
  const { toolFingerprint } = await import('../../src/incremental/fingerprint.js');
  const { configCacheDir } = await import('../../src/build/config/load.js');
  const { configBundleMemo } = await import('../../src/build/up-to-date.js');
  const root = await writableFixture('minimal', 'config-bundle-cache');
  const file = path.join(root, 'site.config.ts');
  const source = await readFile(file, 'utf8');
  assert.match(source, /name: 'bob'/);
  await writeFile(file, `import { NAME } from './brand';\n${source.replace("name: 'bob'", 'name: NAME')}`);
  const brand = path.join(root, 'brand.ts');
  await writeFile(brand, "export const NAME = 'bob';\n");
  const age = async (msAgo: number) => {
    const when = new Date(Date.now() - msAgo);
    for (const f of [file, brand, root]) await utimes(f, when, when);
  };
  const load = async () => {
    const bundles = await BundleCache.open(diskMemo(configCacheDir(root), toolFingerprint()));
    const config = await loadConfig({ root, bundles: configBundleMemo(bundles) });
    await bundles.save();
    return { name: config.identity.name, module: config.module.path, written: (await stat(config.module.path)).mtimeMs };
  };
  await load(); // makes the cache folder, which changes the site folder's time
  await age(3_600_000);
  const first = await load();
  assert.equal(first.name, 'bob');
  const second = await load();
  assert.deepEqual(second, first, 'the same bundle, not even written again: esbuild did not run');

  // The imported file, same size, other bytes, dated back: only its time tells.
  await writeFile(brand, "export const NAME = 'rob';\n");
  await age(1_800_000);
  const edited = await load();
  assert.equal(edited.name, 'rob');
  assert.notEqual(edited.module, first.module);
});
