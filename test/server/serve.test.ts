// `ir-site serve` against a built fixture site: what a production host must do, and
// never a byte from outside the output folder.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rename, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../../src/build/index.js';
import { serve, type RunningServer } from '../../src/commands/server/serve.js';
import { browserSkipReason, launchBrowser } from '../e2e/browser.js';
import { fixture } from '../helpers.js';
import { rawRequest } from './raw-http.js';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-OUTPUT';
let server: RunningServer;
let base: string;
let out: string;
/** A published document big enough to be downloaded in parts. */
const DOCUMENT = randomBytes(300_000);
const get = (target: string, method = 'GET', headers: Record<string, string> = {}) => rawRequest(base, target, method, headers);

before(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ir-serve-'));
  out = path.join(dir, 'public');
  await build({ root: fixture('minimal'), outDir: out, reporter: {} });
  // Things that must stay unreachable: a file beside the output, a sibling folder whose
  // name starts like it, symlinks pointing out, dotfiles inside.
  await writeFile(path.join(dir, 'secret.txt'), SECRET);
  await mkdir(path.join(dir, 'public-x'));
  await writeFile(path.join(dir, 'public-x', 'secret.txt'), SECRET);
  await symlink(path.join(dir, 'secret.txt'), path.join(out, 'link-to-secret.txt'));
  await symlink(dir, path.join(out, 'outside-link'));
  await writeFile(path.join(out, '.env'), SECRET);
  await mkdir(path.join(out, '.git'));
  await writeFile(path.join(out, '.git', 'config'), SECRET);
  // One file of every kind the build writes, for content types and caching.
  await mkdir(path.join(out, 'static'), { recursive: true });
  for (const name of ['static/app.0123abcd.js', 'sw.js', 'a.png', 'a.jpg', 'a.webp', 'a.avif', 'static/font.woff2']) await writeFile(path.join(out, name), 'x');
  await mkdir(path.join(out, 'documents'));
  await writeFile(path.join(out, 'documents', 'annual-report.pdf'), DOCUMENT);
  // Folders and rule targets beyond ASCII, and a name with characters that mean something in a URL.
  for (const name of ['café', '日本', '50% off?#']) {
    await mkdir(path.join(out, name));
    await writeFile(path.join(out, name, 'index.html'), `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${name}</title></head><body><h1>${name}</h1></body></html>`);
  }
  const rules = JSON.parse(await readFile(path.join(out, 'redirects.json'), 'utf8')) as object[];
  const rule = (fromPath: string, toPath: string) => ({ fromPath, toPath, isPermanent: false, ignoreCase: true, redirectInBrowser: true });
  rules.push(rule('/vieux-café/', '/café/'), rule('/old-jp/', '/日本/'));
  await writeFile(path.join(out, 'redirects.json'), JSON.stringify(rules));
  server = await serve({ dir: out, port: 0 });
  base = server.url;
});
after(() => server?.close());

const ATTACKS = [
  '/../secret.txt',
  '/..%2fsecret.txt',
  '/%2e%2e/secret.txt',
  '/%2e%2e%2fsecret.txt',
  '/.%2e/secret.txt',
  '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/%252e%252e/secret.txt',
  '/..%252fsecret.txt',
  '/%252e%252e%252fsecret.txt',
  '/%c0%ae%c0%ae/secret.txt',
  '/..\\secret.txt',
  '/..%5csecret.txt',
  '/%5c..%5csecret.txt',
  '/static/..%2f..%2fsecret.txt',
  '/secret.txt%00.html',
  '/index.html%00',
  '//etc/passwd',
  '/%2f%2fevil.example/',
  '/etc/passwd',
  '/C:/Windows/win.ini',
  '/../public-x/secret.txt',
  '/..%2fpublic-x%2fsecret.txt',
  '/link-to-secret.txt',
  '/outside-link/secret.txt',
  '/outside-link/public-x/secret.txt',
  '/.env',
  '/.git/config',
  '/%2eenv',
  'http://evil.example/secret.txt',
  '*',
];

test(`${ATTACKS.length} traversal and disclosure attempts: 400/403/404, never a file from outside`, async () => {
  for (const target of ATTACKS) {
    const res = await get(target);
    assert.ok([400, 403, 404].includes(res.status), `${target} -> ${res.status}`);
    assert.ok(!res.body.includes(SECRET), `${target} leaked the secret`);
    assert.ok(!(res.headers.location ?? '').startsWith('//'), `${target} redirected off-site`);
  }
});

