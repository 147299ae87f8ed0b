// What every build (and dev) reports beyond the content's own errors: broken links and
// anchors in the bodies, missing translations, hreflang problems (quick.ts). Warnings: the site
// still builds; `build --strict` fails on them. The build gets this as its `siteChecks` option
// (the CLI, the package's `build`, dev), so the build stage needs no check code.
import type { SiteChecks } from '../../build/site-warnings.js';
import { quickCheck } from './quick.js';

export const siteChecks: SiteChecks = { run: quickCheck };
