// Gzip size of the JavaScript a first visit downloads, per template, from a built site:
// the runtime (React included), its static imports, and the page's template chunks (what
// the page preloads). Target for the home page: 85 KB (about 83 KiB).
//
//   npx tsx bench/first-visit-js.ts [outDir=public]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const out = path.resolve(process.argv[2] ?? 'public');
const pages = ['/', '/fr/', '/insights/', '/article/annual-report-2024/', '/your-team/hmercier/', '/portfolio/', '/search/', '/404.html'];
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

for (const page of pages) {
  const file = path.join(out, page.endsWith('.html') ? page : `${page}index.html`);
  const html = readFileSync(file, 'utf8');
  const scripts = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
  let total = 0;
  const parts = scripts.map((s) => {
    const size = gzipSync(readFileSync(path.join(out, s)), { level: 9 }).length;
    total += size;
    return `${path.basename(s)} ${kb(size)}`;
  });
  console.log(`${page.padEnd(32)} ${kb(total).padStart(9)} gzip in ${scripts.length} files (${parts.join(', ')})`);
}
