// `ir-site serve` negotiates Accept-Encoding: brotli first, then gzip; the build's `.br` and
// `.gz` copies when there are any, compressed on the fly when not; `Vary: Accept-Encoding`,
// a Content-Length and an ETag of the bytes sent, HEAD and 304 alike; ranges of the file as it
// is. A port in use is an error that names it and says what to do.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { build } from '../../src/build/index.js';
import { serve, type RunningServer } from '../../src/commands/server/serve.js';
import { ListenError } from '../../src/commands/server/listen.js';
import { fixture } from '../helpers.js';

let server: RunningServer;
let dir: string;
let out: string;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request with exactly these headers (node:http adds no Accept-Encoding and decodes nothing). */
function request(target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${target}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (answer: Answer) =>
  answer.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(answer.body) : answer.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(answer.body) : answer.body;

const file = (rel: string) => readFile(path.join(out, rel));

/** Every answer that could be compressed says that it depends on Accept-Encoding, and its length is that of what was sent. */
function assertWellFormed(answer: Answer): void {
  assert.match(String(answer.headers.vary), /Accept-Encoding/i);
  assert.equal(Number(answer.headers['content-length']), answer.body.length);
}

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ir-compress-'));
  out = path.join(dir, 'public');
  await build({ root: fixture('minimal'), outDir: out, reporter: {}, cache: false });
  // A compressible file the build did not write, so it has no copies: compressed on the fly.
  await writeFile(path.join(out, 'extra.json'), JSON.stringify({ rows: Array.from({ length: 400 }, (_, i) => ({ i, label: `row ${i}` })) }));
  server = await serve({ dir: out, port: 0 });
});

