// Site: pages no other page links to, titles used twice in one language, pages without a
// description of their own, images without alt text. Pure: facts in, findings out.
import { visit } from 'unist-util-visit';
import { localizePath } from '../../shared/paths.js';
import { imageData } from '../../shared/image-data.js';
import { diagnostic } from '../../errors/diagnostic.js';
import type { MarkdownSource } from '../../build/graph/model.js';
import type { Finding, CheckSite } from './model.js';
import { originOf, pageSource } from './origin.js';
import type { PageFacts } from './html.js';
import { positionIn, type Sources } from './sources.js';

/** Pages the site-quality rules judge: indexable, and canonical (not a copy published elsewhere too). */
function judged(site: CheckSite): PageFacts[] {
  const origin = site.siteUrl ? new URL(site.siteUrl).origin : null;
  return [...site.pages.values()].filter((p) => {
    if (p.noindex) return false;
    if (p.canonical === null) return true;
    try {
      const u = new URL(p.canonical, origin ?? 'http://ir-site.invalid');
      return (origin === null || u.origin === origin) && decodeURIComponent(u.pathname) === p.path;
    } catch {
      return true;
    }
  });
}

/** The entry's `title:` line, where a page-level finding points. */
function titleLine(site: CheckSite, file: string): number | undefined {
  return file.endsWith('.md') ? site.sources.frontMatter(file)?.fieldLines['title'] : undefined;
}

export function checkOrphans(site: CheckSite, inbound: ReadonlyMap<string, ReadonlySet<string>>): Finding[] {
  const homes = new Set(site.locales.map((l) => localizePath('/', l.code, site.defaultLocale)));
  const findings: Finding[] = [];
  for (const page of judged(site)) {
    if (homes.has(page.path) || (inbound.get(page.path)?.size ?? 0) > 0) continue;
    const { file } = pageSource(site, page.path);
    findings.push(diagnostic('site/orphan', { file, line: titleLine(site, file), page: page.path, message: `no other page links to ${page.path}` }));
  }
  return findings;
}

/** The title without the ` | Site name` every page's <title> ends with. */
const shortTitle = (page: PageFacts) => (page.siteName && page.title?.endsWith(` | ${page.siteName}`) ? page.title.slice(0, -` | ${page.siteName}`.length) : page.title);

export function checkTitles(site: CheckSite): Finding[] {
  const groups = new Map<string, { page: PageFacts }[]>();
  for (const page of judged(site)) {
    if (!page.title) continue;
    const key = `${page.lang ?? ''}\0${page.title}`;
    groups.set(key, [...(groups.get(key) ?? []), { page }]);
  }
  const findings: Finding[] = [];
  for (const group of groups.values()) {
    // Pages made from one entry count too (a search page and its scoped copies): in a results
    // page, two pages with one title cannot be told apart, whatever made them.
    if (group.length < 2) continue;
    for (const { page } of group) {
      const others = group.filter((o) => o.page !== page).map((o) => o.page.path);
      const { file } = pageSource(site, page.path);
      findings.push(
        diagnostic('site/duplicate-title', {
          file,
          line: titleLine(site, file),
          field: file.endsWith('.md') ? 'title' : undefined,
          page: page.path,
          message: `the title "${shortTitle(page)}" is also the title of ${others.join(', ')}`,
        }),
      );
    }
  }
  return findings;
}

export function checkDescriptions(site: CheckSite): Finding[] {
  const findings: Finding[] = [];
  for (const page of judged(site)) {
    const description = page.description?.trim() ?? '';
    // With no description of its own, a page's meta description falls back to the site name.
    if (description !== '' && description !== page.siteName) continue;
    const route = site.routes.get(page.path);
    const { file } = pageSource(site, page.path);
    if (route && route.data.description) continue; // the entry has one; the output is older than the content
    findings.push(
      diagnostic('site/missing-description', {
        file,
        line: titleLine(site, file),
        field: file.endsWith('.md') ? 'description' : undefined,
        page: page.path,
        message: description === '' ? 'the page has no meta description' : 'the page has no description of its own: its meta description is the site name',
      }),
    );
  }
  return findings;
}

/**
 * The addresses a body may write for an image the page shows at `src`: `src` itself, and
 * each local image the build processed into it (`chart.png` becomes `/static/images/chart-800.<hash>.png`).
 */
function writtenSources(md: MarkdownSource, src: string): string[] {
  const written = Object.entries(md.folder)
    .filter(([, image]) => image && imageData(image).images.fallback.src === src)
    .flatMap(([name]) => [name, encodeURI(name)]);
  return [src, ...written];
}

/** Raw `<img src>` with no alt (an error) and markdown `![](src)` (a warning) in a body; never code that shows them as text. */
function imagesWithoutAlt(sources: Sources, md: MarkdownSource & { text: string }, src: string, page: string): Finding[] {
  const findings: Finding[] = [];
  const at = (offset: number) => ({ file: md.file, ...positionIn(md.text, offset, md.line), page });
  const markdownImages = new Set<number>();
  visit(sources.tree(md), 'image', (node) => void markdownImages.add(node.position?.start.offset ?? -1));
  for (const { node, start } of sources.elements(md)) {
    if (node.tagName !== 'img' || node.properties.src !== src) continue;
    const alt = node.properties.alt;
    if (alt === undefined || alt === null) {
      findings.push(diagnostic('site/img-alt', { ...at(start), severity: 'error', message: `the image ${src} has no alt attribute` }));
    } else if (markdownImages.has(start) && !String(alt).trim()) {
      // alt="" in raw HTML is a decorative image said so on purpose; `![](...)` is most often forgotten.
      findings.push(
        diagnostic('site/img-alt', {
          ...at(start),
          severity: 'warning',
          message: `the image ${src} has empty alt text`,
          hint: 'write what the image shows between the brackets: ![what the image shows](...); leave it empty only for a decorative image',
        }),
      );
    }
  }
  return findings;
}

/**
 * Images without a text alternative. In the output, an `<img>` with no alt attribute; in an
 * entry's body, where the output cannot tell (the renderer gives every image an alt), raw
 * `<img>` HTML with no alt (an error) and markdown `![](image.png)` (a warning: alt="" is
 * right for a decorative image, but in markdown it is most often forgotten).
 */
export function checkImages(site: CheckSite): Finding[] {
  const findings: Finding[] = [];
  for (const page of site.pages.values()) {
    const seen = new Set<string>();
    for (const image of page.images) {
      if (image.alt !== null && image.alt !== '') continue;
      if (image.alt === null) {
        const { fromTemplate: _, ...where } = originOf(site, page.path, { url: image.src, place: 'body' });
        findings.push(diagnostic('site/img-alt', { ...where, severity: 'error', page: page.path, message: `the image ${image.src} has no alt attribute` }));
        continue;
      }
      const route = site.routes.get(page.path);
      const md = route?.markdown && site.withText(route).markdown;
      if (!md) continue;
      for (const written of writtenSources(md, image.src)) {
        if (seen.has(written)) continue;
        seen.add(written);
        findings.push(...imagesWithoutAlt(site.sources, md, written, page.path));
      }
    }
  }
  return findings;
}
