// The demo site passes `ir-site check --strict`: no errors and no warnings, in both
// languages, with every page, link, anchor, hreflang and redirect rule looked at.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { check } from '../../src/commands/check/index.js';
import { REPO } from '../helpers.js';

test('the demo site is clean: 0 errors, 0 warnings', async () => {
  const result = await check({ root: REPO });
  assert.equal(result.built, true);
  assert.deepEqual(
    result.diagnostics.map((d) => `${d.file}:${d.line ?? ''} ${d.severity} ${d.rule} ${d.message}${d.page ? ` (on ${d.page})` : ''}`),
    [],
  );
  assert.ok(result.stats.pages >= 130, `${result.stats.pages} pages`);
  assert.ok(result.stats.links >= 4000, `${result.stats.links} internal references checked`);
  // The legacy /cn/ prefix is one wildcard rule, not one rule per English page (issue 20 point 4).
  assert.ok(result.stats.redirects >= 50, `${result.stats.redirects} redirect rules`);
  assert.ok(result.external.length > 0, 'the demo links to videos: listed, not fetched');
});
