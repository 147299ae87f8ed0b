// SVG files from content are published sanitised: an SVG is a document that runs its own
// script (`<script>`, `onload`, `javascript:` links) on the site's origin when its URL is
// opened. DOMPurify, the reference sanitiser, keeps the SVG and SVG-filter vocabulary and
// drops script, event handlers, foreign HTML and unsafe links; jsdom is its DOM in Node.
// Both load on the first SVG only (a site without one never loads them), and the build
// cache keeps each result by its source (build/emit/index.ts), so a warm build sanitises nothing.

/** Bump when the sanitising changes, so cached results are remade. */
export const SVG_SANITISER = 'dompurify-3/svg+svgFilters/xml/2';

type Sanitiser = (text: string) => string;
let sanitiser: Promise<Sanitiser> | undefined;

async function createSanitiser(): Promise<Sanitiser> {
  const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
  return (text) => {
    // Parsed as what it is, XML (an HTML parser reads `<iframe/>` as an element that swallows
    // the rest of the drawing). A file that is not well-formed XML is no image to publish.
    let dom: InstanceType<typeof JSDOM>;
    try {
      dom = new JSDOM(text.replace(/^\uFEFF/, ''), { contentType: 'image/svg+xml' });
    } catch {
      return '';
    }
    const root = dom.window.document.documentElement;
    if (root.localName !== 'svg' || root.namespaceURI !== 'http://www.w3.org/2000/svg') return '';
    const purify = createDOMPurify(dom.window as unknown as Parameters<typeof createDOMPurify>[0]);
    try {
      purify.sanitize(root, { IN_PLACE: true, USE_PROFILES: { svg: true, svgFilters: true } });
    } catch {
      // DOMPurify refuses a drawing it cannot clean in place (markup hidden in CDATA that would
      // remove a node it must return): nothing safe to publish.
      return '';
    }
    return `${new dom.window.XMLSerializer().serializeToString(root)}\n`;
  };
}

/** The SVG without script; an empty string when the text is not an SVG document (well-formed XML, an `<svg>` root). */
export async function sanitizeSvg(text: string): Promise<string> {
  sanitiser ??= createSanitiser();
  return (await sanitiser)(text);
}
