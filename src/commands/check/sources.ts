// Source files, read only when a finding needs a line: where a link is written in an
// entry's body, which front-matter field holds it, which template rendered it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Element, Root as HastRoot } from 'hast';
import { toString as hastToString } from 'hast-util-to-string';
import type { Definition } from 'mdast';
import { normalizeUri } from 'micromark-util-sanitize-uri';
import rehypeRaw from 'rehype-raw';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { EXIT, visit } from 'unist-util-visit';
import { readFrontMatter, type FrontMatter } from '../../build/content/frontmatter.js';
import { normaliseText } from '../../build/content/source-text.js';
import type { RouteWithText } from '../../build/bodies.js';
import { fieldLine } from '../../build/content/field-line.js';
import type { Diagnostic } from '../../errors/diagnostic.js';

/** Where a finding is in the sources. */
export type SourceLocation = Pick<Diagnostic, 'file' | 'line' | 'column' | 'field' | 'excerpt'>;

/** Line, column and text of `index` in `text`, the text's first line being file line `firstLine`. */
export function positionIn(text: string, index: number, firstLine: number): { line: number; column: number; excerpt: string } {
  const before = text.lastIndexOf('\n', index - 1);
  let line = firstLine;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  const end = text.indexOf('\n', index);
  return { line, column: index - before, excerpt: text.slice(before + 1, end === -1 ? undefined : end) };
}

/** The URL as the page has it, and percent-decoded (`/%C3%A9t%C3%A9/` is written `/été/`). */
function variantsOf(url: string): string[] {
  const variants = new Set<string>([url]);
  try {
    variants.add(decodeURI(url));
  } catch {
    // not percent-encoded text
  }
  return [...variants];
}

/**
 * The ways a URL is written in markdown or raw HTML, most specific first, with where the URL
 * starts; `open` forms have no closing delimiter, so what follows them must end an address
 * (`](/insights` is not the link /insights when `/` follows).
 */
function writtenForms(url: string): { form: string; offset: number; open: boolean }[] {
  // An empty address is told apart by what closes it: `]()` or `href=""`.
  const delimiters = url === '' ? ([['](', ')'], ['](<', '>)'], ['href="', '"'], ["href='", "'"]] as const) : DELIMITERS;
  return variantsOf(url).flatMap((u) => delimiters.map(([before, after]) => ({ form: `${before}${u}${after}`, offset: before.length, open: after === '' })));
}

const DELIMITERS = [['](', ''], ['](<', '>'], ['href="', '"'], ["href='", "'"], ['src="', '"'], ["src='", "'"], [']: ', ''], ['<', '>']] as const;

/** What may follow an address in markdown: `)`, a space before a title, `>`, a quote, the end. */
const ENDS_ADDRESS = /[)\s>"']/;

/** `s` matched literally in a RegExp. */
export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `url` as markdown may write it: any ASCII punctuation may carry a backslash escape
 * (`/in\_sights/` is the link /in_sights/) and `&` may be `&amp;`.
 */
