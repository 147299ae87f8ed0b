// markdown-it-footnote ships no types; this is the one call we make of it.
declare module 'markdown-it-footnote' {
  import type { MarkdownIt } from 'markdown-it';
  export default function footnotePlugin(md: MarkdownIt): void;
}
