// On the offline page: links to the pages this device can open without a network, read from
// the offline worker's caches (Cache Storage) in the browser. The worker keeps the record of
// every page the visitor opened or the runtime prefetched (`/page-data/<p>/page-data.json`)
// and the HTML of pages loaded in full (which inlines its record); a record names its page's
// title and language. Only this language's
// pages are listed, never the not-found or offline pages. Nothing is rendered on the server
// (it cannot know), nor when Cache Storage is missing or empty.
import { useEffect, useState } from 'react';
import { t, type Strings } from '../lib/i18n.js';

interface SavedPage {
  path: string;
  title: string;
}

const RECORD = /^\/page-data\/(?!sq\/)(.+)\/page-data\.json$/;
/** Pages lists at most this many links, newest cache entries last as Cache Storage keeps them. */
const MAX_LINKS = 50;

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
  const found = new Map<string, SavedPage>();
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      if (url.origin !== location.origin || url.pathname.startsWith('/static/')) continue;
      const response = await cache.match(request);
      const found_ = response ? await recordOf(url, response) : null;
      if (!found_ || !isPage(found_.path) || found.has(found_.path)) continue;
      const { path, record } = found_;
      if (!record || record.path !== path || record.result?.pageContext?.locale !== locale) continue;
      const title = record.result?.data?.title;
      found.set(path, { path, title: typeof title === 'string' && title ? title : path });
    }
  }
  return [...found.values()].slice(-MAX_LINKS);
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
