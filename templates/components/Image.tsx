// A processed image (RUNTIME.md "Images"): a box that reserves the image's size so nothing
// shifts, a tiny blurred placeholder that fades out over 500 ms linear once the image has
// loaded, the image itself (AVIF and WebP sources, the original format as fallback) that
// fades in, and a <noscript> copy. The "loaded" mark is set by a small inline script in
// the document head (it sees load events before the runtime arrives).
// The eager image is the page's first, usually its largest paint above the fold: it is
// fetched at high priority and shown as it arrives, with no fade (a fade from opacity 0
// moves the largest paint back by its length). Lazy images keep the fade.
import type { ImageData } from 'ir-site/templates';

export interface ImageProps {
  image: ImageData;
  /** Required: empty for a decorative image. */
  alt: string;
  /** The first image of a page loads eagerly (high priority, no fade); every other one lazily. */
  eager?: boolean;
  className?: string;
}

export function Image({ image, alt, eager = false, className }: ImageProps) {
  const { layout, width, height, placeholder, images } = image;
  const box =
    layout === 'fixed'
      ? // Its own size where there is room; narrower, in proportion, on a narrow screen (WCAG 1.4.10).
        { width, maxWidth: '100%', aspectRatio: `${width} / ${height}` }
      : layout === 'fullWidth'
        ? { width: '100%', aspectRatio: `${width} / ${height}` }
        : { maxWidth: width, aspectRatio: `${width} / ${height}` };
  const main = {
    src: images.fallback.src,
    srcSet: images.fallback.srcSet,
    sizes: images.fallback.sizes,
    width,
    height,
    alt,
  };
  return (
    // A <span> (styled as a block): valid wherever an image is, including inside a
    // markdown paragraph, where a <div> would make the browser close the <p> early.
    <span className={`ir-image ir-image--${layout}${eager ? ' ir-image--eager' : ''}${className ? ` ${className}` : ''}`} style={box}>
      <img className="ir-image__placeholder" src={placeholder.fallback} alt="" aria-hidden="true" width={width} height={height} />
      <picture>
        {images.sources.map((source) => (
          <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={source.sizes} />
        ))}
        <img className="ir-image__main" {...main} loading={eager ? 'eager' : 'lazy'} decoding={eager ? 'sync' : 'async'} fetchPriority={eager ? 'high' : undefined} />
      </picture>
      <noscript>
        <img className="ir-image__main ir-image__main--noscript" {...main} loading={eager ? 'eager' : 'lazy'} fetchPriority={eager ? 'high' : undefined} />
      </noscript>
    </span>
  );
}
