// `ir-site serve` under load and while the output folder is replaced: the process stays up,
// every answer is a complete, correct file or a clean error status, and a download the client
// abandons gives its file back. Bounded by the amount of work, never by a timing assertion.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import fg from 'fast-glob';
import { build } from '../../src/build/index.js';
import type { FileState } from '../../src/files/digest.js';
import { StagedDiskSink } from '../../src/build/emit/sink.js';
import { serve } from '../../src/commands/server/serve.js';
import { writableFixture } from '../helpers.js';
import { load, request, type Answer, type LoadRequest } from './load.js';
import { HOST_FILES } from '../../src/build/emit/host-files.js';

/** How long the build loop runs while the load generator asks for pages (IR_SITE_LOAD_MS to change). */
const LOAD_MS = Number(process.env.IR_SITE_LOAD_MS ?? 8000);

let tmp: string;
const roots: { A: string; B: string } = { A: '', B: '' };
/** Each version's output, file by file (site path without the leading slash). */
const versions: Record<'A' | 'B', Map<string, Buffer>> = { A: new Map(), B: new Map() };
const refDir = (v: 'A' | 'B') => path.join(tmp, `ref-${v}`);

async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const files = await fg('**/*', { cwd: dir, dot: true, onlyFiles: true });
  return new Map(await Promise.all(files.map(async (f) => [f, await readFile(path.join(dir, f))] as const)));
}

before(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'ir-serve-load-'));
  roots.A = await writableFixture('minimal', `serve-load-a-${process.pid}`);
  roots.B = await writableFixture('minimal', `serve-load-b-${process.pid}`);
  // Version B: an article body changed, so its pages, page data, search index and worker differ.
  const article = path.join(roots.B, 'content/articles/commentary-q2-2025/en.md');
  await writeFile(article, `${await readFile(article, 'utf8')}\nA paragraph only version B has, ${'long '.repeat(400)}.\n`);
  for (const v of ['A', 'B'] as const) {
    await build({ root: roots[v], outDir: refDir(v), reporter: {}, cache: false });
    versions[v] = await readTree(refDir(v));
  }
  assert.ok([...versions.A].some(([f, data]) => !versions.B.get(f)!.equals(data)), 'the versions differ');
});

after(async () => {
  await rm(tmp, { recursive: true, force: true });
  for (const root of Object.values(roots)) if (root) await rm(root, { recursive: true, force: true });
});

/** The build's own publishing step (what `ir-site build` does last) with a prepared tree. */
async function publish(tree: string, outDir: string, previous: Record<string, FileState> | null): Promise<Record<string, FileState>> {
  const sink = new StagedDiskSink(outDir, previous);
  const files = await fg('**/*', { cwd: tree, dot: true, onlyFiles: true });
  await Promise.all(files.map((rel) => sink.copy(path.join(tree, rel), rel)));
  return sink.commit();
}

const urlOf = (rel: string) => `/${rel.split('/').map(encodeURIComponent).join('/')}`.replace(/(^|\/)index\.html$/, '$1');

