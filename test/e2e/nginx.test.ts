// The redirect rules on a real nginx (Debian's, 1.22): builds the demo site once, writes
// nginxRedirects() of its redirects.json as an include, runs nginx on a loopback port with the
// server block docs/hosting.md recommends, and checks the semantics every host must give:
// exact rule, then file, then case-insensitive rule (never to the same path), then the
// locale's not-found page with 404. A few extra rules with awkward characters check that the
// include's quoting holds up in nginx's own parser.
// Installs nothing: without /usr/sbin/nginx the tests skip locally and fail in CI (CI=true).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/build/config/load.js';
import { headerRules, nginxHeaders } from '../../src/build/emit/host-headers.js';
import { nginxRedirects } from '../../src/build/emit/host-redirects.js';
import { INLINE_SCRIPTS } from '../../src/build/render/document.js';
import { rule } from '../../src/build/graph/redirects.js';
import type { RedirectRule } from '../../src/shared/types.js';
import { demoBuild } from '../demo-build.js';
import { REPO } from '../helpers.js';

const NGINX = '/usr/sbin/nginx';

function nginxSkipReason(): string | undefined {
  if (existsSync(NGINX)) return undefined;
  if (process.env.CI === 'true') return undefined; // CI must run these: they fail in before()
  return `nginx test skipped: ${NGINX} not found (install it with: apt-get install -y nginx)`;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The server block docs/hosting.md recommends, around the generated include. */
function nginxConf(dir: string, root: string, port: number): string {
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, 'temp', name)};`;
  return `daemon off;
