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

/** The share card as SVG: the display name over the brand colour, the site's host below it. */
export function shareCardSvg(displayName: string, siteUrl: string): string {
  const host = siteUrl.replace(/^https?:\/\//, '');
  // Long names get a smaller font rather than running off the card.
  const size = displayName.length > 40 ? 52 : displayName.length > 28 ? 62 : 72;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_IMAGE.width}" height="${SHARE_IMAGE.height}" viewBox="0 0 ${SHARE_IMAGE.width} ${SHARE_IMAGE.height}"><rect width="100%" height="100%" fill="${BRAND}"/><rect x="80" y="250" width="120" height="8" fill="#ffffff" opacity="0.8"/><text x="80" y="350" font-family="Georgia,serif" font-size="${size}" fill="#ffffff">${escapeXml(displayName)}</text><text x="80" y="430" font-family="Helvetica,Arial,sans-serif" font-size="32" fill="#ffffff" opacity="0.8">${escapeXml(host)}</text></svg>`;
}

/** The share card as the PNG pages point og:image at. */
export async function sharePng(svg: string): Promise<Uint8Array> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).resize(SHARE_IMAGE.width, SHARE_IMAGE.height).png({ compressionLevel: 9 }).toBuffer();
}
