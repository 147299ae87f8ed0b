// Templates import ir-site as a package (`ir-site/templates`, `ir-site/search`: package.json "exports"). When the
// templates are bundled, for the browser and for the server, those names resolve to ir-site's
// own source: the files the browser runtime is bundled from too, so a page gets one copy of
// them, and templates outside this folder need no installed copy of ir-site.
import path from 'node:path';
import type { Plugin } from 'esbuild';
import { PACKAGE_ROOT } from '../../package-root.js';

/** Each name a template may import, and the source file it is. */
const ENTRIES: Record<string, string> = {
  'ir-site/templates': path.join(PACKAGE_ROOT, 'src', 'exports', 'templates.ts'),
  'ir-site/search': path.join(PACKAGE_ROOT, 'src', 'exports', 'search.ts'),
};

export function irSitePackage(): Plugin {
  return {
    name: 'ir-site-package',
    setup(build) {
      build.onResolve({ filter: /^ir-site(\/|$)/ }, (args) => {
        const file = ENTRIES[args.path];
        if (file) return { path: file };
        return { errors: [{ text: `templates import ir-site as ${Object.keys(ENTRIES).map((n) => `"${n}"`).join(' or ')}, not "${args.path}"` }] };
      });
    },
  };
}
