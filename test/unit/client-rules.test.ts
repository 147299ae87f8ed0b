// The browser runtime's pure rules (prefetch decisions, batching, web-vitals reporting),
// run in Node with small fakes. The DOM wiring is covered by the browser tests.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import {
  STORAGE_KEY,
  createBatchQueue,
  loadPrefetched,
  prefetchTarget,
  savePrefetched,
  shouldPrefetchInViewport,
} from '../../src/client/prefetch.js';
import { createVitalsReporter, vitalsEntry } from '../../src/client/analytics.js';

test('viewport prefetch is on for ordinary visitors and connections', () => {
  assert.equal(shouldPrefetchInViewport({}), true);
  assert.equal(shouldPrefetchInViewport({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0' }), true);
  for (const effectiveType of ['3g', '4g']) {
    assert.equal(shouldPrefetchInViewport({ connection: { effectiveType, saveData: false } }), true, effectiveType);
  }
});

test('viewport prefetch is off on data saver, 2g and slow-2g', () => {
  assert.equal(shouldPrefetchInViewport({ connection: { saveData: true, effectiveType: '4g' } }), false);
  assert.equal(shouldPrefetchInViewport({ connection: { effectiveType: '2g' } }), false);
  assert.equal(shouldPrefetchInViewport({ connection: { effectiveType: 'slow-2g' } }), false);
});

test('viewport prefetch is off for crawlers, whatever the case', () => {
  for (const userAgent of [
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0)',
    'SomeCrawler/1.0',
    'Baiduspider',
    'site-crawling-tool',
  ]) {
    assert.equal(shouldPrefetchInViewport({ userAgent }), false, userAgent);
  }
});

const here = { origin: 'https://site.example', pathname: '/insights/' };
function link(href: string, attrs: { target?: string; rel?: string; download?: boolean } = {}) {
  return {
    href: new URL(href, here.origin).href,
    target: attrs.target ?? '',
    rel: attrs.rel ?? '',
    hasAttribute: (name: string) => name === 'download' && attrs.download === true,
  };
}

test('a link prefetches its pathname, without query or hash', () => {
  assert.equal(prefetchTarget(link('/article/q2-2025/?utm=x#top'), here), '/article/q2-2025/');
  assert.equal(prefetchTarget(link('https://site.example/fr/'), here), '/fr/');
  assert.equal(prefetchTarget(link('/contact-us/', { target: '_self' }), here), '/contact-us/');
});

test('downloads, other windows, rel=external, other schemes and origins are not prefetched', () => {
  assert.equal(prefetchTarget(link('/report.pdf', { download: true }), here), null);
  assert.equal(prefetchTarget(link('/contact-us/', { target: '_blank' }), here), null);
  assert.equal(prefetchTarget(link('/contact-us/', { rel: 'noopener External' }), here), null);
  assert.equal(prefetchTarget(link('mailto:ir@site.example'), here), null);
  assert.equal(prefetchTarget(link('tel:+15555550100'), here), null);
  assert.equal(prefetchTarget(link('https://other.example/insights/x/'), here), null);
  assert.equal(prefetchTarget(link('http://site.example/insights/x/'), here), null, 'another scheme is another origin');
});

test('the current page is not prefetched, with or without a hash', () => {
  assert.equal(prefetchTarget(link('/insights/'), here), null);
  assert.equal(prefetchTarget(link('/insights/#latest'), here), null);
  assert.equal(prefetchTarget(link('/insights/?page=2'), here), null);
});

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

test('prefetched paths survive in sessionStorage under ir-site:prefetched', () => {
  const storage = memoryStorage();
  savePrefetched(() => storage, new Set(['/a/', '/b/']));
  assert.equal(storage.data.get(STORAGE_KEY), '["/a/","/b/"]');
  assert.deepEqual([...loadPrefetched(() => storage)], ['/a/', '/b/']);
});

test('a throwing, missing or corrupt storage means memory only, never an error', () => {
  const throwing = () => {
    throw new DOMException('denied', 'SecurityError');
  };
  assert.equal(loadPrefetched(throwing).size, 0);
  assert.doesNotThrow(() => savePrefetched(throwing, new Set(['/a/'])));
  const full = { setItem: () => { throw new DOMException('full', 'QuotaExceededError'); } };
  assert.doesNotThrow(() => savePrefetched(() => full, new Set(['/a/'])));
  assert.equal(loadPrefetched(() => memoryStorage({ [STORAGE_KEY]: '{nope' })).size, 0);
  assert.deepEqual([...loadPrefetched(() => memoryStorage({ [STORAGE_KEY]: '["/a/",3,null]' }))], ['/a/']);
});

/** A batch queue whose idle callbacks run when the test says. */
function queueUnderTest(run: (item: string) => boolean = () => true) {
  const idle: (() => void)[] = [];
  const ran: string[] = [];
  const enqueue = createBatchQueue(
    (item: string) => (run(item) ? (ran.push(item), true) : false),
    (callback) => void idle.push(callback),
  );
  /** One idle callback's turn: the callbacks asked for so far. */
  const runIdleOnce = () => idle.splice(0).forEach((callback) => callback());
  /** A long idle period: callbacks asked for during it run in it too. */
  const runIdle = () => {
    while (idle.length > 0) runIdleOnce();
  };
  return { enqueue, ran, idle, runIdle, runIdleOnce };
}

test('viewport batches: 4 at the first idle moment, then at most one batch every 3000 ms', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const q = queueUnderTest();
    for (let i = 1; i <= 10; i++) q.enqueue(`/p${i}/`);
    assert.deepEqual(q.ran, [], 'nothing before idle');
    q.runIdle();
    assert.deepEqual(q.ran, ['/p1/', '/p2/', '/p3/', '/p4/']);
    q.runIdle();
    assert.equal(q.ran.length, 4, 'the next batch waits for the interval, not only for idle');
    mock.timers.tick(2999);
    q.runIdle();
    assert.equal(q.ran.length, 4);
    mock.timers.tick(1);
    assert.equal(q.ran.length, 4, 'and then for idle');
    q.runIdle();
    assert.deepEqual(q.ran.slice(4), ['/p5/', '/p6/', '/p7/', '/p8/']);
    mock.timers.tick(3000);
    q.runIdle();
    assert.deepEqual(q.ran.slice(8), ['/p9/', '/p10/']);
    mock.timers.tick(3000);
    q.runIdle();
    assert.equal(q.ran.length, 10);
    assert.equal(q.idle.length, 0, 'an empty queue asks for no idle time');
  } finally {
    mock.timers.reset();
  }
});

