// Markdown -> sanitised hast, then React-ready JSON (to-react-tree.ts) that travels in page
// data and is rendered with createElement by the templates, on the server and in the
// browser alike: never through innerHTML. Bodies are parsed by markdown-it where it reads
// them as GFM does (markdown-it-hast.ts), by unified otherwise; both trees then go through
// the same sanitiser, heading ids and heading levels.
import type { Root } from 'hast';
import { defaultSchema, sanitize } from 'hast-util-sanitize';
import { demoteHeadings } from './demote-headings.js';
import { prefixContentIds } from './content-ids.js';
import { checkMarkdownText, checkTreeDepth, MarkdownLimitError } from './limits.js';
import { addHeadingIds } from './heading-ids.js';
import { markdownItHast, type FootnoteLabels } from './markdown-it-hast.js';
import { toReactTree } from './to-react-tree.js';
import type { ImageData, MarkdownTree } from '../shared/types.js';

const FOOTNOTES: Record<string, FootnoteLabels> = {
  en: { label: 'Notes', backLabel: (i, j) => `Back to reference ${i + 1}${j > 1 ? `-${j}` : ''}` },
  fr: { label: 'Notes', backLabel: (i, j) => `Retour à l’appel de note ${i + 1}${j > 1 ? `-${j}` : ''}` },
};

/**
 * GitHub's sanitising schema, with `tel:` links, and the `user-content-` prefix left to
 * content-ids.ts: remark-rehype already prefixes footnote ids, and a second prefix breaks their links.
 */
const schema = {
  ...defaultSchema,
  clobberPrefix: '',
  // Phone numbers are links on an investor-relations site.
  protocols: { ...defaultSchema.protocols, href: [...(defaultSchema.protocols?.href ?? []), 'tel'] },
};

/**
 * What both parsers' trees go through, as plain calls (rehype-sanitize and rehype-slug are
 * these same functions inside unified's plugin machinery, which cost twice the work itself):
 * sanitising first; then the prefix on the body's own ids and names; then heading ids (no
 * prefix, none of the page's own); then heading levels.
 */
function finish(tree: Root): Root {
  checkTreeDepth(tree);
  const clean = sanitize(tree, schema) as Root;
  prefixContentIds(clean);
  addHeadingIds(clean);
  demoteHeadings(clean);
  return clean;
}

export { MarkdownLimitError, MARKDOWN_LIMITS } from './limits.js';

type ReferenceParser = typeof import('./unified-parser.js');
let reference: ReferenceParser | undefined;

/**
 * Thrown for a body the fast path declines before the reference parser is loaded: the caller
 * awaits `loadReferenceParser()` and tries again (render-stage.ts and the render workers do).
 */
export class ReferenceParserNeeded extends Error {
  constructor() {
    super('this markdown body needs the unified parser: await loadReferenceParser() first');
  }
}

/** Loads unified and its plugins, for the bodies markdown-it does not read as GFM does. */
export async function loadReferenceParser(): Promise<void> {
  reference ??= await import('./unified-parser.js');
}

/** Markdown body to the React-ready tree pages carry (sanitised, heading ids, no positions). */
export function markdownToTree(markdown: string, locale: string, images: Readonly<Record<string, ImageData>> = {}): MarkdownTree {
  return toReactTree(markdownToHast(markdown, locale), images);
}

/** Markdown body to a sanitised hast tree with stable heading ids, by the fast parser where it can. */
export function markdownToHast(markdown: string, locale: string): Root {
  checkMarkdownText(markdown);
  try {
    const fast = markdownItHast(markdown, FOOTNOTES[locale] ?? FOOTNOTES.en!);
    return fast ? finish(fast) : unifiedMarkdownToHast(markdown, locale);
  } catch (error) {
    // The limits keep nesting far below the stack's depth; this is the last guard.
    if (error instanceof RangeError) {
      throw new MarkdownLimitError('the body nests too deeply to be read', 1, 'flatten the nesting of quotes, lists, emphasis, links or HTML elements');
    }
    throw error;
  }
}

/**
 * Markdown body to a sanitised hast tree through unified: the reference the fast path is
 * held to. `gfmParts` picks the GFM constructs to parse (gfm-parts.ts); by default, those
 * the body could hold. Needs `loadReferenceParser()` first.
 */
export function unifiedMarkdownToHast(markdown: string, locale: string, gfmParts?: number): Root {
  if (!reference) throw new ReferenceParserNeeded();
  return finish(reference.unifiedHast(markdown, locale, FOOTNOTES[locale] ?? FOOTNOTES.en!, gfmParts));
}
