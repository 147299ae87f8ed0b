// The not-found pages' inline script, run as a browser would run it (a VM with
// location, fetch and the rules), without a browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import vm from 'node:vm';
import { NOT_FOUND_REDIRECT_SCRIPT } from '../../src/build/render/not-found-redirect.js';
import { rule } from '../../src/build/graph/redirects.js';

const RULES = [rule('/cn/insights/', '/insights/'), rule('/article/commentary-q2-2025/', '/article/commentary-Q2-2025/'), rule('/old/', '/new/?a=1')];

async function visit(url: string, rules = RULES): Promise<string | null> {
  const u = new URL(url, 'https://site.example');
  let replaced: string | null = null;
  const context = {
    location: { pathname: u.pathname, search: u.search, hash: u.hash, replace: (to: string) => (replaced = to) },
    fetch: async (input: string) => {
      assert.equal(input, '/redirects.json');
      return { ok: true, json: async () => rules };
    },
    window: {} as Record<string, unknown>,
  };
  context.window.fetch = context.fetch;
  vm.runInNewContext(NOT_FOUND_REDIRECT_SCRIPT, context);
  await new Promise((r) => setTimeout(r, 10));
  return replaced;
}

test('an exact rule redirects, keeping query and hash', async () => {
  assert.equal(await visit('/cn/insights/?q=1#top'), '/insights/?q=1#top');
});

test('a rule matches the lowercased path', async () => {
  assert.equal(await visit('/CN/Insights/'), '/insights/');
});

test('a path without its trailing slash still finds its rule', async () => {
  assert.equal(await visit('/cn/insights'), '/insights/');
});

test('a query on a target that has one is joined with &', async () => {
  assert.equal(await visit('/old/?b=2'), '/new/?a=1&b=2');
});

test('no rule, no redirect; never a redirect to the same path', async () => {
  assert.equal(await visit('/cn/unknown/'), null);
  assert.equal(await visit('/article/commentary-Q2-2025/'), null);
});

test('rules not meant for the browser are ignored', async () => {
  assert.equal(await visit('/cn/insights/', [{ ...RULES[0]!, redirectInBrowser: false as true }]), null);
});
