// On the offline page: links to the pages the visitor has seen that this device can open
// without a network. The runtime notes every page it renders (src/client/seen-pages.ts, in
// localStorage); the offline worker's caches (Cache Storage) hold the record of every page
// opened or prefetched (`/page-data/<p>/page-data.json`) and the HTML of pages loaded in full
// (which inlines its record); a record names its page's title and language. Listed: the seen
// pages of this language that are cached, most recently seen last; never a page only
// prefetched, nor the not-found or offline pages. Nothing is rendered on the server (it
// cannot know), nor when storage is missing or empty.
import { useEffect, useState } from 'react';
import { t, type Strings } from '../lib/i18n.js';

interface SavedPage {
  path: string;
  title: string;
}

const RECORD = /^\/page-data\/(?!sq\/)(.+)\/page-data\.json$/;
/** SEEN_PAGES_KEY in src/client/seen-pages.ts: the paths the runtime rendered, newest last. */
const SEEN_PAGES_KEY = 'ir-site:seen-pages';

function readSeenPaths(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(SEEN_PAGES_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

function pathOfRecord(pathname: string): string | null {
  const match = RECORD.exec(pathname);
  if (!match) return null;
  return match[1] === 'index' ? '/' : `/${match[1]}/`;
}

const isPage = (path: string) => !/(^|\/)(404|offline)\.html\/?$/.test(path);

type Record_ = { path?: unknown; result?: { pageContext?: { locale?: unknown }; data?: { title?: unknown } } } | null;

/** A cached page's record: the page-data file itself, or the record its HTML inlines. */
async function recordOf(url: URL, response: Response): Promise<{ path: string; record: Record_ } | null> {
  const fromData = pathOfRecord(url.pathname);
  if (fromData) return { path: fromData, record: (await response.json().catch(() => null)) as Record_ };
  if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return null;
  const html = new DOMParser().parseFromString(await response.text(), 'text/html');
  const inline = html.getElementById('__IR_PAGE_DATA__') /* PAGE_DATA_SCRIPT_ID, src/shared/dom-ids.ts */?.textContent;
  try {
    return inline ? { path: url.pathname, record: JSON.parse(inline) as Record_ } : null;
  } catch {
    return null;
  }
}

async function readSavedPages(locale: string): Promise<SavedPage[]> {
  const seen = readSeenPaths();
  if (seen.length === 0) return [];
  const found = new Map<string, SavedPage>();
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      if (url.origin !== location.origin || url.pathname.startsWith('/static/')) continue;
      const candidate = pathOfRecord(url.pathname) ?? url.pathname;
      if (!seen.includes(candidate) || found.has(candidate)) continue; // read only what may be listed
      const response = await cache.match(request);
      const found_ = response ? await recordOf(url, response) : null;
      if (!found_ || !isPage(found_.path)) continue;
      const { path, record } = found_;
      if (!record || record.path !== path || record.result?.pageContext?.locale !== locale) continue;
      const title = record.result?.data?.title;
      found.set(path, { path, title: typeof title === 'string' && title ? title : path });
    }
  }
  return seen.flatMap((path) => found.get(path) ?? []);
}

export function SavedPages({ locale, strings }: { locale: string; strings: Strings }) {
  const [pages, setPages] = useState<SavedPage[]>([]);
  useEffect(() => {
    let live = true;
    if (typeof caches === 'undefined') return;
    readSavedPages(locale).then(
      (list) => live && setPages(list),
      () => undefined, // no list is the honest answer when the caches cannot be read
    );
    return () => {
      live = false;
    };
  }, [locale]);
  if (pages.length === 0) return null;
  return (
    <section className="saved-pages" aria-labelledby="saved-pages-heading">
      <h2 id="saved-pages-heading">{t(strings, 'offline.saved')}</h2>
      <ul className="link-list">
        {pages.map((p) => (
          <li key={p.path}>
            <a href={p.path}>{p.title}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}
