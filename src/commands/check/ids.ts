// Ids used twice in one page: a `#fragment` link goes to the first one only, and labels,
// `aria-*` references and the runtime's focus and scroll targets can pick the wrong element.
// Pure: facts in, findings out; the source is found only for a page that has the problem.
import { slug } from 'github-slugger';
import { toString } from 'hast-util-to-string';
import { diagnostic } from '../../errors/diagnostic.js';
import type { RouteWithText } from '../../build/bodies.js';
import type { CheckSite, Finding } from './model.js';
import { templateFile } from './origin.js';
import { CONTENT_ID_PREFIX } from '../../shared/dom-ids.js';
import { positionIn, type SourceLocation, type Sources } from './sources.js';

const HEADING = /^h[1-6]$/;

/**
 * Where the route's markdown body gives an element the id `id`: an `id` (or `name`) in raw
 * HTML, or a heading whose slug it is; never code that shows it as text.
 */
export function idInBody(sources: Sources, route: RouteWithText, id: string): SourceLocation | null {
  const md = route.markdown;
  if (!md) return null;
  const written = id.startsWith(CONTENT_ID_PREFIX) ? [id, id.slice(CONTENT_ID_PREFIX.length)] : [id];
  const found = sources.elements(md).find(({ node }) => {
    const { id: own, name } = node.properties;
    if ([own, name].some((given) => typeof given === 'string' && written.includes(given))) return true;
    // A heading with no id of its own gets its slug when the page is built (heading-ids.ts).
    return own === undefined && HEADING.test(node.tagName) && slug(toString(node)) === id;
  });
  return found ? { file: md.file, ...positionIn(md.text, found.start, md.line) } : null;
}

export function checkDuplicateIds(site: CheckSite): Finding[] {
  const findings: Finding[] = [];
  for (const page of site.pages.values()) {
    for (const [id, count] of page.duplicateIds) {
      const route = site.routes.get(page.path);
      const inBody = route ? idInBody(site.sources, site.withText(route), id) : null;
      findings.push(diagnostic('site/duplicate-id', {
        ...(inBody ?? { file: templateFile(site, route?.template ?? page.template) }),
        page: page.path,
        message: `${count} elements of the page have the id "${id}"`,
        hint: `ids must be unique in a page (a link to #${id} finds only the first): ${
          inBody ? 'rename the heading, or give the element another id' : 'the template writes this id more than once'
        }`,
      }));
    }
  }
  return findings;
}