test('{path}/ serves {path}/index.html; {path} redirects to {path}/ keeping the query', async () => {
  const page = await get('/insights/');
  assert.equal(page.status, 200);
  assert.match(page.body, /<h1/);
  // An encoded slash names no file: it is no second address of a page.
  for (const encoded of ['/insights%2f', '/insights%2F', '/fr%2finsights/']) assert.equal((await get(encoded)).status, 404, encoded);
  const bare = await get('/insights?x=1');
  assert.equal(bare.status, 301);
  assert.equal(bare.headers.location, '/insights/?x=1');
  // A redirect carries the folder's headers too: its Referrer-Policy is the next request's.
  assert.equal(bare.headers['referrer-policy'], page.headers['referrer-policy']);
  assert.match(String(bare.headers['content-security-policy']), /default-src/);
  assert.equal(bare.headers['x-content-type-options'], 'nosniff');
});

test('content types for every kind of file the build writes', async () => {
  const cases: [string, RegExp][] = [
    ['/', /^text\/html; charset=utf-8$/],
    ['/page-data/index/page-data.json', /^application\/json/],
    ['/static/app.0123abcd.js', /^text\/javascript/],
    ['/manifest_fr.webmanifest', /^application\/manifest\+json/],
    ['/sitemap.xml', /^application\/xml/],
    ['/robots.txt', /^text\/plain/],
    ['/favicon.svg', /^image\/svg\+xml$/],
    ['/favicon.ico', /^image\/x-icon$/],
    ['/a.png', /^image\/png$/],
    ['/a.jpg', /^image\/jpeg$/],
    ['/a.webp', /^image\/webp$/],
    ['/a.avif', /^image\/avif$/],
    ['/article/commentary-Q2-2025/report.pdf', /^application\/pdf$/],
    ['/static/font.woff2', /^font\/woff2$/],
  ];
  for (const [target, type] of cases) {
    const res = await get(target);
    assert.equal(res.status, 200, target);
    assert.match(res.headers['content-type'] ?? '', type, target);
  }
  const css = /href="(\/static\/styles\.[0-9a-f]+\.css)"/.exec((await get('/')).body)![1]!;
  assert.match((await get(css)).headers['content-type']!, /^text\/css/);
});

test('redirect rules: 302, exact path first, then ignoring case, query kept', async () => {
  const exact = await get('/cn/insights/?q=a');
  assert.equal(exact.status, 302);
  assert.equal(exact.headers.location, '/insights/?q=a');
  const loose = await get('/ARTICLE/COMMENTARY-Q2-2025/?a=1');
  assert.equal(loose.status, 302);
  assert.equal(loose.headers.location, '/article/commentary-Q2-2025/?a=1');
  assert.equal((await get('/article/commentary-q2-2025/')).headers.location, '/article/commentary-Q2-2025/');
  assert.equal((await get('/article/commentary-Q2-2025/')).status, 200, 'a real page is never redirected to itself');
  assert.equal((await get('/old-contact/')).headers.location, '/contact-us/');
});

test('unknown paths get the not-found page of their language with status 404', async () => {
  const fr = await get('/fr/nope/');
  assert.equal(fr.status, 404);
  assert.match(fr.body, /<html lang="fr-CA">/);
  const cn = await get('/cn/404.html');
  assert.equal(cn.status, 200, 'the legacy not-found page is a file, served before the /cn/* rule');
  assert.match(cn.body, /redirects\.json/);
  const en = await get('/nope');
  assert.equal(en.status, 404);
  assert.match(en.body, /<html lang="en-CA">/);
  // A dotfile is never served, and a visitor gets the same page as for any other miss.
  const dotfile = await get('/fr/.env');
  assert.equal(dotfile.status, 404);
  assert.match(dotfile.body, /<html lang="fr-CA">/);
  assert.ok(!dotfile.body.includes(SECRET));
});

test('an absolute-form request target (RFC 9112 section 3.2.2) is answered as its path; `*` is refused', async () => {
  const page = await get(`${base}/insights/?x=1`);
  assert.equal(page.status, 200);
  assert.equal(page.body, (await get('/insights/?x=1')).body);
  assert.equal((await get(`${base}?x=1`)).status, 200, 'no path: the home page');
  assert.equal((await get('*')).status, 400);
  assert.equal((await get(`${base}/..%2fsecret.txt`)).status, 400);
});

