// The PNG icons home screens and the web manifests want, drawn from the identity's SVG
// favicon with sharp, and the default share image (og:image) of a page without a cover:
// a 1200×630 card with the identity's display name, made at build time per language.
import { SHARE_IMAGE } from '../../shared/head.js';
import { escapeHtml as escapeXml } from '../../shared/escape.js';

/** Brand colours of the default icon and card (the theme colour of the manifests). */
const BRAND = '#0b3d5c';

export interface PngIcon {
  file: string;
  size: number;
  /** A maskable icon: the platform crops it to a circle or squircle, so the drawing sits inside the safe zone on a full background. */
  maskable: boolean;
  /** Listed in the web manifests (the apple-touch-icon is found by its name and a <link>). */
  manifest: boolean;
}

export const PNG_ICONS: readonly PngIcon[] = [
  { file: 'icon-192.png', size: 192, maskable: false, manifest: true },
  { file: 'icon-512.png', size: 512, maskable: false, manifest: true },
  { file: 'icon-maskable-512.png', size: 512, maskable: true, manifest: true },
  { file: 'apple-touch-icon.png', size: 180, maskable: false, manifest: false },
];

/** Site path of the default share image of a language (1200×630: what large link previews show best). */
export const shareImagePath = SHARE_IMAGE.path;

const loadSharp = () => import('sharp').then((m) => m.default);

/**
 * One PNG icon. The maskable one puts the drawing in the middle 70% (the safe zone is a circle
 * of 80%) on the brand colour; the apple-touch-icon gets no transparency (iOS would show black).
 */
export async function iconPng(svg: string, icon: PngIcon): Promise<Uint8Array> {
  const sharp = await loadSharp();
  const opaque = icon.maskable || icon.file === 'apple-touch-icon.png';
  const inner = icon.maskable ? Math.round(icon.size * 0.7) : icon.size;
  const drawn = await sharp(Buffer.from(svg), { density: 300 }).resize(inner, inner, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer();
  if (!opaque) return drawn;
  const offset = Math.round((icon.size - inner) / 2);
  return sharp({ create: { width: icon.size, height: icon.size, channels: 4, background: BRAND } })
    .composite([{ input: drawn, left: offset, top: offset }])
    .flatten({ background: BRAND })
    .png()
    .toBuffer();
}

/** The card's text: its fonts, its largest size, and the room it has (80 px margins). */
const CARD_TEXT = { name: { family: 'Georgia,serif', size: 72 }, host: { family: 'Helvetica,Arial,sans-serif', size: 32 }, room: SHARE_IMAGE.width - 160 };

/** How wide `text` is drawn in `family` at `size` px, measured by Pango: the text engine librsvg draws the card's SVG with. */
async function drawnWidth(text: string, family: string, size: number): Promise<number> {
  const sharp = await loadSharp();
  try {
    const { info } = await sharp({ text: { text: escapeXml(text), font: `${family} ${size}`, dpi: 72 } }).png().toBuffer({ resolveWithObject: true });
    return info.width;
  } catch {
    // Pango draws nothing for an empty text or one of invisible characters (U+200B): no width.
    return 0;
  }
}

/**
 * One line of the card, as large as fits its room: a text too long for its largest size gets a
 * smaller one, measured, since widths differ by font and machine (librsvg ignores textLength).
 */
async function cardLine(text: string, font: { family: string; size: number }, x: number, y: number, opacity: number): Promise<string> {
  const width = await drawnWidth(text, font.family, font.size);
  const size = Math.min(font.size, Math.floor((font.size * CARD_TEXT.room) / Math.max(width, 1)));
  return `<text x="${x}" y="${y}" font-family="${font.family}" font-size="${size}" fill="#ffffff" opacity="${opacity}">${escapeXml(text)}</text>`;
}

/** The share card as SVG: the display name over the brand colour, the site's host below it, each fitted to the card. */
export async function shareCardSvg(displayName: string, siteUrl: string): Promise<string> {
  const host = siteUrl.replace(/^https?:\/\//, '');
  const lines = [await cardLine(displayName, CARD_TEXT.name, 80, 350, 1), await cardLine(host, CARD_TEXT.host, 80, 430, 0.8)];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_IMAGE.width}" height="${SHARE_IMAGE.height}" viewBox="0 0 ${SHARE_IMAGE.width} ${SHARE_IMAGE.height}"><rect width="100%" height="100%" fill="${BRAND}"/><rect x="80" y="250" width="120" height="8" fill="#ffffff" opacity="0.8"/>${lines.join('')}</svg>`;
}

/** The share card of a display name and site as the PNG pages point og:image at. */
export async function sharePng(displayName: string, siteUrl: string): Promise<Uint8Array> {
  const sharp = await loadSharp();
  const svg = await shareCardSvg(displayName, siteUrl);
  return sharp(Buffer.from(svg)).resize(SHARE_IMAGE.width, SHARE_IMAGE.height).png({ compressionLevel: 9 }).toBuffer();
}
