// The static handler over a memory source (what `dev` serves) and over a folder: the same
// ETag for the same bytes, ranges of rewritten HTML, and extra headers per path.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { MemorySink } from '../../src/build/emit/sink.js';
import { indexRedirects } from '../../src/shared/redirects.js';
import { listen } from '../../src/commands/server/listen.js';
import { DiskSource, MemorySource, type FileSource } from '../../src/commands/server/sources.js';
import { createStaticHandler } from '../../src/commands/server/static-handler.js';
import { rawRequest } from './raw-http.js';

const PAGE = '<!DOCTYPE html><html><body><h1>Home</h1></body></html>';
let dir: string;
const servers: Server[] = [];

async function start(source: FileSource, transformHtml?: (html: string) => string): Promise<string> {
  const handle = createStaticHandler({
    source,
    redirects: () => indexRedirects([]),
    notFoundPages: () => [{ prefix: '/', page: '/404.html' }],
    transformHtml,
    headers: (sitePath) => (sitePath.endsWith('.html') ? { 'Content-Security-Policy': `default-src 'self'; report-to ${sitePath}` } : undefined),
  });
  const server = createServer((req, res) => void handle(req, res));
  servers.push(server);
  return listen(server, '127.0.0.1', 0);
}

let memory: string;
let disk: string;
before(async () => {
  const sink = new MemorySink();
  await sink.write('index.html', PAGE);
  await sink.write('404.html', '<!DOCTYPE html><title>Not found</title>');
  await sink.write('data.json', '{"a":1}');
  memory = await start(new MemorySource(() => sink), (html) => html.replace('</body>', '<script src="/dev.js"></script></body>'));
  dir = await mkdtemp(path.join(tmpdir(), 'ir-handler-'));
  await writeFile(path.join(dir, 'index.html'), PAGE);
  disk = await start(new DiskSource(dir));
});

after(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

test('the same bytes get the same ETag from memory (dev) and from disk (serve)', async () => {
  const fromMemory = await rawRequest(memory, '/');
  const fromDisk = await rawRequest(disk, '/');
  assert.ok(fromMemory.headers.etag);
  assert.equal(fromMemory.headers.etag, fromDisk.headers.etag);
});

test('a range of rewritten HTML is a range of what is served', async () => {
  const whole = await rawRequest(memory, '/');
  assert.match(whole.body, /<script src="\/dev\.js"><\/script><\/body>/);
  const tail = await rawRequest(memory, '/', 'GET', { Range: 'bytes=-30' });
  assert.equal(tail.status, 206);
  assert.equal(tail.body, whole.body.slice(-30));
  assert.equal(tail.headers['content-range'], `bytes ${whole.body.length - 30}-${whole.body.length - 1}/${whole.body.length}`);
});

test('the headers option adds headers by the path of the file served: 200, 304 and the not-found page', async () => {
  const page = await rawRequest(memory, '/');
  assert.equal(page.headers['content-security-policy'], "default-src 'self'; report-to /index.html");
  const again = await rawRequest(memory, '/', 'GET', { 'If-None-Match': page.headers.etag! });
  assert.equal(again.status, 304);
  assert.equal(again.headers['content-security-policy'], "default-src 'self'; report-to /index.html");
  const missing = await rawRequest(memory, '/nope/');
  assert.equal(missing.status, 404);
  assert.equal(missing.headers['content-security-policy'], "default-src 'self'; report-to /404.html");
  assert.equal((await rawRequest(memory, '/data.json')).headers['content-security-policy'], undefined);
});

test('the output folder missing for a moment (a build swapping in a new one): the request is answered once it is back; gone for longer, a 503 with Retry-After', async () => {
  const folder = await mkdtemp(path.join(tmpdir(), 'ir-handler-swap-'));
  await writeFile(path.join(folder, 'index.html'), PAGE);
  const url = await start(new DiskSource(folder));
  try {
    await rename(folder, `${folder}.aside`);
    const answer = rawRequest(url, '/');
    setTimeout(() => void rename(`${folder}.aside`, folder), 30);
    const back = await answer;
    assert.equal(back.status, 200);
    assert.match(back.body, /<h1>Home<\/h1>/);
    await rename(folder, `${folder}.aside`);
    const gone = await rawRequest(url, '/');
    assert.equal(gone.status, 503);
    assert.equal(gone.headers['retry-after'], '1');
  } finally {
    await rm(folder, { recursive: true, force: true });
    await rm(`${folder}.aside`, { recursive: true, force: true });
  }
});

test('a folder swapped for a link out of the output between the path check and the open: the file outside is never served', async () => {
  const base = await mkdtemp(path.join(tmpdir(), 'ir-handler-race-'));
  const root = path.join(base, 'public');
  const outside = path.join(base, 'secret');
  try {
    await mkdir(path.join(root, 'docs'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(root, 'docs', 'a.txt'), 'inside');
    await writeFile(path.join(root, '404.html'), 'not found here');
    await writeFile(path.join(outside, 'a.txt'), 'outside');
    const source = new DiskSource(root);
    // The race, made certain: right after the path is found to lie inside, `docs` becomes a
    // link to the folder outside, as another process could make it at any moment.
    const checked = source as unknown as { resolve(sitePath: string): Promise<string | null> };
    const resolve = checked.resolve.bind(source);
    let swap = false;
    checked.resolve = async (sitePath) => {
      const real = await resolve(sitePath);
      if (swap && sitePath === '/docs/a.txt') {
        await rename(path.join(root, 'docs'), path.join(base, 'docs-aside'));
        await symlink(outside, path.join(root, 'docs'));
        swap = false;
      }
      return real;
    };
    const url = await start(source);
    assert.equal((await rawRequest(url, '/docs/a.txt')).body, 'inside');
    swap = true;
    const raced = await rawRequest(url, '/docs/a.txt');
    assert.equal(swap, false, 'the swap was made');
    assert.equal(raced.status, 404);
    assert.doesNotMatch(raced.body, /outside/);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
});
