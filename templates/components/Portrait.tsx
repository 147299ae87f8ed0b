// A team portrait: the responsive image with its placeholder when the build processed
// it, else the published file with its intrinsic size (the box is reserved either way).
// Inside <picture>: React's server renderer would otherwise prepend a
// <link rel="preload"> to the body markup for every non-lazy image.
import type { PortraitData } from 'ir-site/templates';
import { Image } from './Image.js';

export interface PortraitProps {
  photo: PortraitData;
  /** Text alternative: empty where the person's name is written beside the portrait (the bio and team pages). */
  alt: string;
  eager?: boolean;
  className?: string;
}

export function Portrait({ photo, alt, eager = false, className = 'portrait' }: PortraitProps) {
  if (photo.image) return <Image image={photo.image} alt={alt} eager={eager} className={className} />;
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
        fetchPriority={eager ? 'high' : undefined}
      />
    </picture>
  );
}
