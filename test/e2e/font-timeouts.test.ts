// SPEC.md section 9 / RUNTIME.md "Analytics": the font kit's script gets 5000 ms to arrive,
// then its fonts get 3000 ms, or the kit's own value (one kit of the spec uses 2000 ms).
// The kit is served by a stub (page.route), which records what Typekit.load was given; the
// page's setTimeout delays are recorded too, so nothing here measures time.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildSite, openBrowser, REPO, skip, Tab, until, type Browser, type BuiltSite } from './runtime-harness.js';

/** Records every setTimeout delay, in order, before the runtime runs. */
const recordTimers = () => {
  const w = window as unknown as { __delays: Array<number | string> };
  w.__delays = [];
  const original = window.setTimeout;
  window.setTimeout = ((handler: TimerHandler, delay?: number, ...rest: unknown[]) => {
    w.__delays.push(delay ?? 0);
    return original(handler, delay, ...rest);
  }) as typeof window.setTimeout;
};

const LOADED = 'kit script ran';
/** A Typekit stand-in: marks its arrival among the timers, keeps the config it is loaded with, never settles the fonts. */
const KIT_STUB = `window.__delays.push(${JSON.stringify(LOADED)});window.Typekit={load:function(c){window.__kitConfig={timeout:c.timeout}}};`;

describe('font kit timeouts', { skip, concurrency: 2 }, () => {
  let byDefault: BuiltSite;
  let kit2000: BuiltSite;
  let browser: Browser;

  before(async () => {
    [byDefault, kit2000, browser] = await Promise.all([
      buildSite(path.join(REPO, 'test', 'fixtures', 'integrations')),
      buildSite(path.join(REPO, 'test', 'fixtures', 'integrations-kit')),
      openBrowser(),
    ]);
  });

  after(async () => {
    await browser?.close();
    await byDefault?.close();
    await kit2000?.close();
  });

  async function kitTimeouts(site: BuiltSite, kitId: string): Promise<{ script: number; fonts: number; given: number }> {
    const tab = await Tab.open(browser.context, site, '/', {
      init: [recordTimers],
      before: (page) =>
        page.route(`https://use.typekit.net/${kitId}.js`, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: KIT_STUB })),
    });
    try {
      const given = await until(() => tab.page.evaluate(() => (window as unknown as { __kitConfig?: { timeout: number } }).__kitConfig?.timeout), 'Typekit.load to be called');
      const delays = await tab.page.evaluate(() => (window as unknown as { __delays: Array<number | string> }).__delays);
      const loaded = delays.indexOf(LOADED);
      assert.ok(loaded > 0, `timers were recorded around the script's arrival: ${JSON.stringify(delays)}`);
      // Of the delays the runtime starts, the kit's are the ones at these values: the script
      // timeout starts before the script ran, the fonts' timer as it runs.
      const kitTimers = [5000, 3000, 2000];
      const first = (list: Array<number | string>) => list.filter((d): d is number => typeof d === 'number' && kitTimers.includes(d))[0] ?? -1;
      return { script: first(delays.slice(0, loaded)), fonts: first(delays.slice(loaded)), given };
    } finally {
      await tab.close();
    }
  }

  test('by default: the script gets 5000 ms, the fonts 3000 ms', { timeout: 30_000 }, async () => {
    assert.deepEqual(await kitTimeouts(byDefault, 'abc1234'), { script: 5000, fonts: 3000, given: 3000 });
  });

  test('a kit with its own font timeout (2000 ms) gets it; the script timeout stays 5000 ms', { timeout: 30_000 }, async () => {
    assert.deepEqual(await kitTimeouts(kit2000, 'kit2000'), { script: 5000, fonts: 2000, given: 2000 });
  });
});
