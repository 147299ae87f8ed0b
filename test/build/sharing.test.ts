// Issue 20 points 10, 11 and 12 in the built files of the minimal fixture: sharing meta tags
// and JSON-LD per page, cover images, sitemap lastmod, the scoped search pages, PNG icons
// and share cards made with sharp, and image layouts chosen by the content.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { sharePng } from '../../src/build/emit/icons.js';
import { buildToMemory } from '../helpers.js';
import { sharingFixture } from './sharing-fixture.js';

const root = await sharingFixture('sharing');
const { out } = await buildToMemory(root);
const head = (file: string) => out.text(file).slice(0, out.text(file).indexOf('</head>'));
const meta = (file: string, property: string) => new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`).exec(head(file))?.[1];
const jsonLd = (file: string) => {
  const m = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(head(file));
  return m ? (JSON.parse(m[1]!) as Record<string, unknown>) : null;
};

test('every page shares its canonical URL, type, image and a large card', () => {
  assert.equal(meta('contact-us/index.html', 'og:url'), 'https://beta.example/contact-us/');
  assert.equal(meta('contact-us/index.html', 'og:type'), 'website');
  assert.equal(meta('contact-us/index.html', 'og:image'), 'https://beta.example/share-en.png', 'the identity\'s card without a cover');
  assert.equal(meta('fr/contact-us/index.html', 'og:image'), 'https://beta.example/share-fr.png');
  assert.equal(meta('contact-us/index.html', 'twitter:card'), 'summary_large_image');
  // The root copy of a press release shares the canonical address; its cover is its image.
  assert.equal(meta('press-one/index.html', 'og:url'), 'https://beta.example/article/press-one/');
  assert.equal(meta('article/press-one/index.html', 'og:type'), 'article');
  assert.match(meta('article/press-one/index.html', 'og:image')!, /^https:\/\/beta\.example\/static\/images\/chart-1200\.[0-9a-f]+\.png$/);
  assert.equal(meta('article/press-one/index.html', 'og:image:alt'), 'A returns chart');
  assert.equal(meta('article/press-one/index.html', 'article:modified_time'), '2025-04-02');
  assert.equal(meta('your-team/jdoe/index.html', 'og:type'), 'profile');
});

test('JSON-LD: Organization on the home page, NewsArticle with dates and author on a press release, Article on others, Person on bios', () => {
  assert.deepEqual(jsonLd('index.html'), { '@context': 'https://schema.org', '@type': 'Organization', name: 'Beta Corp', url: 'https://beta.example/', logo: 'https://beta.example/icon-512.png' });
  const press = jsonLd('article/press-one/index.html')!;
  assert.equal(press['@type'], 'NewsArticle');
  assert.equal(press.datePublished, '2025-03-01');
  assert.equal(press.dateModified, '2025-04-02');
  assert.equal(press.headline, 'Press one </script><script>alert(1)</script>');
  const commentary = jsonLd('article/commentary-Q2-2025/index.html')!;
  assert.equal(commentary['@type'], 'Article');
  assert.deepEqual(commentary.author, { '@type': 'Person', name: 'jdoe name', url: 'https://beta.example/your-team/jdoe/' });
  assert.equal(jsonLd('your-team/jdoe/index.html')!['@type'], 'Person');
  assert.equal(jsonLd('contact-us/index.html'), null);
});

test('a title cannot close the JSON-LD element: the page has exactly its own scripts', () => {
  const html = head('article/press-one/index.html');
  assert.doesNotMatch(html, /<script>alert\(1\)/);
  assert.match(html, /\\u003c\/script>\\u003cscript>alert\(1\)\\u003c\/script>/);
});

test('sitemap: lastmod from updated or date; only /search/ and /fr/search/ of the search pages; each scoped page its own title', () => {
  const sitemap = out.text('sitemap.xml');
  assert.match(sitemap, /<loc>https:\/\/beta\.example\/article\/press-one\/<\/loc>\n    <lastmod>2025-04-02<\/lastmod>/);
  assert.match(sitemap, /<loc>https:\/\/beta\.example\/article\/commentary-Q2-2025\/<\/loc>\n    <lastmod>2025-07-15<\/lastmod>/);
  const searchLocs = [...sitemap.matchAll(/<loc>https:\/\/beta\.example(\/(?:fr\/)?search\/[^<]*)<\/loc>/g)].map((m) => m[1]).sort();
  assert.deepEqual(searchLocs, ['/fr/search/', '/search/']);
  const title = (file: string) => /<title>([^<]*)<\/title>/.exec(out.text(file))![1]!;
  assert.notEqual(title('search/insights/index.html'), title('search/index.html'));
  assert.match(title('search/insights/index.html'), /^Search in Insights \|/);
});

test('icons: 192, 512 and maskable 512 PNGs in both manifests, an apple-touch-icon linked from every page', async () => {
  const size = async (file: string) => {
    const m = await sharp(out.files.get(file)!).metadata();
    return [m.format, m.width, m.height];
  };
  assert.deepEqual(await size('icon-192.png'), ['png', 192, 192]);
  assert.deepEqual(await size('icon-512.png'), ['png', 512, 512]);
  assert.deepEqual(await size('icon-maskable-512.png'), ['png', 512, 512]);
  assert.deepEqual(await size('apple-touch-icon.png'), ['png', 180, 180]);
  // The maskable icon fills its square (no transparent corner the platform would show).
  const corner = await sharp(out.files.get('icon-maskable-512.png')!).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
  assert.equal(corner[3] ?? 255, 255);
  for (const l of ['en', 'fr']) {
    const icons = (out.json<{ icons: { src: string; sizes: string; purpose?: string }[] }>(`manifest_${l}.webmanifest`)).icons;
    assert.deepEqual(icons.map((i) => `${i.src} ${i.sizes}${i.purpose ? ` ${i.purpose}` : ''}`), ['/favicon.svg any', '/icon-192.png 192x192', '/icon-512.png 512x512', '/icon-maskable-512.png 512x512 maskable']);
  }
  assert.match(head('index.html'), /<link rel="apple-touch-icon" href="\/apple-touch-icon\.png">/);
});

test('share cards: 1200×630 PNG per language', async () => {
  for (const l of ['en', 'fr']) {
    const m = await sharp(out.files.get(`share-${l}.png`)!).metadata();
    assert.deepEqual([m.format, m.width, m.height], ['png', 1200, 630]);
  }
});

test('image layouts: the cover\'s from front matter, a body image\'s from its title, constrained otherwise', () => {
  const body = out.text('article/press-one/index.html');
  assert.match(body, /<span class="ir-image ir-image--fullWidth ir-image--eager" style="width:100%;aspect-ratio:760 \/ 380">/);
  assert.match(body, /<span class="ir-image ir-image--fixed" style="width:760px;max-width:100%;aspect-ratio:760 \/ 380">/);
  assert.match(body, /sizes="100vw"/);
  assert.match(body, /sizes="760px"/);
  assert.match(out.text('article/commentary-Q2-2025/index.html'), /<span class="ir-image ir-image--constrained[^"]*"[^>]*>[\s\S]*?sizes="\(min-width: 760px\) 760px, 100vw"/);
});

test('share cards: a long display name or host is drawn smaller, never off the card', async () => {
  /** The rightmost column with text (light pixels on the brand colour) between two heights. */
  const rightmostInk = async (png: Uint8Array, top: number, bottom: number) => {
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let right = -1;
    for (let y = top; y < bottom; y++) for (let x = 0; x < info.width; x++) if (data[(y * info.width + x) * info.channels]! > 160) right = Math.max(right, x);
    return right;
  };
  const names = ["Corporation d'investissement Brightwater", 'The Very Long Named Global Infrastructure and Renewable Energy Investment Corporation of Canada'];
  for (const name of names) {
    const png = await sharePng(name, 'https://investors.a-rather-long-subdomain.example-holdings-group.com');
    const nameRight = await rightmostInk(png, 280, 370);
    assert.ok(nameRight > 600 && nameRight <= 1120 + 4, `"${name}" ends at x=${nameRight}, within the card's 80 px margin`);
    assert.ok((await rightmostInk(png, 395, 445)) <= 1120 + 4, 'the host too');
  }
  const short = await sharePng('Acme', 'https://acme.example');
  assert.ok((await rightmostInk(short, 280, 370)) < 400, 'a short name keeps its size');
  // A name Pango draws nothing of (a zero-width space passes "may not be empty") still makes a card.
  for (const invisible of ['\u200B', '']) assert.equal((await sharp(await sharePng(invisible, 'https://acme.example')).metadata()).width, 1200);
});

