// One offline page per language (`/offline.html`, `/fr/offline.html`): what the offline
// worker shows for a page it has neither the HTML nor the data of, and the shell in which
// the runtime renders a page it has the data of (docs/offline.md). Rendered with the
// not-found template, so it needs no template of its own: never indexed, never in the sitemap.
import type { ResolvedConfig } from '../config/resolve.js';
import type { ValidSite } from '../content/entries.js';
import { OFFLINE_PAGE_FILE, offlinePagePath } from '../../shared/offline.js';
import type { Route } from './model.js';

/** Used when the locale's strings file has no `offline.title` / `offline.text`; English for other languages. */
const DEFAULT_TEXT: Record<string, { title: string; text: string }> = {
  en: {
    title: 'You are offline',
    text: 'This page has not been saved on this device yet. Connect to the internet to open it.',
  },
  fr: {
    title: 'Vous êtes hors ligne',
    text: 'Cette page n’est pas encore enregistrée sur cet appareil. Connectez-vous à Internet pour l’ouvrir.',
  },
};

export function offlineRoutes(routes: readonly Route[], site: ValidSite, config: ResolvedConfig): Route[] {
  const taken = new Set(routes.map((r) => r.path));
  return config.locales.flatMap((l): Route[] => {
    const path = offlinePagePath(l.code, config.defaultLocale);
    // A content page published at that path is the site's own offline page.
    if (taken.has(path)) return [];
    const strings = site.strings[l.code] ?? {};
    const fallback = DEFAULT_TEXT[l.code] ?? DEFAULT_TEXT[l.hrefLang.split('-')[0]!.toLowerCase()] ?? DEFAULT_TEXT.en!;
    const title = strings['offline.title'] ?? fallback.title;
    const text = strings['offline.text'] ?? fallback.text;
    return [
      {
        path,
        locale: l.code,
        hrefLang: l.hrefLang,
        originalPath: `/${OFFLINE_PAGE_FILE}`,
        template: 'not-found',
        file: null,
        alternates: [],
        data: { template: 'not-found', title, description: null, body: { type: 'root', children: [['p', null, text]] } },
        markdown: null,
        inSitemap: false,
        canonicalPath: path,
      },
    ];
  });
}