after(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

test('brotli when the client accepts it (even listed last), gzip when only gzip or when brotli is worth less; the build\'s copies, byte for byte', async () => {
  const page = await file('index.html');
  const br = await request('/', { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.equal(br.status, 200);
  assert.equal(br.headers['content-encoding'], 'br');
  assertWellFormed(br);
  assert.ok(br.body.equals(await file('index.html.br')), 'the precompressed copy is sent');
  assert.ok(decode(br).equals(page));

  for (const accept of ['gzip', 'br;q=0.5, gzip', 'gzip, br;q=0']) {
    const gz = await request('/', { 'Accept-Encoding': accept });
    assert.equal(gz.headers['content-encoding'], 'gzip', accept);
    assertWellFormed(gz);
    assert.ok(gz.body.equals(await file('index.html.gz')), accept);
  }

  // No Accept-Encoding, or nothing we have: the page as it is, still with Vary.
  for (const headers of [{}, { 'Accept-Encoding': 'deflate' }, { 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': 'br;q=0, gzip;q=0' }] as Record<string, string>[]) {
    const plain = await request('/', headers);
    assert.equal(plain.headers['content-encoding'], undefined, JSON.stringify(headers));
    assertWellFormed(plain);
    assert.ok(plain.body.equals(page));
  }

  // Each representation has its own tag.
  const plain = await request('/');
  const gz = await request('/', { 'Accept-Encoding': 'gzip' });
  assert.equal(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size, 3);
});

test('HEAD gives the headers of the GET in the same coding; 304 by the tag of the coding sent, with Vary', async () => {
  for (const accept of ['br', 'gzip', '']) {
    const headers: Record<string, string> = accept ? { 'Accept-Encoding': accept } : {};
    const get = await request('/article/commentary-Q2-2025/', headers);
    const head = await request('/article/commentary-Q2-2025/', headers, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    for (const name of ['content-length', 'content-encoding', 'etag', 'vary', 'content-type']) assert.equal(head.headers[name], get.headers[name], `${accept}: ${name}`);

    const again = await request('/article/commentary-Q2-2025/', { ...headers, 'If-None-Match': String(get.headers.etag) });
    assert.equal(again.status, 304, accept);
    assert.equal(again.headers.etag, get.headers.etag);
    assert.match(String(again.headers.vary), /Accept-Encoding/i);
    assert.equal(again.body.length, 0);
    // What a cache updates, no other representation metadata (RFC 9110 section 15.4.5).
    assert.equal(again.headers['cache-control'], get.headers['cache-control']);
    assert.deepEqual([again.headers['content-type'], again.headers['accept-ranges']], [undefined, undefined]);
  }
  // A brotli tag does not stand for the gzip answer.
  const br = await request('/article/commentary-Q2-2025/', { 'Accept-Encoding': 'br' });
  const other = await request('/article/commentary-Q2-2025/', { 'Accept-Encoding': 'gzip', 'If-None-Match': String(br.headers.etag) });
  assert.equal(other.status, 200);
  assert.equal(other.headers['content-encoding'], 'gzip');
});

test('a file without copies is compressed on the fly: same rules, a stable tag, HEAD and 304 right', async () => {
  const original = await file('extra.json');
  for (const encoding of ['br', 'gzip']) {
    const first = await request('/extra.json', { 'Accept-Encoding': encoding });
    assert.equal(first.headers['content-encoding'], encoding);
    assertWellFormed(first);
    assert.ok(first.body.length < original.length);
    assert.ok(decode(first).equals(original));
    const head = await request('/extra.json', { 'Accept-Encoding': encoding }, 'HEAD');
    assert.equal(head.headers['content-length'], first.headers['content-length']);
    assert.equal(head.headers.etag, first.headers.etag);
    const again = await request('/extra.json', { 'Accept-Encoding': encoding, 'If-None-Match': String(first.headers.etag) });
    assert.equal(again.status, 304);
  }
});

test('the not-found page of a language is sent compressed too', async () => {
  const answer = await request('/fr/nope/', { 'Accept-Encoding': 'br, gzip' });
  assert.equal(answer.status, 404);
  assert.equal(answer.headers['content-encoding'], 'br');
  assertWellFormed(answer);
  assert.ok(decode(answer).equals(await file('fr/404.html')));
});

test('a range is a range of the file as it is, never of a compressed body', async () => {
  const page = await file('index.html');
  const answer = await request('/', { 'Accept-Encoding': 'br, gzip', Range: 'bytes=10-99' });
  assert.equal(answer.status, 206);
  assert.equal(answer.headers['content-encoding'], undefined);
  assert.equal(answer.headers['content-range'], `bytes 10-99/${page.length}`);
  assert.ok(answer.body.equals(page.subarray(10, 100)));
});

test('images, PDFs and files under 1 KiB go as they are; only compressible types carry Vary', async () => {
  const pdf = await request('/article/commentary-Q2-2025/report.pdf', { 'Accept-Encoding': 'br, gzip' });
  assert.equal(pdf.status, 200);
  assert.equal(pdf.headers['content-encoding'], undefined);
  assert.equal(pdf.headers.vary, undefined);
  await writeFile(path.join(out, 'small.json'), '{"a":1}');
  const small = await request('/small.json', { 'Accept-Encoding': 'br, gzip' });
  assert.equal(small.headers['content-encoding'], undefined);
  assertWellFormed(small);
  assert.equal(small.body.toString(), '{"a":1}');
});

test('a copy older than its file (the file written over by hand) is not sent: the file is compressed on the fly', async () => {
  const rel = 'fr/index.html';
  const edited = Buffer.concat([await file(rel), Buffer.from('<!-- edited by hand -->')]);
  await writeFile(path.join(out, rel), edited);
  const past = new Date(Date.now() - 60_000);
  await utimes(path.join(out, `${rel}.br`), past, past);
  const answer = await request('/fr/', { 'Accept-Encoding': 'br' });
  assert.equal(answer.headers['content-encoding'], 'br');
  assertWellFormed(answer);
  assert.ok(decode(answer).equals(edited));
});

test('a port in use: an error that names the port and suggests --port', async () => {
  const port = Number(new URL(server.url).port);
  await assert.rejects(serve({ dir: out, port }), (error: Error) => {
    assert.ok(error instanceof ListenError, String(error));
    assert.match(error.message, new RegExp(`port ${port} is already in use`));
    assert.match(error.message, /--port/);
    return true;
  });
});
