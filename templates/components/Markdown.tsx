// A markdown body (sanitised hast from the build) as React elements. No innerHTML:
// the tree is turned into JSX through hast-util-to-jsx-runtime.
import type { ComponentPropsWithoutRef, JSX } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import type { Components, ExtraProps } from 'hast-util-to-jsx-runtime';
import type { Element, Nodes } from 'hast';
import type { MarkdownTree } from '../../src/shared/types.js';
import { t, type Strings } from '../lib/i18n.js';

function textOf(node: Nodes): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' || node.type === 'root') return node.children.map(textOf).join('');
  return '';
}

const HEADING = /^h[1-6]$/;

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
  const walk = (node: Nodes): void => {
    if (node.type === 'element') {
      if (HEADING.test(node.tagName)) {
        heading = textOf(node).trim();
        return;
      }
      if (node.tagName === 'table') {
        count += 1;
        let label = heading
          ? t(strings, 'markdown.tableAfterHeading', { heading })
          : t(strings, 'markdown.table', { n: count });
        const seen = used.get(label) ?? 0;
        used.set(label, seen + 1);
        if (seen > 0) label = `${label} (${seen + 1})`;
        labels.set(node, label);
      }
    }
    if (node.type === 'element' || node.type === 'root') node.children.forEach(walk);
  };
  walk(tree);
  return labels;
}

type Props<Tag extends keyof JSX.IntrinsicElements> = ComponentPropsWithoutRef<Tag> & ExtraProps;

export interface MarkdownProps {
  tree: MarkdownTree | null;
  strings: Strings;
  className?: string;
}

export function Markdown({ tree, strings, className = 'prose' }: MarkdownProps) {
  if (!tree || tree.children.length === 0) return null;
  const labels = tableLabels(tree, strings);
  const components: Partial<Components> = {
    // The page title is the only h1: a `#` heading in a body becomes an h2.
    h1: ({ node: _node, ...props }: Props<'h1'>) => <h2 {...props} />,
    // Wide tables scroll inside a focusable, labelled region instead of the page.
    table: ({ node, ...props }: Props<'table'>) => (
      <div
        className="table-scroll"
        role="region"
        tabIndex={0}
        aria-label={(node && labels.get(node)) ?? t(strings, 'markdown.table', { n: 1 })}
      >
        <table {...props} />
      </div>
    ),
    // Body images never lack alt, and never block the first paint.
    img: ({ node: _node, alt, ...props }: Props<'img'>) => (
      <img alt={alt ?? ''} loading="lazy" decoding="async" {...props} />
    ),
  };
  return (
    <div className={className}>
      {toJsxRuntime(tree, { Fragment, jsx, jsxs, components, passNode: true })}
    </div>
  );
}