master_process off;
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  types {
    text/html html; application/json json; text/css css; application/javascript js;
    image/svg+xml svg; image/x-icon ico; image/png png; image/jpeg jpg; application/pdf pdf;
    application/xml xml; text/plain txt; application/manifest+json webmanifest;
  }
  default_type application/octet-stream;
  charset utf-8;
  charset_types text/css application/javascript application/json application/xml text/plain;
  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    root ${root};
    absolute_redirect off;
    include ${path.join(dir, 'nginx-redirects.conf')};
    include ${path.join(dir, 'nginx-headers.conf')};
    error_page 403 404 =404 /404.html;
    location / { try_files $uri $uri/ =404; }
    location /fr/ { error_page 403 404 =404 /fr/404.html; try_files $uri $uri/ =404; }
    location /cn/ { error_page 403 404 =404 /cn/404.html; try_files $uri $uri/ =404; }
    location = /nginx-redirects.conf { internal; }
    location = /_redirects { internal; }
    location = /nginx-headers.conf { internal; }
    location = /_headers { internal; }
  }
}
`;
}

/** Rules with characters nginx's parser cares about; every target is a real page or a URL. */
const AWKWARD: RedirectRule[] = [
  rule('/odd;{x}$y"\'\\z/', '/insights/?from=odd'),
  rule('/inj";return-200-pwned;}/', '/insights/'),
  rule('/Épargne-ÉTÉ/', '/insights/'),
  rule('/ext/', 'https://example.org/x?y=1#frag'),
  rule('/dollar/', '/insights/?p=$uri'),
];

const skip = nginxSkipReason();

describe('redirects on nginx', { skip }, () => {
  let tmp: string;
  let outDir: string;
  let ownBuild = false;
  let rules: RedirectRule[];
  let base: string;
  let child: ChildProcess | undefined;
  let childOutput = '';
  let childExit: Promise<void> | undefined;
  const killChild = () => child?.exitCode === null && child.signalCode === null && child.kill('SIGKILL');

  before(async () => {
    if (!existsSync(NGINX)) throw new Error(`nginx not found at ${NGINX} (CI=true: this test must run; install it with apt-get install -y nginx)`);
    tmp = await mkdtemp(path.join(os.tmpdir(), 'ir-site-nginx-'));
    await chmod(tmp, 0o755); // readable, should nginx ever drop to an unprivileged user
    const demo = await demoBuild();
    outDir = demo.dir;
    ownBuild = !demo.shared;
    const dir = path.join(tmp, 'nginx');
    await mkdir(path.join(dir, 'temp'), { recursive: true });
    rules = JSON.parse(await readFile(path.join(outDir, 'redirects.json'), 'utf8')) as RedirectRule[];
    assert.ok(rules.length > 50, 'the demo site has redirect rules');

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The include the build wrote, plus awkward rules that test the quoting.
    const built = await readFile(path.join(outDir, 'nginx-redirects.conf'), 'utf8');
    assert.match(built, /location ~\* "\^\/cn\/" /, 'one wildcard location for the legacy prefix');
    assert.doesNotMatch(built, /location = "\/cn\//, 'no rule per page under /cn/');
    await writeFile(path.join(dir, 'nginx-redirects.conf'), `${built}\n${nginxRedirects(AWKWARD)}`);
    // The headers include the build wrote, plus what it would write for an SVG file from content.
    const headers = await readFile(path.join(outDir, 'nginx-headers.conf'), 'utf8');
    const { integrations } = await loadConfig({ root: REPO });
    const svgLocation = nginxHeaders(headerRules({ integrations, inlineScripts: INLINE_SCRIPTS, svgPaths: ['/favicon.svg'] })).split('\n').filter((l) => l.startsWith('location'));
    await writeFile(path.join(dir, 'nginx-headers.conf'), `${headers}\n${svgLocation.join('\n')}\n`);
    await writeFile(path.join(dir, 'nginx.conf'), nginxConf(dir, outDir, port));

    child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (childOutput += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (childOutput += d.toString()));
    childExit = new Promise((resolve) => child!.once('exit', () => resolve()));
    process.once('exit', killChild);

    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        const log = await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
        throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}):\n${childOutput}\n${log}`);
      }
      try {
        await fetch(`${base}/`, { redirect: 'manual' });
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`nginx did not answer on ${base} within 10 s:\n${childOutput}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  });

  after(async () => {
    process.removeListener('exit', killChild);
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timeout = setTimeout(() => killChild(), 5_000);
      await childExit;
      clearTimeout(timeout);
    }
    if (tmp) await rm(tmp, { recursive: true, force: true });
    if (ownBuild) await rm(path.dirname(outDir), { recursive: true, force: true });
  });

  const get = (p: string) => fetch(`${base}${p}`, { redirect: 'manual' });

  async function expectRedirect(from: string, to: string) {
    const res = await get(from);
    await res.arrayBuffer();
    assert.equal(res.status, 302, `${from} should redirect`);
    assert.equal(res.headers.get('location'), to, `${from} redirects to`);
  }

  async function expectPage(p: string, status = 200): Promise<string> {
    const res = await get(p);
    const body = await res.text();
    assert.equal(res.status, status, `${p} status (location: ${res.headers.get('location')})`);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    return body;
  }

  test('the headers include: the policy on pages, redirects and 404s; an SVG gets the SVG policy as well', async () => {
    for (const [p, status] of [['/insights/', 200], ['/cn/insights/', 302], ['/no-such-page/', 404], ['/fr/nope/', 404]] as const) {
      const res = await get(p);
      await res.arrayBuffer();
      assert.equal(res.status, status, p);
      assert.match(res.headers.get('content-security-policy') ?? '', /^default-src 'self'; script-src 'self' 'sha256-.*frame-ancestors 'self'$/, p);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', p);
    }
    const svg = await get('/favicon.svg');
    await svg.arrayBuffer();
    const policies = (svg.headers.get('content-security-policy') ?? '').split(', ');
    assert.equal(policies.length, 2, 'two policies, both enforced');
    assert.match(policies[1]!, /^default-src 'none'/);
    assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
  });

  test('a legacy /cn/ path redirects to the English page', async () => {
    await expectRedirect('/cn/insights/', '/insights/');
  });

  test('another case of a rule redirects too, keeping the query string', async () => {
    await expectRedirect('/CN/insights/?a=1', '/insights/?a=1');
    await expectRedirect('/cn/insights/?a=1&b=%C3%A9', '/insights/?a=1&b=%C3%A9');
  });

  test('a lower-case quarter redirects to the capitalised page, which is served (no loop)', async () => {
    await expectRedirect('/article/commentary-q2-2025/', '/article/commentary-Q2-2025/');
    const html = await expectPage('/article/commentary-Q2-2025/');
    assert.match(html, /<html lang="en-CA"/);
    await expectRedirect('/ARTICLE/COMMENTARY-Q2-2025/', '/article/commentary-Q2-2025/');
    await expectRedirect('/fr/article/commentaire-q2-2025/', '/fr/article/commentaire-Q2-2025/');
    await expectPage('/fr/article/commentaire-Q2-2025/');
  });

  test('a French slug without /fr/ redirects to the English article', async () => {
    const french = rules.find(
      (r) => r.fromPath.startsWith('/article/') && r.toPath.startsWith('/article/') && r.fromPath.toLowerCase() !== r.toPath.toLowerCase(),
    );
    assert.ok(french, 'redirects.json has a French slug rule');
    await expectRedirect(french.fromPath, french.toPath);
    await expectPage(french.toPath);
  });

  test('any /cn/ path, French and unknown ones too, redirects once without the prefix, in any case of it (issue 20 point 4)', async () => {
    await expectRedirect('/cn/fr/insights/', '/fr/insights/');
    await expectRedirect('/Cn/fr/insights/?a=1', '/fr/insights/?a=1');
    await expectPage('/fr/insights/');
    await expectRedirect('/cn/search/anything/', '/search/anything/');
    await expectRedirect('/cn/nope/', '/nope/');
    await expectPage('/nope/', 404);
  });

  test('a /cn/ path with capitals after the prefix gets the not-found page, whose runtime lower-cases it in the browser (nginx cannot)', async () => {
    // Redirected as typed, /Insights/ would be a 404 no script could mend.
    const html = await expectPage('/cn/Insights/', 404);
    assert.match(html, /<html lang="en-CA"/);
    await expectRedirect('/CN/fr/insights/', '/fr/insights/');
    // Capitals that are the page's own stay redirected: a quarter, a %-code's hex digits.
    await expectRedirect('/cn/article/commentary-Q2-2025/', '/article/commentary-Q2-2025/');
    await expectRedirect('/cn/fr/%C3%A9tudes/', '/fr/%C3%A9tudes/');
  });

  test('any path under the search page shows the search page, in both languages (issue 20 point 2)', async () => {
    const search = await readFile(path.join(outDir, 'search/index.html'), 'utf8');
    assert.equal(await expectPage('/search/no-such-section/'), search);
    assert.equal(await expectPage('/search/a/b?q=x'), search);
    assert.equal(await expectPage('/fr/search/perspectives-typo/'), await readFile(path.join(outDir, 'fr/search/index.html'), 'utf8'));
    assert.equal(await expectPage('/search/insights/'), await readFile(path.join(outDir, 'search/insights/index.html'), 'utf8'), 'a real page wins');
  });

  test('a hand-written rule (config/redirects.yaml) redirects', async () => {
    await expectRedirect('/about-us/', '/our-investment-approach/');
    await expectRedirect('/About-Us/?x=1', '/our-investment-approach/?x=1');
  });

  test('every rule of the demo site redirects, in any case, and lands on a page', async () => {
    for (const r of rules) {
      if (r.fromPath.endsWith('/*')) continue; // the wildcard: its own test above
      await expectRedirect(r.fromPath, r.toPath);
      await expectRedirect(r.fromPath.toUpperCase(), r.toPath);
      if (r.toPath.startsWith('/')) await expectPage(r.toPath);
    }
  });

  test('pages are served with 200', async () => {
    const html = await expectPage('/insights/');
    assert.match(html, /<html lang="en-CA"/);
    assert.match(await expectPage('/fr/'), /<html lang="fr-CA"/);
  });

  test('a missing path gets its locale not-found page with 404', async () => {
    const fr = await expectPage('/fr/nope/', 404);
    assert.match(fr, /<html lang="fr-CA"/);
    assert.equal(fr, await readFile(path.join(outDir, 'fr/404.html'), 'utf8'));
    const en = await expectPage('/nope/', 404);
    assert.equal(en, await readFile(path.join(outDir, '404.html'), 'utf8'));
    assert.match(en, /<html lang="en-CA"/);
    // A folder without index.html is not found either (not 403).
    assert.equal(await expectPage('/fr/article/', 404), fr);
  });

  test('a folder asked for without its slash gets a relative 301', async () => {
    const res = await get('/insights?a=1');
    await res.arrayBuffer();
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), '/insights/?a=1');
  });

  test('the host files themselves are not served', async () => {
    await writeFile(path.join(outDir, 'nginx-redirects.conf'), '# a copy, as the build writes it\n');
    await writeFile(path.join(outDir, '_redirects'), '# a copy, as the build writes it\n');
    await expectPage('/nginx-redirects.conf', 404);
    await expectPage('/_redirects', 404);
  });

  test('paths with quotes, braces, semicolons, $ and non-ASCII letters are matched literally', async () => {
    await expectRedirect(`/odd;%7Bx%7D$y%22'%5Cz/`, '/insights/?from=odd');
    await expectRedirect(`/ODD;%7BX%7D$Y%22'%5CZ/?a=1`, '/insights/?from=odd&a=1');
    await expectRedirect('/inj%22;return-200-pwned;%7D/', '/insights/');
    await expectPage('/pwned', 404);
    await expectRedirect('/%C3%89pargne-%C3%89T%C3%89/', '/insights/');
    await expectRedirect('/%C3%89PARGNE-%C3%89t%C3%89/', '/insights/');
    await expectRedirect('/dollar/', '/insights/?p=%24uri');
  });

  test('an absolute target gets the query before its fragment', async () => {
    await expectRedirect('/ext/', 'https://example.org/x?y=1#frag');
    await expectRedirect('/EXT/?a=b', 'https://example.org/x?y=1&a=b#frag');
  });

  test('no Location ever starts with // or /\\', async () => {
    for (const p of ['//example.org/', '/%2F%2Fexample.org/', '/cn//example.org/', '/\\example.org/', '/cn/%5Cexample.org/']) {
      const res = await get(p);
      await res.arrayBuffer();
      const location = res.headers.get('location');
      if (location !== null) assert.doesNotMatch(location, /^\/[/\\]/, `${p} -> ${location}`);
    }
  });
});
