// The reference parser: remark-parse with the GFM constructs a body could hold, remark-rehype,
// and rehype-raw for bodies with raw HTML. Loaded only when a body needs it (index.ts): the
// fast path takes almost every article, and these modules take ~0.1 s to import, on every
// render thread and on the main thread of a build that renders one changed page.
import type { Root } from 'hast';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type Processor } from 'unified';
import type { FootnoteLabels } from './markdown-it-hast.js';
import { gfmPartsIn, remarkGfmParts } from './gfm-parts.js';
import { rawHtmlWhenPresent } from './raw-html.js';

function createProcessor(footnotes: FootnoteLabels, gfmParts: number, rawHtml: boolean) {
  return unified()
    .use(remarkParse)
    .use(remarkGfmParts, gfmParts)
    .use(remarkRehype, { allowDangerousHtml: true, footnoteLabel: footnotes.label, footnoteBackLabel: footnotes.backLabel })
    .use(rawHtml ? [rawHtmlWhenPresent] : [])
    .freeze();
}

const processors = new Map<string, Processor<any, any, any, any, any>>();

/** The hast remark-rehype makes of a body, not yet sanitised. `gfmParts`: see gfm-parts.ts. */
export function unifiedHast(markdown: string, locale: string, footnotes: FootnoteLabels, gfmParts = gfmPartsIn(markdown)): Root {
  // Raw HTML needs a `<`: a body without one skips even the search for raw nodes.
  const rawHtml = markdown.includes('<');
  const key = `${locale}:${gfmParts}:${rawHtml}`;
  let processor = processors.get(key);
  if (!processor) {
    processor = createProcessor(footnotes, gfmParts, rawHtml);
    processors.set(key, processor);
  }
  return processor.runSync(processor.parse(markdown)) as Root;
}
