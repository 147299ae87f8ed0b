// Compiles a sanitised hast tree into React-ready JSON: `[tag, props, ...children]` or a
// string. Prop names and values follow hast-util-to-jsx-runtime's React rules (so the
// output matches it), but the work happens once at build time: the browser only walks
// the result, and the property tables never ship to it.
import type { Element, Nodes, Root } from 'hast';
import { whitespace } from 'hast-util-whitespace';
import { find, hastToReact, html } from 'property-information';
import { fileNameIn, imageData, layoutNamed, type BodyFolder } from '../../shared/image-data.js';
import type { MarkdownNode, MarkdownProps, MarkdownTree } from '../../shared/types.js';

export type { BodyFolder };

/** A relative image address of a body that names no file next to it, at its line in the body. */
export interface MissingImage {
  src: string;
  line?: number;
}

/** Absolute URLs, site paths, fragments and data: URIs are not files next to the body. */
const NOT_RELATIVE = /^([a-z][a-z0-9+.-]*:|\/|#)/i;

interface Conversion {
  folder: BodyFolder;
  missing: MissingImage[];
}

/** React warns (and hydration fails) on whitespace text inside these. */
const TABLE_ELEMENTS = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr']);
const TABLE_CELLS = new Set(['td', 'th']);

function propsOf(node: Element, conversion: Conversion): MarkdownProps | null {
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
  if (node.tagName === 'img') {
    delete props['data-layout'];
    if (typeof props.src === 'string' && props.src !== '' && !NOT_RELATIVE.test(props.src)) resolveImage(node, props, conversion);
  }
  return Object.keys(props).length > 0 ? props : null;
}

/**
 * A relative image: a processed one is rendered by the Image component (its sources and
 * placeholder) in the layout its title or `data-layout` names; one that names no file next to
 * the body is reported.
 */
function resolveImage(node: Element, props: MarkdownProps, { folder, missing }: Conversion): void {
  const src = props.src as string;
  const name = fileNameIn(src);
  if (!Object.hasOwn(folder, name)) {
    missing.push({ src, ...(node.position && { line: node.position.start.line }) });
    return;
  }
  const processed = folder[name];
  if (!processed) return; // an SVG, published as it is
  const image = imageData(processed, layoutNamed(node.properties.title) ?? layoutNamed(node.properties.dataLayout) ?? 'constrained');
  props.image = image;
  props.src = image.images.fallback.src;
}

function convert(node: Nodes, parent: string | null, conversion: Conversion): MarkdownNode | null {
  if (node.type === 'text') {
    if (parent && TABLE_ELEMENTS.has(parent) && whitespace(node.value)) return null;
    return node.value;
  }
  if (node.type !== 'element') return null; // comments, doctypes, raw: nothing to show
  const children = node.children.map((c) => convert(c, node.tagName, conversion)).filter((c): c is MarkdownNode => c !== null);
  return [node.tagName, propsOf(node, conversion), ...children];
}

/** The tree, its relative images resolved in `folder`; those `folder` lacks are listed in `missing`. */
export function toReactTree(root: Root, folder: BodyFolder = {}): { tree: MarkdownTree; missing: MissingImage[] } {
  const conversion: Conversion = { folder, missing: [] };
  const tree: MarkdownTree = { type: 'root', children: root.children.map((c) => convert(c, null, conversion)).filter((c): c is MarkdownNode => c !== null) };
  return { tree, missing: conversion.missing };
}
