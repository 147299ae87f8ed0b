// Markdown -> sanitised hast, through unified, then React-ready JSON (to-react-tree.ts)
// that travels in page data and is rendered with createElement by the templates, on the
// server and in the browser alike: never through innerHTML.
import type { Root } from 'hast';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type Processor } from 'unified';
import { demoteHeadings } from './demote-headings.js';
import { gfmPartsIn, remarkGfmParts } from './gfm-parts.js';
import { rawHtmlWhenPresent } from './raw-html.js';
import { toReactTree } from './to-react-tree.js';
import type { ImageData, MarkdownTree } from '../shared/types.js';

interface FootnoteLabels {
  label: string;
  backLabel: (referenceIndex: number, rereferenceIndex: number) => string;
}

const FOOTNOTES: Record<string, FootnoteLabels> = {
  en: { label: 'Notes', backLabel: (i, j) => `Back to reference ${i + 1}${j > 1 ? `-${j}` : ''}` },
  fr: { label: 'Notes', backLabel: (i, j) => `Retour à l’appel de note ${i + 1}${j > 1 ? `-${j}` : ''}` },
};

/**
 * GitHub's sanitising schema, without its `user-content-` id prefix: remark-rehype already
 * prefixes footnote ids, and a second prefix breaks their links. Heading ids stay as
 * written so `#net-asset-value` anchors keep working.
 */
const schema = { ...defaultSchema, clobberPrefix: '' };

function createProcessor(locale: string, gfmParts: number, rawHtml: boolean) {
  const footnotes = FOOTNOTES[locale] ?? FOOTNOTES.en!;
  return unified()
    .use(remarkParse)
    .use(remarkGfmParts, gfmParts)
    .use(remarkRehype, { allowDangerousHtml: true, footnoteLabel: footnotes.label, footnoteBackLabel: footnotes.backLabel })
    .use(rawHtml ? [rawHtmlWhenPresent] : [])
    .use(rehypeSanitize, schema)
    .use(rehypeSlug)
    .use(demoteHeadings)
    .freeze();
}

const processors = new Map<string, Processor<any, any, any, any, any>>();

/** Markdown body to the React-ready tree pages carry (sanitised, heading ids, no positions). */
export function markdownToTree(markdown: string, locale: string, images: Readonly<Record<string, ImageData>> = {}): MarkdownTree {
  return toReactTree(markdownToHast(markdown, locale), images);
}

/**
 * Markdown body to a sanitised hast tree with stable heading ids and no source positions.
 * `gfmParts` picks the GFM constructs to parse (gfm-parts.ts); by default, those the body could hold.
 */
export function markdownToHast(markdown: string, locale: string, gfmParts = gfmPartsIn(markdown)): Root {
  // Raw HTML needs a `<`: a body without one skips even the search for raw nodes.
  const rawHtml = markdown.includes('<');
  const key = `${locale}:${gfmParts}:${rawHtml}`;
  let processor = processors.get(key);
  if (!processor) {
    processor = createProcessor(locale, gfmParts, rawHtml);
    processors.set(key, processor);
  }
  return processor.runSync(processor.parse(markdown)) as Root;
}
