// The image data of RUNTIME.md "Images" (SPEC.md section 3), built from the processed
// variants of a source image. Pure: the same variants always give the same data.
import type { ImageData, ImageLayout as Layout } from './types.js';

export type { ImageData };

/** What processing one source image produced (src/build/images/process.ts). */
export interface ProcessedImage {
  /** Intrinsic size of the source. */
  width: number;
  height: number;
  /** Original format: 'jpeg' | 'png' | 'webp' | ... (the fallback). */
  format: string;
  /** Variant files, by format then width: site path of each. */
  variants: { format: string; width: number; path: string }[];
  /** Tiny blurred image as a data URI. */
  placeholder: string;
  /** The width it is shown at (constrained layout); variants are fractions and multiples of it. */
  displayWidth: number;
}

/**
 * The files next to a markdown body, by name: a processed image, or null for any other file (an
 * SVG, a PDF). The body's relative image addresses are looked up in it when it is compiled.
 */
export type BodyFolder = Readonly<Record<string, ProcessedImage | null>>;

/** Widths at 0.25, 0.5, 1 and 2 times the display width, never wider than the source. */
export function variantWidths(displayWidth: number, sourceWidth: number): number[] {
  const widths = [0.25, 0.5, 1, 2].map((f) => Math.min(sourceWidth, Math.round(displayWidth * f))).filter((w) => w >= 16);
  return [...new Set(widths)].sort((a, b) => a - b);
}

export function defaultSizes(layout: Layout, width: number): string {
  if (layout === 'fixed') return `${width}px`;
  if (layout === 'fullWidth') return '100vw';
  return `(min-width: ${width}px) ${width}px, 100vw`;
}

const MIME: Record<string, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif' };

/** Image data for a processed image at its display width. */
export function imageData(image: ProcessedImage, layout: Layout = 'constrained'): ImageData {
  const width = Math.min(image.displayWidth, image.width);
  const height = Math.round((image.height * width) / image.width);
  const sizes = defaultSizes(layout, width);
  const wanted = new Set(variantWidths(width, image.width));
  const srcSet = (format: string) =>
    image.variants
      .filter((v) => v.format === format && wanted.has(v.width))
      .map((v) => `${v.path} ${v.width}w`)
      .join(', ');
  const fallbackVariants = image.variants.filter((v) => v.format === image.format && wanted.has(v.width));
  const src = (fallbackVariants.find((v) => v.width >= width) ?? fallbackVariants[fallbackVariants.length - 1])?.path ?? '';
  const sources = ['avif', 'webp']
    .filter((f) => f !== image.format && image.variants.some((v) => v.format === f))
    .map((f) => ({ srcSet: srcSet(f), type: MIME[f]!, sizes }));
  return {
    layout,
    width,
    height,
    placeholder: { fallback: image.placeholder },
    images: { fallback: { src, srcSet: srcSet(image.format), sizes }, sources },
  };
}

const LAYOUTS: Record<string, Layout> = { fixed: 'fixed', constrained: 'constrained', fullwidth: 'fullWidth', 'full-width': 'fullWidth' };

/**
 * The layout a body asks for, as the markdown title (`![alt](src "fullWidth")`) or the raw
 * `<img data-layout="fixed">` attribute names it (any case, `layout=fixed` too), if it names one.
 */
export function layoutNamed(text: unknown): Layout | undefined {
  if (typeof text !== 'string') return undefined;
  const name = text.trim().replace(/^layout\s*[=:]\s*/i, '').toLowerCase();
  return Object.hasOwn(LAYOUTS, name) ? LAYOUTS[name] : undefined; // not `constructor`, an Object's own
}

/** The file a relative image address names: `b%20c.png` is `b c.png`; a `%` that starts no code (`100%.png`) is itself. */
export function fileNameIn(src: string): string {
  const name = src.replace(/^\.\//, '');
  try {
    return decodeURIComponent(name).normalize('NFC');
  } catch {
    return name.normalize('NFC');
  }
}