test('one /cn/* rule: any legacy path, French and unknown ones too, redirects without the prefix, to the page as typed or else in lower case (issue 20 point 4)', async () => {
  for (const [from, to] of [
    ['/cn/fr/insights/?a=1', '/fr/insights/?a=1'],
    ['/Cn/fr/article/commentaire-Q2-2025/', '/fr/article/commentaire-Q2-2025/'],
    ['/CN/Insights/', '/insights/'],
    ['/cn/Your-Team/', '/your-team/'],
    // Lower-cased, then the quarter's case rule at once: one hop.
    ['/Cn/Article/Commentary-q2-2025/?a=1', '/article/commentary-Q2-2025/?a=1'],
    ['/cn/nope/', '/nope/'],
    ['/cn/search/anything/', '/search/anything/'],
  ]) {
    const res = await get(from!);
    assert.equal(res.status, 302, from);
    assert.equal(res.headers.location, to, from);
  }
  assert.equal((await get('/cn//example.org/')).headers.location?.startsWith('//'), undefined);
});

test('any path under the search page answers 200 with the search page; a real page wins (issue 20 point 2)', async () => {
  const search = (await get('/search/')).body;
  for (const p of ['/search/no-such-section/', '/search/a/b?q=x', '/search/INSIGHTS/']) {
    const res = await get(p);
    assert.equal(res.status, 200, p);
    assert.equal(res.body, search, p);
  }
  const fr = await get('/fr/search/perspectives-typo/');
  assert.equal(fr.status, 200);
  assert.equal(fr.body, (await get('/fr/search/')).body);
  assert.notEqual((await get('/search/insights/')).body, search);
});

test('an English-only article under /fr/, and a French slug without /fr/, redirect to the English article, query kept (issue 20 point 3)', async () => {
  const englishOnly = await get('/fr/article/english-only/?x=1');
  assert.equal(englishOnly.status, 302);
  assert.equal(englishOnly.headers.location, '/article/english-only/?x=1');
  const frenchSlug = await get('/article/communique-un/?x=1');
  assert.equal(frenchSlug.status, 302);
  assert.equal(frenchSlug.headers.location, '/article/press-one/?x=1');
});

test('HEAD answers the same headers as GET, without a body', async () => {
  const g = await get('/contact-us/');
  const h = await get('/contact-us/', 'HEAD');
  assert.equal(h.status, 200);
  assert.equal(h.body, '');
  for (const name of ['content-type', 'content-length', 'etag', 'cache-control']) assert.equal(h.headers[name], g.headers[name], name);
});

test('ETag and If-None-Match give 304', async () => {
  const first = await get('/robots.txt');
  assert.ok(first.headers.etag);
  const again = await get('/robots.txt', 'GET', { 'If-None-Match': first.headers.etag! });
  assert.equal(again.status, 304);
  assert.equal(again.body, '');
  assert.equal(again.headers.etag, first.headers.etag);
  assert.equal((await get('/robots.txt', 'GET', { 'If-None-Match': '"other"' })).status, 200);
});

test('Cache-Control: immutable for hashed assets, no-cache for html, page data and sw.js', async () => {
  const css = /href="(\/static\/styles\.[0-9a-f]+\.css)"/.exec((await get('/')).body)![1]!;
  assert.match((await get(css)).headers['cache-control']!, /immutable/);
  assert.match((await get('/static/app.0123abcd.js')).headers['cache-control']!, /immutable/);
  for (const target of ['/', '/page-data/index/page-data.json', '/page-data/app-data.json', '/sw.js']) {
    assert.equal((await get(target)).headers['cache-control'], 'no-cache', target);
  }
});

test('other methods get 405 with Allow', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const res = await get('/', method);
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.allow, 'GET, HEAD');
  }
  // A proxy's tunnel: Node hands CONNECT to its own event, which dropped the connection unanswered.
  const tunnel = await get('evil.example:443', 'CONNECT');
  assert.equal(tunnel.status, 405);
  assert.equal(tunnel.headers.allow, 'GET, HEAD');
});

test('the search index base is revalidated; its content-hashed shards and documents are immutable', async () => {
  assert.equal((await get('/search-index/en.json')).headers['cache-control'], 'no-cache');
  const parts = await readdir(path.join(out, 'search-index', 'en'));
  assert.ok(parts.length > 1, 'the index has shards and a documents file');
  for (const part of parts) assert.match((await get(`/search-index/en/${part}`)).headers['cache-control']!, /immutable/, part);
});

