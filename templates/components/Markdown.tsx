// A markdown body as React elements. The build compiled it to React-ready JSON
// (`[tag, props, ...children]`, src/markdown/to-react-tree.ts), so rendering is a walk
// with createElement, the same on the server and in the browser. No innerHTML, and only
// what markdown-guard allows, whatever the record holds: a record is data from the network.
import { createElement, Fragment, type ReactNode } from 'react';
import { imageOf, markdownElementFate, safeMarkdownProps, type MarkdownNode, type MarkdownProps as NodeProps, type MarkdownTree } from 'ir-site/templates';
import { Image } from './Image.js';
import { t, type Strings } from '../lib/i18n.js';

type Element = Exclude<MarkdownNode, string>;

function textOf(node: MarkdownNode): string {
  if (typeof node === 'string') return node;
  return Array.isArray(node) ? node.slice(2).map((c) => textOf(c as MarkdownNode)).join('') : '';
}

const HEADING = /^h[1-6]$/;
const VOID = new Set(['br', 'hr', 'img', 'input', 'source']);

/**
 * An accessible name for every table of the body: "Table: {nearest heading above}",
 * or "Table {n}" when no heading precedes it; repeated names get " (2)", " (3)"...
 * so that each scrollable region is unique.
 */
function tableLabels(tree: MarkdownTree, strings: Strings): Map<Element, string> {
  const labels = new Map<Element, string>();
  const used = new Map<string, number>();
  let heading = '';
  let count = 0;
  const walk = (node: MarkdownNode): void => {
    if (!Array.isArray(node)) return;
    const [tag] = node;
    if (HEADING.test(tag)) {
      heading = textOf(node).trim();
      return;
    }
    if (tag === 'table') {
      count += 1;
      let label = heading ? t(strings, 'markdown.tableAfterHeading', { heading }) : t(strings, 'markdown.table', { n: count });
      const seen = used.get(label) ?? 0;
      used.set(label, seen + 1);
      if (seen > 0) label = `${label} (${seen + 1})`;
      labels.set(node, label);
    }
    node.slice(2).forEach((c) => walk(c as MarkdownNode));
  };
  tree.children.forEach(walk);
  return labels;
}

export interface MarkdownProps {
  tree: MarkdownTree | null;
  strings: Strings;
  className?: string;
  /** The body's first image is the page's first image: load it eagerly. */
  eagerFirstImage?: boolean;
}

export function Markdown({ tree, strings, className = 'prose', eagerFirstImage = false }: MarkdownProps) {
  if (!tree || tree.children.length === 0) return null;
  const labels = tableLabels(tree, strings);
  let images = 0;

  const render = (node: MarkdownNode): ReactNode => {
    if (typeof node === 'string') return node;
    if (!Array.isArray(node)) return null;
    const [tag, rawProps, ...children] = node as [unknown, NodeProps | null, ...MarkdownNode[]];
    const fate = markdownElementFate(tag);
    if (fate === 'drop') return null;
    const kids = children.map(render);
    if (fate === 'unwrap') return createElement(Fragment, null, ...kids);
    const name = tag as string;
    const props = safeMarkdownProps(name, rawProps);
    if (name === 'table') {
      // Wide tables scroll inside a focusable, labelled region instead of the page.
      return createElement(
        'div',
        { className: 'table-scroll', role: 'region', tabIndex: 0, 'aria-label': labels.get(node as Element) ?? t(strings, 'markdown.table', { n: 1 }) },
        createElement('table', props, ...kids),
      );
    }
    // Processed body images get the responsive markup; others never lack alt, never block paint.
    const image = name === 'img' ? imageOf(rawProps) : null;
    if (image) {
      images += 1;
      return createElement(Image, { image, alt: typeof props?.alt === 'string' ? props.alt : '', eager: eagerFirstImage && images === 1 });
    }
    if (name === 'img') return createElement('img', { alt: '', loading: 'lazy', decoding: 'async', ...props });
    // Void elements take no children (React throws on them).
    return VOID.has(name) ? createElement(name, props) : createElement(name, props, ...kids);
  };

  return createElement('div', { className }, ...tree.children.map(render));
}
