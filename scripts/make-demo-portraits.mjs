#!/usr/bin/env node
// Renders a placeholder portrait for every demo team bio:
// content/team/<handle>/photo.jpg, 480x600, an abstract head-and-shoulders
// silhouette with the person's initials on a soft background.
//
// Usage: node scripts/make-demo-portraits.mjs [contentDir]   (default: ./content)
//
// Deterministic: colours come from a hash of the handle, the initials from the
// `name` in the bio's en.md (or fr.md), and no metadata or timestamp is written.
// The initials are drawn as SVG text, so the glyphs depend on the fonts installed
// (DejaVu Sans when present, else the system's sans-serif).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const WIDTH = 480;
const HEIGHT = 600;
const QUALITY = 70;
const MAX_BYTES = 25 * 1024;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const contentDir = path.resolve(process.argv[2] ?? path.join(root, 'content'));
const teamDir = path.join(contentDir, 'team');

/** FNV-1a, 32 bits: a stable number per handle. */
function hash(text) {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function hsl(h, s, l) {
  return `hsl(${h.toFixed(0)}, ${s}%, ${l}%)`;
}

/** The `name:` field of a markdown file's front matter, without a YAML dependency. */
function nameFromFrontMatter(source) {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source);
  if (!match) return null;
  const line = match[1].split(/\r?\n/).find((l) => /^name\s*:/.test(l));
  if (!line) return null;
  return line.replace(/^name\s*:\s*/, '').replace(/^(['"])(.*)\1$/, '$2').trim() || null;
}

/** "Marie-Claude Tremblay" -> "MT", "Rafael da Silva" -> "RS", "Chloé Bouchard" -> "CB". */
function initialsOf(name, handle) {
  const words = name.split(/\s+/).filter(Boolean);
  const capitalised = words.filter((w) => w[0] === w[0].toLocaleUpperCase() && w[0] !== w[0].toLocaleLowerCase());
  const picked = capitalised.length >= 2 ? [capitalised[0], capitalised.at(-1)] : words.slice(0, 2);
  const letters = picked.map((w) => w[0].toLocaleUpperCase()).join('');
  return letters || handle.slice(0, 2).toUpperCase();
}

function escapeXml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.codePointAt(0)};`);
}

function portraitSvg(handle, initials) {
  const h = hash(handle);
  const hue = h % 360;
  const accent = (hue + 25 + ((h >>> 9) % 40)) % 360;
  const bgTop = hsl(hue, 45, 88);
  const bgBottom = hsl(accent, 40, 78);
  const figure = hsl(hue, 28, 42);
  const figureShade = hsl(hue, 30, 34);
  const text = hsl(hue, 35, 96);
  // Small per-person variation in the silhouette.
  const headR = 78 + ((h >>> 3) % 10);
  const headY = 238 + ((h >>> 6) % 14);
  const shoulderW = 190 + ((h >>> 12) % 30);
  const cx = WIDTH / 2;
  const neckTop = headY + headR - 8;
  const shoulderY = neckTop + 60;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0.4" y2="1">
      <stop offset="0" stop-color="${bgTop}"/>
      <stop offset="1" stop-color="${bgBottom}"/>
    </linearGradient>
  </defs>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#bg)"/>
  <circle cx="${WIDTH * 0.82}" cy="${HEIGHT * 0.14}" r="120" fill="${hsl(accent, 50, 92)}" opacity="0.55"/>
  <path d="M ${cx - 34} ${neckTop} L ${cx + 34} ${neckTop} L ${cx + 44} ${shoulderY + 30} L ${cx - 44} ${shoulderY + 30} Z" fill="${figureShade}"/>
  <path d="M ${cx - shoulderW} ${HEIGHT}
           C ${cx - shoulderW} ${shoulderY + 40}, ${cx - shoulderW + 50} ${shoulderY}, ${cx - 60} ${shoulderY - 8}
           Q ${cx} ${shoulderY + 26}, ${cx + 60} ${shoulderY - 8}
           C ${cx + shoulderW - 50} ${shoulderY}, ${cx + shoulderW} ${shoulderY + 40}, ${cx + shoulderW} ${HEIGHT} Z"
        fill="${figure}"/>
  <circle cx="${cx}" cy="${headY}" r="${headR}" fill="${figure}"/>
  <text x="${cx}" y="${HEIGHT - 62}" text-anchor="middle" font-family="DejaVu Sans, Arial, Helvetica, sans-serif"
        font-size="64" font-weight="bold" letter-spacing="4" fill="${text}">${escapeXml(initials)}</text>
</svg>`;
}

async function render(handle, name) {
  const initials = initialsOf(name, handle);
  const out = path.join(teamDir, handle, 'photo.jpg');
  let quality = QUALITY;
  let buffer;
  for (;;) {
    buffer = await sharp(Buffer.from(portraitSvg(handle, initials)), { density: 72 })
      .resize(WIDTH, HEIGHT, { fit: 'fill' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality, mozjpeg: true, chromaSubsampling: '4:2:0' })
      .toBuffer();
    if (buffer.length <= MAX_BYTES || quality <= 40) break;
    quality -= 5;
  }
  await writeFile(out, buffer);
  return { handle, initials, bytes: buffer.length, quality };
}

async function main() {
  if (!existsSync(teamDir)) throw new Error(`No team folder at ${teamDir}`);
  const entries = (await readdir(teamDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  let count = 0;
  for (const handle of entries) {
    const dir = path.join(teamDir, handle);
    const bio = ['en.md', 'fr.md'].map((f) => path.join(dir, f)).find((f) => existsSync(f));
    if (!bio) continue;
    const name = nameFromFrontMatter(await readFile(bio, 'utf8')) ?? handle;
    const result = await render(handle, name);
    count += 1;
    const flag = result.bytes > MAX_BYTES ? '  (over 25 KB!)' : '';
    console.log(`${handle.padEnd(12)} ${result.initials.padEnd(3)} ${String(result.bytes).padStart(6)} bytes  q${result.quality}${flag}`);
  }
  console.log(`${count} portrait(s) written under ${path.relative(process.cwd(), teamDir) || teamDir}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