test('esbuild-named runtime files and processed images are immutable too', async () => {
  const html = (await get('/')).body;
  const runtime = /<script type="module" src="(\/static\/runtime\.[A-Z0-9]+\.js)">/.exec(html)?.[1];
  assert.ok(runtime, 'the page loads the runtime');
  assert.match((await get(runtime)).headers['cache-control']!, /immutable/);
});

test('redirects to paths beyond ASCII: Location is percent-encoded UTF-8, and it leads to the page', async () => {
  const cases: [string, number, string][] = [
    ['/caf%C3%A9', 301, '/caf%C3%A9/'],
    ['/%E6%97%A5%E6%9C%AC?q=%C3%A9', 301, '/%E6%97%A5%E6%9C%AC/?q=%C3%A9'],
    ['/50%25%20off%3F%23', 301, '/50%25%20off%3F%23/'],
    ['/vieux-caf%C3%A9/', 302, '/caf%C3%A9/'],
    ['/old-jp/?a=1', 302, '/%E6%97%A5%E6%9C%AC/?a=1'],
    ['/OLD-JP/', 302, '/%E6%97%A5%E6%9C%AC/'],
  ];
  for (const [target, status, location] of cases) {
    const res = await get(target);
    assert.equal(res.status, status, target);
    assert.equal(res.headers.location, location, target);
    const page = await get(location);
    assert.equal(page.status, 200, `${target} -> ${location}`);
  }
});

test('Chromium follows those redirects to the page', { skip: browserSkipReason() }, async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    for (const [from, to, heading] of [
      ['/café', '/caf%C3%A9/', 'café'],
      ['/vieux-café/', '/caf%C3%A9/', 'café'],
      ['/old-jp/', '/%E6%97%A5%E6%9C%AC/', '日本'],
    ] as const) {
      const response = await page.goto(`${base}${from}`);
      assert.equal(response?.status(), 200, from);
      assert.equal(new URL(page.url()).pathname, to, from);
      assert.equal(await page.locator('h1').textContent(), heading, from);
    }
  } finally {
    await browser.close();
  }
});

/** A GET whose body is kept as bytes. */
async function bytes(target: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await get(target, method, headers);
  return { ...res, data: Buffer.from(res.body, 'latin1') };
}

test('Range: a download resumes where it stopped (206); past the end is 416; what cannot be served as a range gets the whole file', async () => {
  const url = '/documents/annual-report.pdf';
  const size = DOCUMENT.length;
  const whole = await bytes(url);
  assert.equal(whole.status, 200);
  assert.equal(whole.headers['accept-ranges'], 'bytes');
  assert.ok(whole.data.equals(DOCUMENT));

  const start = await bytes(url, { Range: 'bytes=0-99999' });
  assert.equal(start.status, 206);
  assert.equal(start.headers['content-range'], `bytes 0-99999/${size}`);
  assert.equal(start.headers['content-length'], '100000');
  const rest = await bytes(url, { Range: 'bytes=100000-', 'If-Range': start.headers.etag! });
  assert.equal(rest.status, 206);
  assert.equal(rest.headers['content-range'], `bytes 100000-${size - 1}/${size}`);
  assert.ok(Buffer.concat([start.data, rest.data]).equals(DOCUMENT), 'the two parts make the file');

  const suffix = await bytes(url, { Range: 'bytes=-10' });
  assert.equal(suffix.status, 206);
  assert.ok(suffix.data.equals(DOCUMENT.subarray(size - 10)));
  const head = await bytes(url, { Range: 'bytes=10-19' }, 'HEAD');
  assert.equal(head.status, 206);
  assert.equal(head.headers['content-length'], '10');
  assert.equal(head.data.length, 0);

  const past = await bytes(url, { Range: `bytes=${size}-` });
  assert.equal(past.status, 416);
  assert.equal(past.headers['content-range'], `bytes */${size}`);
  assert.equal((await bytes(url, { Range: 'bytes=-0' })).status, 416, 'an empty suffix');
  // RFC 9110 section 14.1: a suffix longer than the file is the whole file, as a range.
  const longSuffix = await bytes(url, { Range: `bytes=-${size * 2}` });
  assert.equal(longSuffix.status, 206);
  assert.equal(longSuffix.headers['content-range'], `bytes 0-${size - 1}/${size}`);
  assert.ok(longSuffix.data.equals(DOCUMENT));

  // Malformed, another unit, several ranges, or a partial copy of another version: the whole file.
  const wholeFile: Record<string, string>[] = [{ Range: 'bytes=abc' }, { Range: 'bytes=5-2' }, { Range: 'items=0-1' }, { Range: 'bytes=0-1,5-6' }, { Range: 'bytes=0-9', 'If-Range': '"another-version"' }];
  for (const headers of wholeFile) {
    const res = await bytes(url, headers);
    assert.equal(res.status, 200, JSON.stringify(headers));
    assert.ok(res.data.equals(DOCUMENT), JSON.stringify(headers));
  }
  // If-Range with a date: exactly the file's Last-Modified, or the whole file.
  assert.equal((await bytes(url, { Range: 'bytes=0-9', 'If-Range': whole.headers['last-modified']! })).status, 206);
  assert.equal((await bytes(url, { Range: 'bytes=0-9', 'If-Range': 'Thu, 01 Jan 2015 00:00:00 GMT' })).status, 200);
});