test(`a build loop replaces the output folder for ${LOAD_MS} ms while 24 clients ask for pages: every answer complete and correct, or a clean error`, async () => {
  const out = path.join(tmp, 'public');
  await build({ root: roots.A, outDir: out, reporter: {}, cache: false });
  const server = await serve({ dir: out, port: 0 });
  let running = true;
  const swaps = { builds: 0, whole: 0, inPlace: 0 };
  const loop = (async () => {
    // At least two rounds whatever the time; then rounds until the deadline.
    const deadline = Date.now() + LOAD_MS;
    const more = (round: number) => running && (round < 2 || Date.now() < deadline);
    for (let round = 0; more(round); round++) {
      const v = round % 2 === 0 ? 'B' : 'A';
      // A real build swaps a new folder in whole (no build cache: no record of the last output).
      await build({ root: roots[v], outDir: out, reporter: {}, cache: false });
      swaps.builds++;
      // Then the publishing step alone, faster, alternating versions: swapping the folder in
      // whole, then moving each changed file into place (as a build with its cache does).
      let record: Record<string, FileState> | null = null;
      for (let i = 0; i < 4 && more(round); i++) {
        record = await publish(refDir(i % 2 === 0 ? (v === 'A' ? 'B' : 'A') : v), out, record);
        if (i === 0) swaps.whole++;
        else swaps.inPlace++;
      }
    }
    running = false;
  })();

  // Content-hashed names (search index shards) are in one version only: 404 while the other is out.
  // The host configuration files are never served (404, as on the hosts that read them).
  const files = [...new Set([...versions.A.keys(), ...versions.B.keys()])].filter((f) => !HOST_FILES.has(`/${f}`));
  const runtime = files.find((f) => /^static\/runtime\.[A-Z0-9]+\.js$/.test(f))!;
  const targets: LoadRequest[] = [
    ...files.map((f) => ({ path: urlOf(f) })),
    { path: '/insights' },
    { path: '/no-such-page/' },
    { path: `/${runtime}`, headers: { Range: 'bytes=1000-50999' } },
    { path: '/insights/', method: 'HEAD' },
  ];
  // One body per ETag and one ETag per body: a tag that names two contents would let a cache serve stale bytes.
  const bodyOfTag = new Map<string, string>();
  const tagOfBody = new Map<string, string>();
  const check = (req: LoadRequest, answer: Answer): string | null => {
    if (answer.status === 503) return answer.headers['retry-after'] ? null : '503 without Retry-After';
    if (req.path === '/insights') return answer.status === 301 && answer.headers.location === '/insights/' ? null : `expected 301, got ${answer.status}`;
    if (req.path === '/no-such-page/') return answer.status === 404 ? null : `expected 404, got ${answer.status}`;
    const rel = req.path.slice(1).split('/').map(decodeURIComponent).join('/');
    const file = rel === '' || rel.endsWith('/') ? `${rel}index.html` : rel;
    const candidates = [versions.A.get(file), versions.B.get(file)].filter((c): c is Buffer => c !== undefined);
    if (candidates.length === 1 && answer.status === 404) return null;
    if (req.method === 'HEAD') {
      if (answer.status !== 200 || answer.body.length !== 0) return `HEAD: ${answer.status} with ${answer.body.length} bytes`;
      return candidates.some((c) => Number(answer.headers['content-length']) === c.length) ? null : `HEAD: Content-Length ${answer.headers['content-length']}`;
    }
    if (req.headers?.Range) {
      if (answer.status !== 206) return `expected 206, got ${answer.status}`;
      if (answer.headers['content-range'] !== `bytes 1000-50999/${candidates[0]!.length}`) return `Content-Range ${answer.headers['content-range']}`;
      return candidates.some((c) => c.subarray(1000, 51000).equals(answer.body)) ? null : 'the range is not a slice of either version';
    }
    if (answer.status !== 200) return `expected 200, got ${answer.status}`;
    if (Number(answer.headers['content-length']) !== answer.body.length) return `Content-Length ${answer.headers['content-length']}, body ${answer.body.length} bytes`;
    if (!candidates.some((c) => c.equals(answer.body))) return `a body of ${answer.body.length} bytes that is neither version (${candidates.map((c) => c.length).join(' or ')} bytes)`;
    const digest = createHash('sha256').update(answer.body).digest('hex');
    const etag = String(answer.headers.etag);
    if ((bodyOfTag.get(etag) ?? digest) !== digest) return `ETag ${etag} named two different bodies`;
    if ((tagOfBody.get(digest) ?? etag) !== etag) return `the same body came with two ETags: ${tagOfBody.get(digest)} and ${etag}`;
    bodyOfTag.set(etag, digest);
    tagOfBody.set(digest, etag);
    return null;
  };

  let report;
  try {
    report = await load({ base: server.url, clients: 24, running: () => running, next: () => targets[Math.floor(Math.random() * targets.length)]!, check });
    await loop;
    // Still serving, and serving the last version published.
    const last = await request(server.url, { path: '/' }, false);
    assert.equal(last.status, 200);
  } finally {
    running = false;
    await loop.catch(() => undefined);
    await server.close();
  }
  const statuses = Object.fromEntries(report.statuses);
  console.log(`load: ${report.requests} requests, statuses ${JSON.stringify(statuses)}, ${swaps.builds} builds, ${swaps.whole} whole-folder swaps, ${swaps.inPlace} in-place updates`);
  assert.deepEqual(report.failures.slice(0, 20), [], `${report.failures.length} wrong answers`);
  assert.ok(swaps.builds >= 2 && swaps.whole >= 2 && swaps.inPlace >= 6, 'the output folder was replaced while the clients ran');
  assert.ok((report.statuses.get(200) ?? 0) > report.requests / 2, 'most answers are files');
});

const openFds = () => readdirSync('/proc/self/fd').length;

