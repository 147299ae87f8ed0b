// The prefetcher watches the links a page adds after its render and lets go of those it removes
// (docs/runtime.md "Prefetch"): a search page that replaces its results at each query must not
// leave the IntersectionObserver holding every result it ever showed. In jsdom, with an
// IntersectionObserver that records what it watches.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><body><div id="root"><ul id="results"></ul></div></body>', { url: 'https://site.example/search/' });
const globals = globalThis as Record<string, unknown>;
for (const name of ['window', 'document', 'location', 'sessionStorage', 'HTMLElement', 'HTMLAnchorElement', 'Element', 'Node', 'MutationObserver']) {
  globals[name] = (dom.window as unknown as Record<string, unknown>)[name];
}
Object.defineProperty(globalThis, 'navigator', { configurable: true, value: { userAgent: 'test', connection: { effectiveType: '4g', saveData: false } } });
const watched = new Set<Element>();
globals.IntersectionObserver = class {
  observe(el: Element) {
    watched.add(el);
  }
  unobserve(el: Element) {
    watched.delete(el);
  }
};
globals.requestIdleCallback = (callback: () => void) => setTimeout(callback, 1);

const { createPrefetcher } = await import('../../src/client/prefetch.js');
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('links added after the render are watched; links removed are let go', async () => {
  const prefetcher = createPrefetcher({ prefetch: async () => undefined, isInternal: () => true });
  const root = dom.window.document.getElementById('root')!;
  const results = dom.window.document.getElementById('results')!;
  prefetcher.observe(root);
  for (let query = 0; query < 30; query++) {
    results.innerHTML = Array.from({ length: 20 }, (_, i) => `<li><a href="/article/r-${query}-${i}/">result</a></li>`).join('');
    await settle();
  }
  assert.equal(watched.size, 20, 'only the results on the page are watched');
  assert.ok([...watched].every((a) => a.isConnected));
  const late = dom.window.document.createElement('a');
  late.href = '/article/late/';
  results.append(late);
  await settle();
  assert.ok(watched.has(late), 'a single link appended later is watched');
});
