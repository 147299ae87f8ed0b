// Which pages are searchable, and what of each is indexed. Pure: routes in, documents out.
import type { Route } from '../../build/graph/model.js';
import type { MarkdownTree, PageData } from '../../shared/types.js';
import { bodyText, excerpt } from './body-text.js';
import type { StoredDocument } from './index-store.js';

/** Pages that are not content: the search pages themselves and the not-found pages. */
const NOT_SEARCHABLE = new Set(['search', 'search-subsite', 'not-found']);

/** A page as the index is given it: what results show, its language, and its headings and body text. */
export type SearchDocument = StoredDocument & { locale: string; body: string };

/** Words a page shows from its data rather than its markdown: holdings, team names. */
function dataText(data: PageData): string {
  switch (data.template) {
    case 'portfolio':
      return (data.series ?? [])
        .map((s) => [s.title, ...s.holdings.flatMap((h) => Object.values(h).filter((v): v is string => typeof v === 'string'))].join(' '))
        .join('\n');
    case 'team':
      return data.members.map((m) => `${m.name} ${m.role}`).join('\n');
    case 'bio':
      return data.role;
    case 'article':
      return [data.author?.name ?? '', ...data.documents.map((d) => d.label)].join(' ');
    default:
      return '';
  }
}

/** A route's search document; `tree` is its rendered body (the page record's `data.body`). */
export function searchDocument(route: Route, tree: MarkdownTree | null | undefined): SearchDocument | null {
  if (NOT_SEARCHABLE.has(route.template) || route.searchable === false) return null;
  // A press release also published at the root is one document, at its canonical path.
  if (route.canonicalPath !== route.path) return null;
  const data = route.data;
  const text = bodyText(tree);
  const body = [text, dataText(data)].filter(Boolean).join('\n');
  const common = { locale: route.locale, title: data.title, path: route.path, body };
  const summary = data.description ?? excerpt(text);
  switch (data.template) {
    case 'article':
      return { ...common, summary, type: data.type, sections: [...new Set(data.sections)], date: data.date };
    case 'bio':
      return { ...common, summary: data.description ?? `${data.name}, ${data.role}`, type: 'bio', sections: [], date: '' };
    case 'section':
    case 'column':
      return { ...common, summary, type: 'page', sections: [data.section], date: '' };
    default:
      return { ...common, summary, type: 'page', sections: [], date: '' };
  }
}

/** Searchable documents by locale, in route order. `documentOf` gives each route's (with its body). */
export function searchDocuments(routes: readonly Route[], documentOf: (route: Route) => SearchDocument | null): Map<string, SearchDocument[]> {
  const byLocale = new Map<string, SearchDocument[]>();
  for (const route of routes) {
    const doc = documentOf(route);
    if (!doc) continue;
    const list = byLocale.get(doc.locale) ?? [];
    list.push(doc);
    byLocale.set(doc.locale, list);
  }
  return byLocale;
}
