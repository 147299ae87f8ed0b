// graphKey: the same for inputs that make the same routes but for their text, different
// whenever something the validate and graph stages read changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configKey, graphKey, type GraphInputs } from '../../src/incremental/keys.js';
import type { RawEntry, RawSite } from '../../src/build/content/raw.js';
import type { ProcessedImage } from '../../src/shared/image-data.js';

const entry = (file: string, body: string, extra: Partial<RawEntry> = {}): RawEntry => ({
  collection: 'articles',
  key: file.split('/')[2]!,
  locale: 'en',
  file,
  data: { title: 'T' },
  body,
  bodyLine: 5,
  fieldLines: { title: 2 },
  bodyDigest: 'b-' + body,
  matterDigest: 'm-' + file,
  ...extra,
});

const image = (width: number): ProcessedImage => ({ width, height: 10, format: 'jpeg', variants: [], placeholder: '', displayWidth: width });

function inputs(change: (raw: RawSite, rest: Omit<GraphInputs, 'raw'>) => void = () => {}): GraphInputs {
  const raw: RawSite = {
    entries: [entry('content/articles/a/en.md', 'First body.'), entry('content/articles/b/en.md', 'Second body.')],
    portfolio: [],
    website: { file: 'content/site.yaml', data: { asAtDate: '2025-06-30' }, fieldLines: {} },
    navigation: null,
    redirects: null,
    strings: [{ locale: 'en', file: 'locales/en.json', data: { home: 'Home' }, keyLines: { home: 2 } }],
    assets: [{ dir: 'content/articles/a', name: 'chart.png', absPath: '/site/content/articles/a/chart.png', size: 100, width: 10, height: 10 }],
    stylesheet: null,
  };
  const rest = { fingerprint: 'f', configKey: 'c', includeDrafts: false, images: new Map([['/x/one.jpg', image(1)], ['/x/two.jpg', image(2)]]) };
  change(raw, rest);
  return { raw, ...rest };
}

test('graphKey ignores body text (images a body names are resolved when it is compiled) and the order images finished in', () => {
  const reference = graphKey(inputs());
  assert.ok(reference);
  assert.equal(graphKey(inputs((raw) => (raw.entries[0] = { ...raw.entries[0]!, body: 'Edited body.\n\n![Chart](chart.png "fullWidth")', bodyDigest: 'other' }))), reference);
  assert.equal(graphKey(inputs((_, rest) => (rest.images = new Map([...rest.images].reverse())))), reference);
});

test('graphKey changes with whatever the later stages read', () => {
  const reference = graphKey(inputs());
  const changes: [string, Parameters<typeof inputs>[0]][] = [
    ['front matter', (raw) => (raw.entries[1] = { ...raw.entries[1]!, matterDigest: 'edited' })],
    ['an entry added', (raw) => raw.entries.push(entry('content/articles/c/en.md', ''))],
    ['an entry moved', (raw) => (raw.entries[1] = { ...raw.entries[1]!, file: 'content/articles/z/en.md' })],
    ['an asset', (raw) => (raw.assets[0]!.size = 101)],
    ['site.yaml', (raw) => ((raw.website!.data as Record<string, string>).asAtDate = '2025-09-30')],
    ['a locale string', (raw) => (raw.strings[0]!.data = { home: 'Accueil' })],
    ['a processed image', (_, rest) => (rest.images = new Map([...rest.images, ['/x/one.jpg', image(3)]]))],
    ['the configuration', (_, rest) => (rest.configKey = 'c2')],
    ['drafts', (_, rest) => (rest.includeDrafts = true)],
    ['ir-site itself', (_, rest) => (rest.fingerprint = 'f2')],
  ];
  for (const [what, change] of changes) assert.notEqual(graphKey(inputs(change)), reference, what);
});

test('the configuration key takes markdown plugin options JSON cannot hold (a BigInt, a RegExp, a Map, a Set, an object that refers to itself), and still tells them apart', () => {
  const circular: Record<string, unknown> = { depth: 2 };
  circular.self = circular;
  const withOptions = (options: unknown) => ({ markdown: { remarkPlugins: [[() => undefined, options]] }, module: { hash: 'h', packages: { 'remark-x': '1.0.0' } } });
  const keys = [
    withOptions({ big: 10n }),
    withOptions({ big: 11n }),
    withOptions(circular),
    withOptions({ depth: 3, self: null }),
    withOptions({ re: /a/ }),
    withOptions({ re: /b/ }),
    withOptions({ re: /a/i }),
    withOptions({ terms: new Map([['a', 'x']]) }),
    withOptions({ terms: new Map([['a', 'y']]) }),
    withOptions({ words: new Set(['a']) }),
    withOptions({ words: new Set(['b']) }),
    withOptions({ words: {} }),
  ].map(configKey);
  assert.equal(new Set(keys).size, keys.length);
  assert.equal(configKey(withOptions({ big: 10n })), keys[0], 'the same options, the same key');
  const upgraded = { ...withOptions({ big: 10n }), module: { hash: 'h', packages: { 'remark-x': '1.1.0' } } };
  assert.notEqual(configKey(upgraded), keys[0], 'a plugin package upgraded');
});