/** Sends a request on a fresh socket and hangs up at `when`; resolves once the socket is closed. */
function abandon(port: number, target: string, when: 'after-request' | 'first-byte', headers = ''): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    socket.on('connect', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
      if (when === 'after-request') setImmediate(() => socket.destroy());
    });
    socket.once('data', () => socket.destroy());
  });
}

test('2000 clients that hang up mid-file: the process stays up and its open files come back to the baseline', async () => {
  const dir = path.join(tmp, 'downloads');
  await rm(dir, { recursive: true, force: true });
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true });
  // Bigger than what the socket buffers take in, so a reader that hangs up leaves the file half sent.
  const big = randomBytes(8 * 1024 * 1024);
  await writeFile(path.join(dir, 'report.pdf'), big);
  await writeFile(path.join(dir, 'index.html'), '<!DOCTYPE html><title>x</title>');
  const server = await serve({ dir, port: 0 });
  const port = Number(new URL(server.url).port);
  try {
    // Warm up (the first request reads the file once for its ETag), then count.
    assert.equal((await request(server.url, { path: '/report.pdf' }, false)).body.length, big.length);
    const baseline = openFds();
    const CLIENTS = 2000;
    const kinds: [string, 'after-request' | 'first-byte', string][] = [
      ['/report.pdf', 'first-byte', ''],
      ['/report.pdf', 'first-byte', 'Range: bytes=4000000-\r\n'],
      ['/report.pdf', 'after-request', ''],
      ['/report.pdf', 'first-byte', 'If-None-Match: "other"\r\n'],
    ];
    for (let i = 0; i < CLIENTS; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => abandon(port, ...kinds[(i + j) % kinds.length]!)));
    }
    // Bounded wait: the server notices each hang-up on its next write.
    const deadline = Date.now() + 20_000;
    while (openFds() > baseline && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const now = openFds();
    assert.ok(now <= baseline, `${now} open files after ${CLIENTS} abandoned downloads, ${baseline} before`);
    const whole = await request(server.url, { path: '/report.pdf' }, false);
    assert.equal(whole.status, 200);
    assert.ok(whole.body.equals(big), 'the whole file, still');
  } finally {
    await server.close();
  }
});

/** The kernel's count of connections dropped because a listen queue was full (this network namespace). */
function listenOverflows(): number {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n').filter((l) => l.startsWith('TcpExt:'));
  const names = lines[0]!.split(/\s+/);
  const values = lines[1]!.split(/\s+/);
  return Number(values[names.indexOf('ListenOverflows')]);
}

test('1000 connections opened at once: each one is queued by the kernel, none dropped, and each gets its page', async () => {
  const out = path.join(tmp, 'concurrent');
  await rm(out, { recursive: true, force: true });
  const { cp } = await import('node:fs/promises');
  await cp(refDir('A'), out, { recursive: true });
  const server = await serve({ dir: out, port: 0 });
  const port = Number(new URL(server.url).port);
  const page = versions.A.get('insights/index.html')!;
  const overflowsBefore = listenOverflows();
  try {
    const answers = await Promise.all(
      Array.from(
        { length: 1000 },
        () =>
          new Promise<string>((resolve) => {
            const socket = net.connect(port, '127.0.0.1');
            const chunks: Buffer[] = [];
            socket.setTimeout(120_000, () => socket.destroy(new Error('no answer within 120 s')));
            socket.on('data', (c) => chunks.push(c));
            socket.on('error', (e) => resolve(e.message));
            socket.on('end', () => {
              const text = Buffer.concat(chunks);
              const head = text.subarray(0, text.indexOf('\r\n\r\n')).toString('latin1');
              const body = text.subarray(text.indexOf('\r\n\r\n') + 4);
              resolve(head.startsWith('HTTP/1.1 200') && body.equals(page) ? 'ok' : `${head.split('\r\n')[0]}, ${body.length} bytes`);
            });
            socket.write('GET /insights/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
          }),
      ),
    );
    const wrong = answers.filter((a) => a !== 'ok');
    assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} of 1000 connections without their page`);
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    if (somaxconn >= 1000) {
      // A full listen queue drops the handshake's last packet; the client waits 1 s, 3 s, 7 s... to retry.
      assert.equal(listenOverflows() - overflowsBefore, 0, 'connections dropped by a full listen queue');
    } else {
      console.log(`net.core.somaxconn is ${somaxconn}: the kernel caps the listen queue below 1000, overflow not checked`);
    }
  } finally {
    await server.close();
  }
});
