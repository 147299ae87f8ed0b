// Modules markdown-it-hast.ts imports that ship no types: the calls it makes of them.
declare module 'markdown-it-footnote' {
  import type { MarkdownIt } from 'markdown-it';
  export default function footnotePlugin(md: MarkdownIt): void;
}

declare module 'markdown-it/lib/rules_block/reference.mjs' {
  import type { StateBlock } from 'markdown-it';
  export default function reference(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean;
}
