// A team portrait with its intrinsic size, so the box is reserved before it loads.
// Inside <picture> (ready for webp/avif sources): React's server renderer would otherwise
// prepend a <link rel="preload"> to the body markup for every non-lazy image.
import type { PortraitData } from '../../src/shared/types.js';

export interface PortraitProps {
  photo: PortraitData;
  /** Text alternative: the person's name. */
  alt: string;
  eager?: boolean;
  className?: string;
}

export function Portrait({ photo, alt, eager = false, className = 'portrait' }: PortraitProps) {
  return (
    <picture>
      <img
        className={className}
        src={photo.src}
        width={photo.width}
        height={photo.height}
        alt={alt}
        loading={eager ? 'eager' : 'lazy'}
        decoding={eager ? undefined : 'async'}
      />
    </picture>
  );
}