test('If-Modified-Since (304), If-Match and If-Unmodified-Since (412), as send answers them', async () => {
  const first = await get('/robots.txt');
  const { etag, 'last-modified': lastModified } = first.headers;
  assert.ok(etag && lastModified);
  const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
  const cases: [Record<string, string>, number][] = [
    [{ 'If-Modified-Since': lastModified }, 304],
    [{ 'If-Modified-Since': earlier }, 200],
    [{ 'If-None-Match': '"other"', 'If-Modified-Since': lastModified }, 200], // If-None-Match decides
    [{ 'If-None-Match': etag, 'Cache-Control': 'no-cache' }, 200], // a forced reload
    [{ 'If-Match': etag }, 200],
    [{ 'If-Match': '*' }, 200],
    [{ 'If-Match': '"other"' }, 412],
    [{ 'If-Match': `W/${etag}` }, 412], // If-Match compares strongly
    [{ 'If-Unmodified-Since': lastModified }, 200],
    [{ 'If-Unmodified-Since': earlier }, 412],
  ];
  for (const [headers, status] of cases) assert.equal((await get('/robots.txt', 'GET', headers)).status, status, JSON.stringify(headers));
});

test('ETags come from the bytes: the same bytes rewritten keep their ETag (and 304); other bytes of the same size and time get another', async () => {
  const file = path.join(out, 'robots.txt');
  const text = await readFile(file);
  const before = await get('/robots.txt');
  // As a rebuild publishes it: a new file renamed over the old one, with a new time.
  await writeFile(`${file}.new`, text);
  await utimes(`${file}.new`, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
  await rename(`${file}.new`, file);
  const rebuilt = await get('/robots.txt');
  assert.notEqual(rebuilt.headers['last-modified'], before.headers['last-modified']);
  assert.equal(rebuilt.headers.etag, before.headers.etag);
  assert.equal((await get('/robots.txt', 'GET', { 'If-None-Match': before.headers.etag! })).status, 304);

  // Written over in place, same size, time set back: a tag made of size and time could not tell.
  const info = await stat(file);
  const other = Buffer.from(text.toString('latin1').replace('User-agent', 'USER-AGENT'), 'latin1');
  assert.equal(other.length, text.length);
  await writeFile(file, other);
  await utimes(file, info.atime, info.mtime);
  const changed = await get('/robots.txt');
  assert.equal(changed.body, other.toString('latin1'));
  assert.notEqual(changed.headers.etag, before.headers.etag);
  assert.equal((await get('/robots.txt', 'GET', { 'If-None-Match': before.headers.etag! })).status, 200);
});

test("the headers of the build's _headers file: the policy on every answer, the SVG policy too on SVG files; the host files are not served", async () => {
  const page = await get('/insights/');
  assert.match(page.headers['content-security-policy'] ?? '', /^default-src 'self'; script-src 'self' 'sha256-[^']+' 'sha256-[^']+';.*frame-ancestors 'self'$/);
  assert.equal(page.headers['referrer-policy'], 'strict-origin-when-cross-origin');
  const missing = await get('/no-such-page/');
  assert.equal(missing.status, 404);
  assert.match(missing.headers['content-security-policy'] ?? '', /script-src 'self'/, 'the not-found page is a page too');
  const svg = await get('/contact-us/map.svg');
  assert.equal(svg.status, 200);
  const policies = (svg.headers['content-security-policy'] ?? '').split(', ');
  assert.equal(policies.length, 2, svg.headers['content-security-policy']);
  assert.match(policies[1]!, /^default-src 'none'; style-src 'unsafe-inline'/);
  for (const file of ['/_headers', '/_redirects', '/nginx-headers.conf', '/nginx-redirects.conf']) assert.equal((await get(file)).status, 404, file);
});
