// What a compiled body links to and which ids it gives the page, read from the tree the
// pipeline made, as the templates' Markdown component renders it (shared/markdown-guard.ts: an
// element it drops takes its content with it, one it unwraps loses its own attributes, unsafe
// props go), so the site checks every build runs see what the reader gets: footnotes, ids a site
// plugin adds, headings whose slug avoided a reserved id. Nothing here reads markdown.
import { markdownElementFate, safeMarkdownProps } from '../../shared/markdown-guard.js';
import type { MarkdownNode, MarkdownTree } from '../../shared/types.js';

export interface BodyFacts {
  /** The `href` of each link in the body, as the page has it. */
  links: string[];
  /** Each `id` in the body, and each link's `name` (an old-style anchor), as the page has them. */
  ids: string[];
}

/** A body's links and ids, in document order (a tree with none of either gives empty lists). */
export function bodyFacts(tree: MarkdownTree): BodyFacts {
  const facts: BodyFacts = { links: [], ids: [] };
  const visit = (node: MarkdownNode): void => {
    if (typeof node === 'string') return;
    const [tag, raw, ...children] = node;
    const fate = markdownElementFate(tag);
    if (fate === 'drop') return;
    const props = fate === 'render' ? safeMarkdownProps(tag, raw) : null;
    if (props) {
      if (typeof props.id === 'string') facts.ids.push(props.id);
      if (tag === 'a' && typeof props.name === 'string') facts.ids.push(props.name);
      if (tag === 'a' && typeof props.href === 'string') facts.links.push(props.href);
    }
    children.forEach(visit);
  };
  tree.children.forEach(visit);
  return facts;
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** Facts as bodyFacts makes them (a kept copy that is not one counts as unknown). */
export const isBodyFacts = (value: unknown): value is BodyFacts =>
  typeof value === 'object' && value !== null && isStrings((value as BodyFacts).links) && isStrings((value as BodyFacts).ids);
