// A legacy link (`/cn/...`) to a page whose own path has capitals (a team folder named with
// them). The browser's legacy lookup lowercases the rest of the path, as a link may be in any
// case; the build lists such pages in page-data/redirects.json so that the lookup finds them,
// as the server's (the page as typed, else its lower-case spelling) and the not-found pages'
// per-page rules do.
import assert from 'node:assert/strict';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, test } from 'node:test';
import { RedirectTable } from '../../src/client/redirects.js';
import { buildToMemory, writableFixture } from '../helpers.js';

let site = '';
after(() => rm(site, { recursive: true, force: true }));

test('the browser finds a page with capitals in its path from a legacy link in any case; the pages a rule brings back are not listed', async () => {
  site = await writableFixture('minimal', 'legacy-capitals');
  await rename(path.join(site, 'content', 'team', 'asmith'), path.join(site, 'content', 'team', 'ASmith'));
  const { result, out } = await buildToMemory(site, { cache: false });
  const paths = result.graph.routes.map((r) => r.path);
  assert.ok(paths.includes('/your-team/ASmith/') && paths.includes('/fr/your-team/ASmith/'), `the bios keep their folder's spelling: ${paths.join(' ')}`);

  const file = out.text('page-data/redirects.json');
  const browser = JSON.parse(file) as { casedPaths?: string[]; rules: [string, string][] };
  assert.deepEqual(browser.casedPaths?.sort(), ['/fr/your-team/ASmith/', '/your-team/ASmith/']);
  // The commentary's capitalised quarter has its own rule (from the lowercase slug): not listed again.
  assert.ok(paths.includes('/article/commentary-Q2-2025/'));
  assert.ok(browser.rules.some(([, to]) => to === '/article/commentary-Q2-2025/'));

  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (url: string) => {
    assert.equal(url, '/page-data/redirects.json');
    return new Response(file);
  }) as typeof fetch;
  try {
    const table = new RedirectTable();
    const to = (pathname: string) => table.resolve(pathname, '?a=1', '#bio');
    assert.equal(await to('/cn/your-team/ASmith/'), '/your-team/ASmith/?a=1#bio');
    assert.equal(await to('/CN/your-team/asmith/'), '/your-team/ASmith/?a=1#bio');
    assert.equal(await to('/cn/fr/Your-Team/ASMITH/'), '/fr/your-team/ASmith/?a=1#bio');
    assert.equal(await to('/cn/article/commentary-q2-2025/'), '/article/commentary-Q2-2025/?a=1#bio');
    assert.equal(await to('/cn/your-team/jdoe/'), '/your-team/jdoe/?a=1#bio');
    assert.equal(await to('/cn/Nowhere/'), '/nowhere/?a=1#bio', 'a path no page has: lowercased, then not found');
    // What follows the prefix would read as another site's address: no redirect at all.
    assert.equal(await to('/cn//evil.example/'), null);
    assert.equal(await to('/CN/\\evil.example/'), null);
    assert.equal(await to('/cn///evil.example/x/'), null);
  } finally {
    globalThis.fetch = realFetch;
  }
});