test('a cover shares a variant previews show (WebP for an AVIF cover), a cover too small for a large preview shares the card; a description is one line', async () => {
  const site = await sharingFixture('sharing-covers');
  const press = path.join(site, 'content/articles/press-one');
  await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#336699' } }).avif().toFile(path.join(press, 'cover.avif'));
  await writeFile(path.join(press, 'en.md'), (await readFile(path.join(press, 'en.md'), 'utf8')).replace('file: chart.png', 'file: cover.avif').replace(/^---\n/, '---\ndescription: |\n  Two lines of\n    description.\n'));
  const commentary = path.join(site, 'content/articles/commentary-q2-2025');
  await sharp({ create: { width: 150, height: 100, channels: 3, background: '#996633' } }).jpeg().toFile(path.join(commentary, 'tiny.jpg'));
  await writeFile(path.join(commentary, 'en.md'), (await readFile(path.join(commentary, 'en.md'), 'utf8')).replace(/^---\n/, '---\ncover: { file: tiny.jpg, alt: A tiny picture }\n'));
  const built = (await buildToMemory(site)).out;
  const tag = (file: string, property: string) => new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`).exec(built.text(file))?.[1];
  const avifShare = tag('article/press-one/index.html', 'og:image')!;
  assert.match(avifShare, /^https:\/\/beta\.example\/static\/images\/cover-\d+\.[0-9a-f]+\.webp$/);
  for (const name of ['description', 'og:description']) assert.equal(tag('article/press-one/index.html', name), 'Two lines of description.', `${name} on one line`);
  assert.equal((await sharp(built.files.get(avifShare.replace('https://beta.example/', ''))!).metadata()).format, 'webp');
  assert.equal(tag('article/commentary-Q2-2025/index.html', 'og:image'), 'https://beta.example/share-en.png');
  assert.equal(tag('article/commentary-Q2-2025/index.html', 'og:image:width'), '1200');
  assert.match(built.text('article/commentary-Q2-2025/index.html'), /tiny-150\.[0-9a-f]+\.jpg/, 'the page still shows its cover');
  await rm(site, { recursive: true, force: true });
});
