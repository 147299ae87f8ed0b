// Renders the demo's NAV chart (content/articles/annual-report-2024/nav-chart.png) from an
// SVG, deterministically: a markdown image for the image pipeline to process.
import sharp from 'sharp';

const values = [22.1, 24.8, 26.3, 25.0, 29.4, 31.2, 28.7, 33.5, 35.1, 39.45, 44.05];
const years = values.map((_, i) => 2014 + i);
const w = 1200, h = 600, pad = 70, max = 50;
const x = (i) => pad + (i * (w - 2 * pad)) / (values.length - 1);
const y = (v) => h - pad - (v / max) * (h - 2 * pad);
const bars = values.map((v, i) => `<rect x="${x(i) - 30}" y="${y(v)}" width="60" height="${h - pad - y(v)}" fill="#1f5f8b"/>`).join('');
const labels = years.map((yr, i) => `<text x="${x(i)}" y="${h - pad + 30}" font-size="20" text-anchor="middle" fill="#333">${yr}</text>`).join('');
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#fff"/>${bars}${labels}<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="#333"/></svg>`;
for (const out of process.argv.slice(2)) await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toFile(out);
