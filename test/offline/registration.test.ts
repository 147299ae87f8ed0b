// The registration and update rules of src/client/service-worker.ts, run in Node with a
// fake ServiceWorkerContainer: the exact console messages, what counts as local, the
// update mark the router reads, and the reload when page resources failed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorkerClient, EVENTS, MESSAGES, workerAllowed, type WorkerEnv } from '../../src/client/service-worker.js';
import { WORKER_PATH } from '../../src/shared/offline.js';
import { CACHE_PAGE_URLS, CLEAR_RUNTIME_CACHES } from '../../src/shared/offline.js';

class FakeWorker extends EventTarget {
  readonly messages: unknown[] = [];
  /** False: the worker never answers on the port it is given. */
  answers = true;
  constructor(
    public state: ServiceWorkerState = 'installing',
    readonly scriptURL = 'https://example.com/sw.js',
  ) {
    super();
  }
  to(state: ServiceWorkerState): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
  postMessage(message: unknown, transfer: MessagePort[] = []): void {
    this.messages.push(message);
    const port = transfer[0];
    if (port && this.answers) {
      port.postMessage(true); // Workbox replies once every URL is cached
      setTimeout(() => port.close(), 10);
    }
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  updates = 0;
  unregistered = false;
  async update(): Promise<void> {
    this.updates++;
  }
  async unregister(): Promise<boolean> {
    this.unregistered = true;
    return true;
  }
  /** A new worker starts installing (the browser found a changed sw.js). */
  found(worker: FakeWorker): void {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
  }
}

class FakeContainer extends EventTarget {
  registered: string[] = [];
  constructor(
    public controller: FakeWorker | null,
    /** null: resolves with nothing, as a blocked `register` does. */
    readonly registration: FakeRegistration | Error | null = new FakeRegistration(),
    readonly existing: FakeRegistration[] = [],
  ) {
    super();
  }
  register(url: string): Promise<FakeRegistration | undefined> {
    this.registered.push(url);
    return this.registration instanceof Error ? Promise.reject(this.registration) : Promise.resolve(this.registration ?? undefined);
  }
  async getRegistrations(): Promise<FakeRegistration[]> {
    return this.existing;
  }
  /** clients.claim() or a new worker taking over. */
  control(worker: FakeWorker): void {
    this.controller = worker;
    this.dispatchEvent(new Event('controllerchange'));
  }
}

interface Harness {
  env: WorkerEnv;
  logs: string[];
  errors: unknown[][];
  events: Array<[string, unknown]>;
  reloads: number;
}

function harness(container: FakeContainer | undefined, overrides: Partial<WorkerEnv> & { url?: string } = {}): Harness {
  const url = new URL(overrides.url ?? 'https://www.example.com/fr/insights/');
  const h: Harness = { logs: [], errors: [], events: [], reloads: 0, env: undefined as unknown as WorkerEnv };
  h.env = {
    location: { protocol: url.protocol, hostname: url.hostname, href: url.href, origin: url.origin, reload: () => void h.reloads++ },
    container: container as unknown as ServiceWorkerContainer | undefined,
    console: { log: (...args: unknown[]) => void h.logs.push(args.join(' ')), error: (...args: unknown[]) => void h.errors.push(args) },
    emit: (name, detail) => void h.events.push([name, detail]),
    whenLoaded: (start) => start(),
    devServer: false,
    loadedUrls: () => [`${url.origin}/static/runtime.ABCDEFGH.js`, `${url.origin}/page-data/insights/page-data.json`],
    ...overrides,
  };
  return h;
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

test('HTTPS, localhost, 127.0.0.1 and [::1] may run the worker; any other plain-HTTP host may not', () => {
  for (const [protocol, hostname] of [
    ['https:', 'www.example.com'],
    ['https:', '10.0.0.7'],
    ['http:', 'localhost'],
    ['http:', '127.0.0.1'],
    ['http:', '[::1]'],
  ]) {
    assert.equal(workerAllowed({ protocol: protocol!, hostname: hostname! }), true, `${protocol}//${hostname}`);
  }
  for (const hostname of ['www.example.com', 'ir-site.test', '127.0.0.2', '192.168.1.10', 'app.localhost', '0.0.0.0']) {
    assert.equal(workerAllowed({ protocol: 'http:', hostname }), false, hostname);
  }
});

test('plain HTTP on another host: the HTTPS message, exactly, and no registration', async () => {
  const container = new FakeContainer(null);
  const h = harness(container, { url: 'http://ir-site.test:8080/' });
  createWorkerClient(h.env).register();
  await settle();
  assert.deepEqual(h.errors, [['Service workers can only be used over HTTPS, or on localhost for development']]);
  assert.deepEqual(container.registered, []);
});

test('the message comes even where the browser hides the worker API (insecure contexts have none)', () => {
  const h = harness(undefined, { url: 'http://www.example.com/' });
  createWorkerClient(h.env).register();
  assert.deepEqual(h.errors, [[MESSAGES.insecure]]);
});

test('a browser without workers on HTTPS: nothing happens, nothing is logged', async () => {
  const h = harness(undefined);
  createWorkerClient(h.env).register();
  await settle();
  assert.deepEqual([h.logs, h.errors], [[], []]);
});

test('registration failure: "Error during service worker registration:" with the error', async () => {
  const failure = new TypeError('bad script');
  const h = harness(new FakeContainer(null, failure));
  createWorkerClient(h.env).register();
  await settle();
  assert.deepEqual(h.errors, [['Error during service worker registration:', failure]]);
});

test('registration waits for the page to load', async () => {
  const container = new FakeContainer(null);
  let start: (() => void) | null = null;
  const h = harness(container, { whenLoaded: (s) => void (start = s) });
  createWorkerClient(h.env).register();
  assert.deepEqual(container.registered, []);
  start!();
  assert.deepEqual(container.registered, [WORKER_PATH]);
});

test('first install: "Content is now available offline!", activated, then the page has the worker cache what it loaded', async () => {
  const registration = new FakeRegistration();
  const worker = new FakeWorker();
  registration.installing = worker;
  const container = new FakeContainer(null, registration);
  const h = harness(container);
  const client = createWorkerClient(h.env);
  client.register();
  await settle();
  worker.to('installed');
  assert.deepEqual(h.logs, [MESSAGES.firstInstall]);
  worker.to('activating');
  worker.to('activated');
  assert.deepEqual(h.logs, [MESSAGES.firstInstall, MESSAGES.activated]);
  assert.deepEqual(h.events, [[EVENTS.activated, { update: false }]]);

  container.control(worker); // clients.claim()
  assert.deepEqual(worker.messages, [
    {
      type: CACHE_PAGE_URLS,
      urls: ['https://www.example.com/fr/insights/', 'https://www.example.com/static/runtime.ABCDEFGH.js', 'https://www.example.com/page-data/insights/page-data.json'],
    },
  ]);
  await settle();
  assert.equal(h.events.at(-1)?.[0], EVENTS.cached);
  assert.equal(client.updateWaiting(), false, 'a first install is not an update');
  assert.equal(h.reloads, 0);
  assert.deepEqual(h.errors, []);
});

test('first install: a fetch still under way when the worker takes over (a viewport prefetch) is handed to it once it ends', async () => {
  const registration = new FakeRegistration();
  const worker = new FakeWorker();
  registration.installing = worker;
  const container = new FakeContainer(null, registration);
  const hands: ((urls: string[]) => void)[] = [];
  const h = harness(container, { lateUrls: (hand) => void hands.push(hand) });
  createWorkerClient(h.env).register();
  await settle();
  worker.to('activated');
  assert.equal(hands.length, 0, 'not before the worker controls the page');
  container.control(worker);
  assert.equal(hands.length, 1, 'asked for the fetches under way at the take-over');
  hands[0]!(['https://www.example.com/page-data/your-team/page-data.json']);
  assert.deepEqual(worker.messages.at(-1), { type: CACHE_PAGE_URLS, urls: ['https://www.example.com/page-data/your-team/page-data.json'] });
  assert.equal(worker.messages.length, 2);
});

test('first install after a link was followed: the page landed on is cached too, not only the one shown', async () => {
  const registration = new FakeRegistration();
  const worker = new FakeWorker();
  registration.installing = worker;
  const container = new FakeContainer(null, registration);
  const h = harness(container);
  createWorkerClient(h.env).register();
  await settle();
  (h.env.location as { href: string }).href = 'https://www.example.com/your-team/'; // a client-side navigation
  worker.to('activated');
  container.control(worker);
  const { urls } = worker.messages[0] as { urls: string[] };
  assert.deepEqual(urls.slice(0, 2), ['https://www.example.com/fr/insights/', 'https://www.example.com/your-team/']);
});

test('an update (installed while another worker controls the page): the next navigation must be a full load', async () => {
  const old = new FakeWorker('activated');
  const registration = new FakeRegistration();
  const container = new FakeContainer(old, registration);
  const h = harness(container);
  const client = createWorkerClient(h.env);
  client.register();
  await settle();
  assert.equal(client.updateWaiting(), false);
  const next = new FakeWorker();
  registration.found(next);
  next.to('installed');
  assert.equal(client.updateWaiting(), true);
  assert.deepEqual(h.logs, [MESSAGES.updated]);
  next.to('activated');
  container.control(next);
  assert.deepEqual(
    h.events.map(([name]) => name),
    [EVENTS.updated, EVENTS.activated],
  );
  assert.deepEqual(h.events[1], [EVENTS.activated, { update: true }]);
  assert.deepEqual(next.messages, [], 'no cache request: the page was controlled already');
  assert.equal(h.reloads, 0, 'resources were fine: no reload now');
});

test('an update on a page whose resources failed: reload at once (whichever came first)', async () => {
  for (const failFirst of [true, false]) {
    const registration = new FakeRegistration();
    const h = harness(new FakeContainer(new FakeWorker('activated'), registration));
    const client = createWorkerClient(h.env);
    client.register();
    await settle();
    if (failFirst) client.markResourcesFailed();
    assert.equal(h.reloads, 0, 'a failure alone does not reload');
    const next = new FakeWorker();
    registration.found(next);
    next.to('installed');
    if (!failFirst) client.markResourcesFailed();
    assert.equal(h.reloads, 1, `failFirst=${failFirst}`);
  }
});

test('redundant: "The installing service worker became redundant."', async () => {
  const registration = new FakeRegistration();
  const h = harness(new FakeContainer(new FakeWorker('activated'), registration));
  createWorkerClient(h.env).register();
  await settle();
  const next = new FakeWorker();
  registration.found(next);
  next.to('redundant');
  assert.deepEqual(h.errors, [['The installing service worker became redundant.']]);
});

test('a normal update: the worker that controlled the page becomes redundant, and that is no error', async () => {
  // First install, followed from the start: the same page then sees the next deploy's worker replace it.
  const registration = new FakeRegistration();
  const first = new FakeWorker();
  registration.installing = first;
  const container = new FakeContainer(null, registration);
  const h = harness(container);
  const client = createWorkerClient(h.env);
  client.register();
  await settle();
  first.to('installed');
  first.to('activating');
  first.to('activated');
  container.control(first);

  const second = new FakeWorker();
  registration.found(second);
  second.to('installed');
  second.to('activating');
  first.to('redundant'); // replaced: what every worker comes to
  second.to('activated');
  container.control(second);
  assert.deepEqual(h.errors, [], 'no console error');
  assert.equal(client.updateWaiting(), true);
  assert.deepEqual(h.logs, [MESSAGES.firstInstall, MESSAGES.activated, MESSAGES.updated, MESSAGES.activated]);

  // A worker replaced while it waited (installed, never activated) is no failure either.
  const third = new FakeWorker();
  registration.found(third);
  third.to('installed');
  third.to('redundant');
  assert.deepEqual(h.errors, []);

  // A failed install still is.
  const broken = new FakeWorker();
  registration.found(broken);
  broken.to('redundant');
  assert.deepEqual(h.errors, [[MESSAGES.redundant]]);
});

test('a new build: the controlling worker is asked to drop its runtime caches, and the page waits for its answer', async () => {
  const controller = new FakeWorker('activated');
  const h = harness(new FakeContainer(controller));
  const client = createWorkerClient(h.env);
  client.register();
  await settle();
  await client.clearRuntimeCaches();
  assert.deepEqual(controller.messages, [{ type: CLEAR_RUNTIME_CACHES }]);

  // A worker that does not answer holds the page no longer than CLEAR_TIMEOUT_MS.
  controller.answers = false;
  let done = false;
  const clearing = client.clearRuntimeCaches().then(() => void (done = true));
  await settle();
  assert.equal(done, false, 'still waiting for the answer');
  await clearing;
  assert.equal(controller.messages.length, 2);

  // No worker controls the page (first visit, a browser without workers): nothing to wait for.
  await createWorkerClient(harness(new FakeContainer(null)).env).clearRuntimeCaches();
  await createWorkerClient(harness(undefined).env).clearRuntimeCaches();
});

test('joining late: a worker already past "installed" when the page registers still counts', async () => {
  const old = new FakeWorker('activated');
  const next = new FakeWorker('activating');
  const registration = new FakeRegistration();
  registration.installing = next;
  const h = harness(new FakeContainer(old, registration));
  const client = createWorkerClient(h.env);
  client.register();
  await settle();
  assert.equal(client.updateWaiting(), true);
  next.to('activated');
  assert.deepEqual(h.events.at(-1), [EVENTS.activated, { update: true }]);
});

test('a new controller for a page that had one is an update, even if the install events were missed', async () => {
  const container = new FakeContainer(new FakeWorker('activated'));
  const h = harness(container);
  const client = createWorkerClient(h.env);
  client.register();
  await settle();
  container.control(new FakeWorker('activated'));
  assert.equal(client.updateWaiting(), true);
});

test('after a client-side navigation the page asks for an update check, one at a time', async () => {
  const registration = new FakeRegistration();
  const h = harness(new FakeContainer(new FakeWorker('activated'), registration));
  const client = createWorkerClient(h.env);
  client.checkForUpdate(); // before registration: nothing to check
  client.register();
  await settle();
  client.checkForUpdate();
  client.checkForUpdate();
  assert.equal(registration.updates, 1);
  await settle();
  client.checkForUpdate();
  assert.equal(registration.updates, 2);
});

test('pages of `ir-site dev`: no worker, and a worker left by `serve` on the same origin is removed', async () => {
  const leftover = new FakeRegistration();
  const container = new FakeContainer(null, new FakeRegistration(), [leftover]);
  const h = harness(container, { url: 'http://localhost:8000/', devServer: true });
  createWorkerClient(h.env).register();
  await settle();
  assert.deepEqual(container.registered, []);
  assert.equal(leftover.unregistered, true);
  assert.deepEqual([h.logs, h.errors], [[], []]);
});

test('a blocked registration that resolves with nothing (Playwright `serviceWorkers: "block"`) is harmless', async () => {
  const container = new FakeContainer(null, null);
  const h = harness(container);
  const client = createWorkerClient(h.env);
  client.register();
  await settle();
  client.checkForUpdate();
  assert.deepEqual(container.registered, [WORKER_PATH]);
  assert.deepEqual([h.logs, h.errors], [[], []]);
});
