// Which source file a reference on a page comes from: the entry's markdown body (with the
// line and column), one of its front-matter fields, the navigation file, or the template.
import type { Route } from '../../build/graph/model.js';
import type { LinkFact } from './html.js';
import type { CheckSite } from './model.js';
import type { SourceLocation } from './sources.js';

export interface Origin extends SourceLocation {
  /** True when the reference is not in the entry's content (template, navigation, document head): the same finding shows on many pages. */
  fromTemplate: boolean;
}

/** The template file that rendered a page: `templates/pages/article.tsx`. */
export function templateFile(site: CheckSite, template: string | null | undefined): string {
  return `${site.templatesDir}/pages/${template ?? 'index'}.tsx`;
}

/** The entry a page comes from, or the page's template when it has no entry. */
export function pageSource(site: CheckSite, pagePath: string): { file: string; route: Route | undefined } {
  const route = site.routes.get(pagePath);
  return { file: route?.file ?? templateFile(site, route?.template ?? site.pages.get(pagePath)?.template), route };
}

/** Where `link` on page `pagePath` is written. */
export function originOf(site: CheckSite, pagePath: string, link: Pick<LinkFact, 'url' | 'place'>): Origin {
  const route = site.routes.get(pagePath);
  const url = link.url;
  // The head (stylesheet, icons, manifest, scripts) is written by the build itself.
  if (link.place === 'head') return { file: site.outDir, fromTemplate: true };
  if (route && link.place === 'body') {
    const inBody = site.sources.inBody(site.withText(route), url);
    if (inBody) return { ...inBody, fromTemplate: false };
    const data = route.data;
    if (route.file) {
      if (data.template === 'article') {
        const i = data.documents.findIndex((d) => d.href === url);
        if (i !== -1) {
          const doc = data.documents[i]!;
          const written = doc.local ? doc.href.slice(doc.href.lastIndexOf('/') + 1) : doc.href;
          return { ...site.sources.field(route.file, 'documents', written), field: `documents[${i}].file`, fromTemplate: false };
        }
        if (data.author?.path === url) return { ...site.sources.field(route.file, 'author'), fromTemplate: false };
        const section = data.sectionLinks.find((s) => s.path === url);
        if (section) return { ...site.sources.field(route.file, 'sections', section.key), fromTemplate: false };
      }
      if (data.template === 'bio' && data.photo?.src === url) return { ...site.sources.field(route.file, 'photo'), fromTemplate: false };
      if (data.template === 'bio' && data.linkedin === url) return { ...site.sources.field(route.file, 'linkedin'), fromTemplate: false };
    }
    const menu = site.navigation.find((q) => q.locale === route.locale)?.data;
    if (menu) {
      for (const list of ['main', 'footer'] as const) {
        const item = menu[list].find((n) => n.path === url);
        if (item) {
          const from = site.sources.find(site.navigationFile, `${list}:`).line ?? 1;
          return { ...site.sources.find(site.navigationFile, item.key, from), field: list, fromTemplate: true };
        }
      }
    }
  }
  return { file: templateFile(site, route?.template ?? site.pages.get(pagePath)?.template), fromTemplate: true };
}
