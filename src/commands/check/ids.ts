// Ids used twice in one page: a `#fragment` link goes to the first one only, and labels,
// `aria-*` references and the runtime's focus and scroll targets can pick the wrong element.
// Pure: facts in, findings out; the source is found only for a page that has the problem.
import { slug } from 'github-slugger';
import { diagnostic } from '../../errors/diagnostic.js';
import type { RouteWithText } from '../../build/bodies.js';
import type { CheckSite, Finding } from './model.js';
import { templateFile } from './origin.js';
import { CONTENT_ID_PREFIX } from '../../shared/dom-ids.js';
import { escapeRe, positionIn, type SourceLocation } from './sources.js';

/** A heading's text as the page shows it, near enough to find the heading a slug was made from: no marks, link text only. */
function headingText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]*>/g, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/[*_~`]/g, '')
    .trim();
}

/** An ATX heading line (`## Net asset value ##`): its text. */
const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm;

/** Where the route's markdown body gives an element the id `id`: `id="..."` in raw HTML, or a heading whose slug it is. */
export function idInBody(route: RouteWithText, id: string): SourceLocation | null {
  const md = route.markdown;
  if (!md) return null;
  const written = id.startsWith(CONTENT_ID_PREFIX) ? [id, id.slice(CONTENT_ID_PREFIX.length)] : [id];
  for (const w of written) {
    const m = new RegExp(`\\b(?:id|name)\\s*=\\s*(["']?)${escapeRe(w)}\\1(?=[\\s/>])`).exec(md.text);
    if (m) return { file: md.file, ...positionIn(md.text, m.index, md.line) };
  }
  for (const m of md.text.matchAll(HEADING)) {
    if (slug(headingText(m[1]!)) === id) return { file: md.file, ...positionIn(md.text, m.index, md.line) };
  }
  return null;
}

export function checkDuplicateIds(site: CheckSite): Finding[] {
  const findings: Finding[] = [];
  for (const page of site.pages.values()) {
    for (const [id, count] of page.duplicateIds) {
      const route = site.routes.get(page.path);
      const inBody = route ? idInBody(site.withText(route), id) : null;
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