test('each idle callback starts one item: a batch is four short tasks, not one long one', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const q = queueUnderTest();
    for (let i = 1; i <= 6; i++) q.enqueue(`/p${i}/`);
    for (let n = 1; n <= 4; n++) {
      q.runIdleOnce();
      assert.equal(q.ran.length, n);
    }
    q.runIdleOnce();
    assert.equal(q.ran.length, 4, 'then the batch rests');
    assert.equal(q.idle.length, 0, 'and asks for no idle time while it rests');
  } finally {
    mock.timers.reset();
  }
});

test('a queued item that needs nothing (prefetched on hover meanwhile) does not take a slot', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const q = queueUnderTest((item) => !item.startsWith('/done'));
    for (const item of ['/done1/', '/a/', '/done2/', '/b/', '/c/', '/d/', '/e/']) q.enqueue(item);
    q.enqueue('/a/');
    q.runIdle();
    assert.deepEqual(q.ran, ['/a/', '/b/', '/c/', '/d/']);
    mock.timers.tick(3000);
    q.runIdle();
    assert.deepEqual(q.ran, ['/a/', '/b/', '/c/', '/d/', '/e/'], 'a repeated item is queued once');
  } finally {
    mock.timers.reset();
  }
});

test('a web-vitals record: rounded, CLS times 1000 first', () => {
  assert.deepEqual(vitalsEntry({ name: 'CLS', id: 'v6-1', value: 0.12345 }), {
    event: 'core-web-vitals',
    webVitalsMeasurement: { name: 'CLS', id: 'v6-1', value: 123 },
  });
  assert.deepEqual(vitalsEntry({ name: 'LCP', id: 'v6-2', value: 2499.5 }).webVitalsMeasurement, {
    name: 'LCP',
    id: 'v6-2',
    value: 2500,
  });
  assert.equal((vitalsEntry({ name: 'INP', id: 'v6-3', value: 40.4 }).webVitalsMeasurement as { value: number }).value, 40);
});

function values(pushed: Record<string, unknown>[]) {
  return pushed.map((entry) => {
    const m = entry.webVitalsMeasurement as { name: string; value: number };
    return `${m.name}=${m.value}`;
  });
}

test('CLS and LCP are debounced 3000 ms (trailing) and pushed once per page load', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const pushed: Record<string, unknown>[] = [];
    const { debounced } = createVitalsReporter((entry) => void pushed.push(entry));
    // web-vitals updates one object in place: the pushed value is the one reported last.
    const lcp = { name: 'LCP', id: 'v6-l', value: 800 };
    debounced(lcp);
    mock.timers.tick(2000);
    lcp.value = 1900;
    debounced(lcp);
    debounced({ name: 'CLS', id: 'v6-c', value: 0.01 });
    lcp.value = 9999; // changed, but never reported: must not leak into the push
    mock.timers.tick(2999);
    assert.deepEqual(pushed, [], 'each new value restarts the wait');
    mock.timers.tick(1);
    assert.deepEqual(values(pushed), ['LCP=1900', 'CLS=10']);
    debounced({ name: 'LCP', id: 'v6-l', value: 2500 });
    debounced({ name: 'CLS', id: 'v6-c', value: 0.2 });
    mock.timers.tick(10_000);
    assert.deepEqual(values(pushed), ['LCP=1900', 'CLS=10'], 'at most once per metric');
  } finally {
    mock.timers.reset();
  }
});

test('hiding the page pushes what the debounce holds; other metrics push at once, once', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const pushed: Record<string, unknown>[] = [];
    const { debounced, report, flush } = createVitalsReporter((entry) => void pushed.push(entry));
    debounced({ name: 'CLS', id: 'v6-c', value: 0.05 });
    report({ name: 'INP', id: 'v6-i', value: 120.2 });
    report({ name: 'INP', id: 'v6-i', value: 300 });
    report({ name: 'FID', id: 'v6-f', value: 3.6 });
    assert.deepEqual(values(pushed), ['INP=120', 'FID=4']);
    flush();
    assert.deepEqual(values(pushed), ['INP=120', 'FID=4', 'CLS=50']);
    mock.timers.tick(3000);
    flush();
    assert.equal(pushed.length, 3, 'the flushed timer does not push again');
  } finally {
    mock.timers.reset();
  }
});
