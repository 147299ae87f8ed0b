// What a markdown tree may ask the templates to render, whatever the page record says. The
// build sanitises every body (src/markdown), but a record reaches the browser as data (a
// page-data.json, a cached copy, the inline record), and React turns props into the DOM as
// they are: `dangerouslySetInnerHTML`, `srcDoc`, an `onerror` or a `javascript:` URL would
// run script. So the Markdown component renders only the elements the build's sanitiser
// allows, with plain-valued attributes, safe URLs and none of the props that write raw HTML
// or script. Isomorphic: the same rule on the server and in the browser.
import type { ImageData, MarkdownProps } from './types.js';

/**
 * The elements GitHub's sanitising schema keeps (rehype-sanitize's `defaultSchema.tagNames`,
 * which the build uses; test/unit/markdown-guard.test.ts holds the two lists together).
 */
export const MARKDOWN_TAGS: ReadonlySet<string> = new Set([
  'a', 'b', 'blockquote', 'br', 'code', 'dd', 'del', 'details', 'div', 'dl', 'dt', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'hr', 'i', 'img', 'input', 'ins', 'kbd', 'li', 'ol', 'p', 'picture', 'pre', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'section',
  'source', 'span', 'strike', 'strong', 'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'tt',
  'ul', 'var',
]);

/** Elements whose content is code or markup, not text: dropped whole, never unwrapped. */
const DROPPED_WHOLE = new Set(['script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'template', 'noscript', 'textarea', 'title', 'svg', 'math', 'xmp', 'noembed', 'noframes', 'plaintext', 'base', 'meta', 'link']);

/** Props that hold a URL (React names, and the hast names a hand-made record might use). */
const URL_PROPS = new Set(['href', 'src', 'cite', 'longDesc', 'action', 'formAction', 'poster', 'background', 'data', 'xlinkHref', 'xlink:href', 'ping', 'manifest', 'codebase', 'dynsrc', 'lowsrc']);
const SRCSET_PROPS = new Set(['srcSet', 'srcset', 'imageSrcSet']);
/** Props React would turn into markup, script or a reference to something other than an attribute. */
const NEVER = new Set(['children', 'dangerouslySetInnerHTML', 'srcDoc', 'srcdoc', 'ref', 'key', 'is', 'suppressHydrationWarning', 'suppressContentEditableWarning', 'contentEditable', 'formAction', 'action', 'style']);
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel', 'irc', 'ircs', 'xmpp']);
const TEXT_ALIGN = new Set(['left', 'right', 'center', 'justify', 'start', 'end']);

/**
 * A URL a link or an image may carry: relative, or with one of the schemes above. Browsers
 * ignore tabs, newlines and leading controls or spaces in a scheme (`java\tscript:`), so
 * those are removed before the scheme is read.
 */
export function isSafeUrl(value: string, { image = false } = {}): boolean {
  // eslint-disable-next-line no-control-regex
  const squeezed = value.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed)?.[1]?.toLowerCase();
  if (scheme === undefined) return true;
  if (image && scheme === 'data') return /^data:image\/(png|jpe?g|gif|webp|avif);/i.test(squeezed);
  return SAFE_SCHEMES.has(scheme);
}

const safeSrcSet = (value: string) => value.split(',').every((candidate) => isSafeUrl(candidate.trim().split(/\s+/)[0] ?? ''));

/** The props of one element, cleaned; null when nothing is left. */
export function safeMarkdownProps(tag: string, props: MarkdownProps | null): Record<string, unknown> | null {
  if (!props) return null;
  const clean: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(props)) {
    if (NEVER.has(name) || /^on/i.test(name)) continue;
    if (name === 'image') continue; // read by imageOf
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    if (typeof value === 'string' && URL_PROPS.has(name) && !isSafeUrl(value, { image: tag === 'img' })) continue;
    if (typeof value === 'string' && SRCSET_PROPS.has(name) && !safeSrcSet(value)) continue;
    clean[name] = value;
  }
  // The only style the build writes: a table cell's alignment.
  const style = props.style as Record<string, unknown> | undefined;
  if ((tag === 'td' || tag === 'th') && style && typeof style === 'object' && TEXT_ALIGN.has(String(style.textAlign))) {
    clean.style = { textAlign: String(style.textAlign) };
  }
  return Object.keys(clean).length > 0 ? clean : null;
}

/** The processed image data of an `img`, when every URL in it is one an image may load. */
export function imageOf(props: MarkdownProps | null): ImageData | null {
  const image = props?.image as ImageData | undefined;
  if (!image || typeof image !== 'object') return null;
  try {
    const { fallback, sources } = image.images;
    const urls = [fallback.src, image.placeholder.fallback];
    const sets = [fallback.srcSet, ...sources.map((s) => s.srcSet)];
    const ok =
      urls.every((u) => typeof u === 'string' && isSafeUrl(u, { image: true })) &&
      sets.every((s) => typeof s === 'string' && safeSrcSet(s)) &&
      typeof image.width === 'number' &&
      typeof image.height === 'number';
    return ok ? image : null;
  } catch {
    return null;
  }
}

/** What to do with an element: render it, render only its children, or drop it with them. */
export function markdownElementFate(tag: unknown): 'render' | 'unwrap' | 'drop' {
  if (typeof tag !== 'string') return 'drop';
  if (MARKDOWN_TAGS.has(tag)) return 'render';
  return DROPPED_WHOLE.has(tag.toLowerCase()) ? 'drop' : 'unwrap';
}
