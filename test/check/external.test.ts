// External links: listed without touching the network, fetched with --external. The
// "external" site is a loopback server started here, so no test needs the network.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { check } from '../../src/commands/check/index.js';
import { checkExternal } from '../../src/commands/check/external.js';
import { fixture, REPO } from '../helpers.js';

const requests: string[] = [];
let server: Server;
let port: number;
let root: string;

before(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url === '/filing') {
      // Some servers refuse HEAD: the check must fall back to GET.
      res.writeHead(req.method === 'HEAD' ? 405 : 200, { 'content-type': 'text/plain' });
      res.end(req.method === 'HEAD' ? undefined : 'the filing');
    } else if (req.url === '/boom') {
      res.writeHead(500).end();
    } else if (req.url === '/slow') {
      // never answers
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  // A copy of the fixture with the server's port in its links; its config imports the original's.
  root = await mkdtemp(path.join(tmpdir(), 'ir-check-external-'));
  await cp(path.join(fixture('check-external'), 'content'), path.join(root, 'content'), { recursive: true });
  await cp(path.join(fixture('check-external'), 'config'), path.join(root, 'config'), { recursive: true });
  const article = path.join(root, 'content/articles/commentary-q2-2025/en.md');
  await writeFile(article, (await readFile(article, 'utf8')).replaceAll('PORT', String(port)));
  await writeFile(
    path.join(root, 'site.config.ts'),
    `import base from ${JSON.stringify(path.join(fixture('minimal'), 'site.config.ts'))};
export default { ...base, paths: { templates: ${JSON.stringify(path.join(REPO, 'templates'))}, locales: ${JSON.stringify(path.join(REPO, 'locales'))} } };
`,
  );
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

test('without --external, external links are listed with their page and source, and nothing is fetched', async () => {
  requests.length = 0;
  const result = await check({ root });
  assert.deepEqual(result.diagnostics, []);
  const local = result.external.filter((e) => e.url.includes('127.0.0.1'));
  assert.deepEqual(
    local.map((e) => ({ url: e.url, pages: e.pages, file: e.origin.file, line: e.origin.line })),
    ['filing', 'gone'].map((p) => ({
      url: `http://127.0.0.1:${port}/${p}`,
      pages: ['/article/commentary-Q2-2025/'],
      file: 'content/articles/commentary-q2-2025/en.md',
      line: 19,
    })),
  );
  assert.equal(result.stats.external, result.external.length);
  assert.deepEqual(requests, []);
});

test('with --external, a link that answers 404 is an error at its source line; HEAD refused falls back to GET', async () => {
  requests.length = 0;
  const result = await check({ root, external: { timeoutMs: 2000 } });
  const findings = result.diagnostics.filter((d) => d.message.includes('127.0.0.1'));
  assert.deepEqual(
    findings.map((d) => ({ severity: d.severity, rule: d.rule, file: d.file, line: d.line, column: d.column, page: d.page, message: d.message })),
    [
      {
        severity: 'error',
        rule: 'links/external',
        file: 'content/articles/commentary-q2-2025/en.md',
        line: 19,
        column: `Filings: [the annual filing](http://127.0.0.1:${port}/filing), [an old filing](`.length + 1,
        page: '/article/commentary-Q2-2025/',
        message: `the external link http://127.0.0.1:${port}/gone answers 404`,
      },
    ],
  );
  assert.deepEqual(requests.filter((r) => r.endsWith('/filing')).sort(), ['GET /filing', 'HEAD /filing']);
  assert.deepEqual(requests.filter((r) => r.endsWith('/gone')), ['HEAD /gone'], 'a 404 to HEAD is final');
});

test('a server error or no answer is a warning (it may pass); the timeout is short', async () => {
  const origin = { file: 'content/x/en.md', line: 3 };
  const t0 = performance.now();
  const findings = await checkExternal(
    [
      { url: `http://127.0.0.1:${port}/boom`, pages: ['/a/', '/b/'], origin },
      { url: `http://127.0.0.1:${port}/slow`, pages: ['/a/'], origin },
      { url: `http://127.0.0.1:${port}/filing`, pages: ['/a/'], origin },
    ],
    { timeoutMs: 300, concurrency: 2 },
  );
  assert.ok(performance.now() - t0 < 3000, 'timeouts are enforced');
  assert.deepEqual(
    findings.map((f) => ({ severity: f.severity, page: f.page, morePages: f.morePages, message: f.message })),
    [
      { severity: 'warning', page: '/a/', morePages: 1, message: `the external link http://127.0.0.1:${port}/boom answers 500` },
      { severity: 'warning', page: '/a/', morePages: undefined, message: `the external link http://127.0.0.1:${port}/slow does not answer (no answer within 300 ms)` },
    ],
  );
});