function escapedForm(url: string): string {
  return [...url].map((c) => (c === '&' ? '(?:\\\\?&|&amp;)' : /[!-/:-@[-`{-~]/.test(c) ? `\\\\?${escapeRe(c)}` : escapeRe(c))).join('');
}

/** Where a link's address starts in markdown or raw HTML: `](`, `](<`, `]: `, `href="`, `src=`. */
const BEFORE_ADDRESS = String.raw`(\]\(\s*<?|\]:[ \t]*<?|\b(?:href|src)\s*=\s*["']?)`;

/** Markdown as the build's pipeline reads it first: where its links, definitions and raw HTML are. */
const markdownParser = unified().use(remarkParse).use(remarkGfm).freeze();
/** A parsed body to HTML elements before the content is made safe: raw HTML parsed in place, every address still there. */
const unsafeHtml = unified().use(remarkRehype, { allowDangerousHtml: true }).use(rehypeRaw).freeze();
type MarkdownRoot = ReturnType<typeof markdownParser.parse>;
/** An HTML element of a body, with its offsets in the body's text. */
interface BodyElement {
  node: Element;
  start: number;
  end: number;
}

/**
 * Where `url` is written between `start` and `end` of `text`, as an offset, or null: the forms
 * a link or raw HTML writes it in, then with backslash escapes or entities.
 */
function addressIn(text: string, start: number, end: number, url: string): number | null {
  const span = text.slice(start, end);
  for (const { form, offset, open } of writtenForms(url)) {
    for (let at = span.indexOf(form); at !== -1; at = span.indexOf(form, at + 1)) {
      if (!open || ENDS_ADDRESS.test(span[at + form.length] ?? ' ')) return start + at + offset;
    }
  }
  if (url === '') return null;
  for (const u of variantsOf(url)) {
    const m = new RegExp(`${BEFORE_ADDRESS}${escapedForm(u)}(?=[)\\s>"']|$)`).exec(span);
    if (m) return start + m.index + m[1]!.length;
  }
  return null;
}

export class Sources {
  private readonly texts = new Map<string, string | null>();
  private readonly trees = new Map<string, MarkdownRoot>();
  private readonly elementLists = new Map<string, BodyElement[]>();
  private readonly matters = new Map<string, FrontMatter | null>();

  constructor(readonly root: string) {}

  /** A markdown body parsed, with positions (kept per file). */
  tree(md: { file: string; text: string }): MarkdownRoot {
    let tree = this.trees.get(md.file);
    if (!tree) this.trees.set(md.file, (tree = markdownParser.parse(md.text)));
    return tree;
  }

  /**
   * A body's HTML elements before the content is made safe (raw HTML parsed in place, every
   * attribute as written), each with its offsets in the body, in document order (kept per file).
   */
  elements(md: { file: string; text: string }): BodyElement[] {
    let list = this.elementLists.get(md.file);
    if (!list) {
      const found: BodyElement[] = (list = []);
      visit(unsafeHtml.runSync(structuredClone(this.tree(md))) as HastRoot, 'element', (node) => {
        const { start, end } = node.position ?? {};
        if (start?.offset !== undefined && end?.offset !== undefined) found.push({ node, start: start.offset, end: end.offset });
      });
      this.elementLists.set(md.file, list);
    }
    return list;
  }

  /** A site-relative file's text, or null when it cannot be read. */
  text(file: string): string | null {
    if (!this.texts.has(file)) {
      let text: string | null = null;
      try {
        text = normaliseText(readFileSync(path.join(this.root, file), 'utf8'));
      } catch {
        text = null;
      }
      this.texts.set(file, text);
    }
    return this.texts.get(file)!;
  }

  /** An entry's front matter and body, as the load stage reads them. */
  frontMatter(file: string): FrontMatter | null {
    if (!this.matters.has(file)) {
      const text = this.text(file);
      const parsed = text === null ? null : readFrontMatter(text);
      this.matters.set(file, parsed && 'data' in parsed ? parsed : null);
    }
    return this.matters.get(file)!;
  }

  /** Where a front-matter field starts; with `value`, the first line at or after it that holds the value. */
  field(file: string, field: string, value?: string): SourceLocation {
    const fm = this.frontMatter(file);
    const line = fm ? fieldLine(fm.fieldLines, field) : undefined;
    if (line === undefined) return { file, field };
    if (value !== undefined) {
      const text = this.text(file) ?? '';
      const lines = text.split('\n');
      // The value may sit on the field's line (`sections: [a, b]`) or on a list item below it.
      for (let i = line - 1; i < lines.length && i < (fm!.bodyLine - 1); i++) {
        const column = lines[i]!.indexOf(value);
        if (column !== -1 && (i === line - 1 || /^\s/.test(lines[i]!))) return { file, line: i + 1, column: column + 1, field, excerpt: lines[i] };
        if (i > line - 1 && !/^\s|^-/.test(lines[i]!)) break;
      }
    }
    return { file, line, field, excerpt: (this.text(file) ?? '').split('\n')[line - 1] };
  }

  /**
   * Where `url` is written in the route's markdown body (the first place, in document order), or
   * null when it is not there: in a link, an image or a definition whose address it is, or in raw
   * HTML; never in code, where it is text.
   */
  inBody(route: RouteWithText, url: string): SourceLocation | null {
    const md = route.markdown;
    if (!md) return null;
    let found: number | null = null;
    visit(this.tree(md), (node) => {
      const { start, end } = node.position ?? {};
      if (node.type === 'root' || start?.offset === undefined || end?.offset === undefined) return undefined;
      if (node.type === 'html') found = addressIn(md.text, start.offset, end.offset, url);
      // The page has the address as remark-rehype writes it (percent-encoded).
      else if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && (node.url === url || normalizeUri(node.url) === url)) {
        found = addressIn(md.text, start.offset, end.offset, url) ?? start.offset;
      }
      return found === null ? undefined : EXIT;
    });
    return found === null ? null : { file: md.file, ...positionIn(md.text, found, md.line) };
  }

  /**
   * Every link in the route's markdown body whose text is `text` (as the page shows it, spaces
   * collapsed), with its address before the content was made safe and where that address is
   * written: in the link, in raw HTML, or in the definition a reference link uses.
   */
  linksWithText(route: RouteWithText, text: string): (SourceLocation & { url: string })[] {
    const md = route.markdown;
    if (!md) return [];
    const tree = this.tree(md);
    // The markdown links by where they start: the address as written, or the definition a reference uses.
    const written = new Map<number, { url: string; start: number; end: number }>();
    const definitions = new Map<string, Definition>();
    visit(tree, 'definition', (node) => void (definitions.has(node.identifier) || definitions.set(node.identifier, node)));
    visit(tree, (node) => {
      const source = node.type === 'link' ? node : node.type === 'linkReference' ? definitions.get(node.identifier) : undefined;
      const at = node.position?.start.offset;
      if (at !== undefined && source?.position) written.set(at, { url: source.url, start: source.position.start.offset!, end: source.position.end.offset! });
    });
    const out: (SourceLocation & { url: string })[] = [];
    for (const { node, start, end } of this.elements(md)) {
      if (node.tagName !== 'a' || hastToString(node).replace(/\s+/g, ' ').trim() !== text) continue;
      // Raw HTML has its address in the element's own text; an <a> written with no href lost nothing.
      const source = written.get(start) ?? (typeof node.properties.href === 'string' ? { url: node.properties.href, start, end } : null);
      if (!source) continue;
      const place = addressIn(md.text, source.start, source.end, source.url) ?? start;
      out.push({ file: md.file, ...positionIn(md.text, place, md.line), url: source.url });
    }
    return out;
  }

  /** The first line of `file` at or after `fromLine` that holds `needle` as a word. */
  find(file: string, needle: string, fromLine = 1): SourceLocation {
    const lines = (this.text(file) ?? '').split('\n');
    const word = new RegExp(`(^|[^\\w-])${needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`);
    for (let i = Math.max(0, fromLine - 1); i < lines.length; i++) {
      const m = word.exec(lines[i]!);
      if (m) return { file, line: i + 1, column: m.index + m[1]!.length + 1, excerpt: lines[i] };
    }
    return { file };
  }
}
