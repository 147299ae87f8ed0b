// A YouTube (privacy-enhanced domain) or Vimeo player in a responsive 16:9 box, with a
// plain link to the video for when the embed is blocked.
import { t, type Strings } from '../lib/i18n.js';

export interface VideoEmbedProps {
  video: { provider: 'youtube' | 'vimeo'; id: string };
  title: string;
  strings: Strings;
}

export function VideoEmbed({ video, title, strings }: VideoEmbedProps) {
  const id = encodeURIComponent(video.id);
  const youtube = video.provider === 'youtube';
  const src = youtube ? `https://www.youtube-nocookie.com/embed/${id}` : `https://player.vimeo.com/video/${id}`;
  const watch = youtube ? `https://www.youtube.com/watch?v=${id}` : `https://vimeo.com/${id}`;
  const provider = youtube ? 'YouTube' : 'Vimeo';
  return (
    <figure className="video">
      <div className="video__frame">
        <iframe
          src={src}
          title={t(strings, 'article.videoTitle', { title })}
          loading="lazy"
          allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
      <figcaption className="video__link">
        <a href={watch}>{t(strings, 'article.watchVideo', { provider })}</a>
      </figcaption>
    </figure>
  );
}
