// Not a test: full-page screenshots of a few pages for a human look at the design.
// Usage: node --import tsx test/e2e/screenshots.ts [outFolder=/tmp/shots] [path...]
// The viewport is 1280x900 unless SHOTS_WIDTH (e.g. 390 for a phone) says otherwise.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from '../../src/build/index.js';
import { REPO } from '../helpers.js';
import { launchBrowser } from './browser.js';
import { serve } from '../../src/commands/server/serve.js';

const [outFolder = '/tmp/shots', ...requested] = process.argv.slice(2);
const paths = requested.length > 0 ? requested : ['/', '/article/annual-report-2024/', '/fr/your-team/', '/portfolio/'];

const width = Number(process.env.SHOTS_WIDTH) || 1280;
const tmp = await mkdtemp(path.join(os.tmpdir(), 'ir-site-shots-'));
const browser = await launchBrowser({ viewport: { width, height: 900 } }).catch(async (error) => {
  await rm(tmp, { recursive: true, force: true });
  throw error;
});
try {
  const site = path.join(tmp, 'public');
  await build({ root: REPO, outDir: site, reporter: {} });
  const server = await serve({ dir: site, port: 0 });
  try {
    await mkdir(outFolder, { recursive: true });
    for (const sitePath of paths) {
      const page = await browser.context.newPage();
      await page.goto(`${server.url}${sitePath}`, { waitUntil: 'load' });
      const name = sitePath.replace(/^\/|\/$/g, '').replace(/[^A-Za-z0-9]+/g, '-') || 'home';
      const file = path.join(outFolder, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      await page.close();
    }
  } finally {
    await server.close();
  }
} finally {
  await browser.close();
  await rm(tmp, { recursive: true, force: true });
}
