// Wildcards shared by the server, `dev` and the browser runtime: match paths (`/search/*`) and
// wildcard redirect rules (`/cn/*` -> `/:splat`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchPage, matchPathsOf, parseMatchPaths } from '../../src/shared/match-paths.js';
import { indexRedirects, wildcardRedirect } from '../../src/shared/redirects.js';
import { rule } from '../../src/build/graph/redirects.js';

test('a match path covers every path under its prefix, the most specific first', () => {
  const list = matchPathsOf([
    { path: '/search/', matchPath: '/search/*' },
    { path: '/fr/search/', matchPath: '/fr/search/*' },
    { path: '/about/' },
  ]);
  assert.deepEqual(list.map((m) => m.path), ['/fr/search/', '/search/']);
  assert.equal(matchPage(list, '/search/foo/'), '/search/');
  assert.equal(matchPage(list, '/fr/search/perspectives/x'), '/fr/search/');
  assert.equal(matchPage(list, '/search/'), null, 'the page itself is a file');
  assert.equal(matchPage(list, '/insights/'), null);
});

test('a match-paths file that is not a list of {matchPath, path} gives nothing, not an error', () => {
  assert.deepEqual(parseMatchPaths({ x: 1 }), []);
  assert.deepEqual(parseMatchPaths([{ matchPath: '/a/*' }, { matchPath: '/b/*', path: 'http://evil/' }, null]), []);
});

test('a wildcard rule redirects any case of its prefix, keeps the rest, and never leaves the site', () => {
  const index = indexRedirects([rule('/cn/*', '/:splat'), rule('/x/', '/y/')]);
  assert.equal(wildcardRedirect(index, '/cn/fr/insights/'), '/fr/insights/');
  assert.equal(wildcardRedirect(index, '/CN/Unknown/Page'), '/Unknown/Page');
  assert.equal(wildcardRedirect(index, '/cn/'), '/');
  assert.equal(wildcardRedirect(index, '/cn//evil.example/'), undefined);
  assert.equal(wildcardRedirect(index, '/cn/\\evil.example/'), undefined);
  assert.equal(wildcardRedirect(index, '/x/'), undefined, 'plain rules are not wildcards');
  assert.equal(index.exact.has('/cn/*'), false);
  // `$` in the path is text, not a replacement pattern of String.replace.
  assert.equal(wildcardRedirect(index, '/cn/a$&b/'), '/a$&b/');
  assert.equal(wildcardRedirect(index, "/cn/a$'b/"), "/a$'b/");
  assert.equal(wildcardRedirect(index, '/cn/x$$y/'), '/x$$y/');
});
