// Compiles a sanitised hast tree into React-ready JSON: `[tag, props, ...children]` or a
// string. Prop names and values follow hast-util-to-jsx-runtime's React rules (so the
// output matches it), but the work happens once at build time: the browser only walks
// the result, and the property tables never ship to it.
import type { Element, Nodes, Root } from 'hast';
import { whitespace } from 'hast-util-whitespace';
import { find, hastToReact, html } from 'property-information';
import type { ImageData, MarkdownNode, MarkdownProps, MarkdownTree } from '../../shared/types.js';

/** React warns (and hydration fails) on whitespace text inside these. */
const TABLE_ELEMENTS = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr']);
const TABLE_CELLS = new Set(['td', 'th']);

function propsOf(node: Element, images: Readonly<Record<string, ImageData>>): MarkdownProps | null {
  const props: MarkdownProps = {};
  let align: string | undefined;
  for (const [prop, raw] of Object.entries(node.properties)) {
    if (raw === null || raw === undefined || raw === false || (typeof raw === 'number' && Number.isNaN(raw))) continue;
    const info = find(html, prop);
    const value = Array.isArray(raw) ? raw.join(info.commaSeparated ? ', ' : ' ') : raw;
    const name = info.space ? (hastToReact[info.property] ?? info.property) : info.attribute;
    if (name === 'align' && typeof value === 'string' && TABLE_CELLS.has(node.tagName)) align = value;
    else if (name !== 'style') props[name] = value; // sanitised trees carry no style; never pass a string to React
  }
  if (align) props.style = { textAlign: align };
  // A processed image: the Image component renders its sources and placeholder.
  if (node.tagName === 'img' && typeof props.src === 'string' && images[props.src]) {
    const image = images[props.src]!;
    props.image = image;
    props.src = image.images.fallback.src;
  }
  return Object.keys(props).length > 0 ? props : null;
}

function convert(node: Nodes, parent: string | null, images: Readonly<Record<string, ImageData>>): MarkdownNode | null {
  if (node.type === 'text') {
    if (parent && TABLE_ELEMENTS.has(parent) && whitespace(node.value)) return null;
    return node.value;
  }
  if (node.type !== 'element') return null; // comments, doctypes, raw: nothing to show
  const children = node.children.map((c) => convert(c, node.tagName, images)).filter((c): c is MarkdownNode => c !== null);
  return [node.tagName, propsOf(node, images), ...children];
}

/** `images`: the body's relative image references (as written) -> their processed image data. */
export function toReactTree(root: Root, images: Readonly<Record<string, ImageData>> = {}): MarkdownTree {
  return { type: 'root', children: root.children.map((c) => convert(c, null, images)).filter((c): c is MarkdownNode => c !== null) };
}
