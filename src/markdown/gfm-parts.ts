// GitHub-flavoured markdown, one construct at a time. remark-gfm switches on all five
// constructs for every body, and two of them are costly whether or not a body uses them:
// the autolink-literal tokenizer tries at the start of every word (an email address can
// start anywhere), the table tokenizer at the start of every line. Together they make
// parsing 2.6 times slower on typical article bodies. None of them can match without a
// character it starts from (an `@` or `www`/`http`, a `|`, `[^`, `~`, `[`), so a body
// that lacks those characters parses to the same tree without the construct. The choice
// is made per body from a cheap scan; test/unit/markdown-gfm-parts.test.ts checks the
// trees against remark-gfm's.
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import type { Processor } from 'unified';

/** The constructs in remark-gfm's order (the order matters where two share a character). */
const PARTS = [
  { name: 'autolink', needs: /@|www|http/i, syntax: gfmAutolinkLiteral, tree: gfmAutolinkLiteralFromMarkdown },
  { name: 'footnote', needs: /\[\^/, syntax: gfmFootnote, tree: gfmFootnoteFromMarkdown },
  { name: 'strikethrough', needs: /~/, syntax: gfmStrikethrough, tree: gfmStrikethroughFromMarkdown },
  { name: 'table', needs: /\|/, syntax: gfmTable, tree: gfmTableFromMarkdown },
  { name: 'task-list', needs: /\[/, syntax: gfmTaskListItem, tree: gfmTaskListItemFromMarkdown },
] as const;

/** Every construct on: what remark-gfm does. */
export const ALL_GFM_PARTS = (1 << PARTS.length) - 1;

/** A bit per construct the body could contain. */
export function gfmPartsIn(markdown: string): number {
  let mask = 0;
  PARTS.forEach((part, i) => {
    if (part.needs.test(markdown)) mask |= 1 << i;
  });
  return mask;
}

/** unified plugin: the GFM constructs in `mask`, for parsing only (nothing here serialises markdown). */
export function remarkGfmParts(this: Processor, mask: number): void {
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  const syntax = (data.micromarkExtensions ??= []);
  const tree = (data.fromMarkdownExtensions ??= []);
  PARTS.forEach((part, i) => {
    if (!(mask & (1 << i))) return;
    syntax.push(part.syntax());
    tree.push(part.tree());
  });
}
