// The fast path: markdown-it tokens turned into exactly the hast that remark-parse + GFM +
// remark-rehype make of the same body, or nothing when the body holds a construct the two
// parsers read differently. markdown-it parses a typical article 25-35 times faster than
// micromark, which is most of a cold build's time (docs/build-cache.md).
//
// The tree is built the way mdast-util-to-hast builds it (handler by handler: the "\n" text
// between blocks, tight-list paragraphs unwrapped, the footnote section, property order),
// so that sanitising it gives the same page data byte for byte. Where markdown-it and GFM
// disagree, the body is declined and goes through unified instead:
// - raw HTML (it needs parse5 and rehype-raw anyway), indented code (micromark splits and
//   continues it differently after quotes and lists),
// - anything `~` (GFM strikes through `~one~`, markdown-it only `~~two~~`),
// - text that could hold a GFM autolink literal (`@`, `www.`, `http://`, `mailto:`...),
// - a list item that could be a task (`[ ]`, `[x]`), an empty list item, an ordered list
//   inside a container that starts at a number other than 1, a list right after another in a container,
//   a table after anything but a paragraph or a blank line, a code span of spaces only,
// - a link reference definition inside a list or quote,
// - footnote labels other than plain `[A-Za-z0-9_.-]`, a reference markdown-it left as text,
//   a label defined twice, a reference inside a footnote, a definition with lazy lines,
// - an empty link title or destination (markdown-it drops an empty title), parentheses
//   nested in a destination, a `*` or `_` left as text beside `**` or `__`, runs of four `*`
//   or `_`, a definition over several lines, a footnote defined inside another, a code span
//   inside link text,
// - nesting deep enough to reach markdown-it's limit.
// test/unit/markdown-fast-path.test.ts checks every CommonMark spec example, GFM cases and
// generated bodies against unified: equal trees, or declined.
import type { Element, ElementContent, Properties, Root, RootContent, Text } from 'hast';
import markdownIt, { type MarkdownIt, type Token } from 'markdown-it';
import footnotePlugin from 'markdown-it-footnote';
import reference from 'markdown-it/lib/rules_block/reference.mjs';
import { normalizeUri } from 'micromark-util-sanitize-uri';
import { trimLines } from 'trim-lines';

export interface FootnoteLabels {
  label: string;
  backLabel: (referenceIndex: number, rereferenceIndex: number) => string;
}

const parser = createParser();

function createParser(): MarkdownIt {
  const md = markdownIt('default', { html: true, linkify: false, typographer: false });
  md.use(footnotePlugin);
  md.inline.ruler.disable(['footnote_inline']); // `^[...]` is not GFM
  // Keep destinations as written (remark-rehype encodes them, below) and keep `javascript:`
  // links as links: the sanitiser removes their href, as it does on the unified path.
  md.validateLink = () => true;
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (text) => text;
  guardReferenceDefinitions(md);
  md.core.ruler.before('footnote_tail', 'ir_footnote_duplicates', (state) => {
    // markdown-it-footnote keeps the last of two same-label definitions, GFM the first.
    // A definition inside another loses the outer one's text in markdown-it-footnote.
    const labels = new Set<string>();
    let depth = 0;
    for (const token of state.tokens) {
      if (token.type === 'footnote_reference_close') depth--;
      if (token.type !== 'footnote_reference_open') continue;
      if (++depth > 1) declineLater(state.env as Env);
      const label = String((token.meta as { label: unknown }).label).toLowerCase();
      if (labels.has(label)) declineLater(state.env as Env);
      labels.add(label);
    }
  });
  return md;
}

/**
 * A definition inside a list or quote, or over several lines, takes lazy lines differently
 * in micromark (`> [a]: /url\n===`): such bodies go to unified.
 */
function guardReferenceDefinitions(md: MarkdownIt): void {
  md.block.ruler.at('reference', (state, startLine, endLine, silent) => {
    const matched = reference(state, startLine, endLine, silent);
    if (matched && !silent && (state.parentType !== 'root' || state.blkIndent > 0 || state.line - startLine > 1)) declineLater(state.env as Env);
    return matched;
  });
}

type Env = { irDecline?: boolean };
const declineLater = (env: Env) => {
  env.irDecline = true;
};

/** Thrown to hand a body back to unified; a plain object, so declining costs no stack trace. */
const DECLINE = { declined: true } as const;

const DEEPEST_LEVEL = 60; // markdown-it stops parsing at 100 levels and drops the rest
const FOOTNOTE_LABEL = /^\[\^[A-Za-z0-9_.-]+\]/;
/** Whether text could hold a GFM autolink literal; the literal checks first, as text is scanned often. */
const mayHoldAutolink = (text: string): boolean =>
  text.includes('@') || (text.includes(':') && /https?:\/\/|mailto:|xmpp:/i.test(text)) || (text.includes('.') && /www\./i.test(text));
const TASK = /^\[[\s xX]\]/;
const CLOBBER = 'user-content-';

/** The hast remark-rehype would make of `markdown`, not yet sanitised; undefined when declined. */
export function markdownItHast(markdown: string, footnotes: FootnoteLabels): Root | undefined {
  if (!acceptsSource(markdown)) return undefined;
  const env: Env = {};
  const tokens = parser.parse(markdown, env);
  if (env.irDecline) return undefined;
  try {
    return new TreeBuilder(markdown, tokens, footnotes).root();
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}

/** What markdown-it reads differently and can be seen in the text itself. */
const DIFFERENT_SOURCE = [
  /\*{4}|_{4}/, // long delimiter runs: the two pair them differently
  /\]\[[^\]]*\[/, // `[a][b[]`: a reference micromark leaves as text
  /\]\([^)\s]*\(/, // parentheses nested in a link destination
];
/** `    > x` under a quote: lazy text to micromark, a quote to markdown-it. */
const INDENTED_QUOTE_MARKER = /^(?:[ \t]*\t| {4,})[ \t]*>/m;
/** Footnote definitions take lazy lines differently: right after the definition, or after an indented line. */
const FOOTNOTE_LAZY_LINE = [/^\[\^[^\]\n]*\]:.*\n(?![ \t]*(?:\n|$)| {4}|\[\^)/m, /^ {4}.*\n(?![ \t]*(?:\n|$)| {4})/m];

function acceptsSource(markdown: string): boolean {
  if (markdown.includes('~') || markdown.includes('""') || markdown.includes("''") || markdown.includes('()')) return false;
  if (DIFFERENT_SOURCE.some((pattern) => pattern.test(markdown))) return false;
  if (markdown.includes('>') && INDENTED_QUOTE_MARKER.test(markdown)) return false;
  const footnotes = markdown.indexOf('[^');
  if (footnotes !== -1 && FOOTNOTE_LAZY_LINE.some((pattern) => pattern.test(markdown))) return false;
  for (let at = footnotes; at !== -1; at = markdown.indexOf('[^', at + 2)) {
    if (!FOOTNOTE_LABEL.test(markdown.slice(at, at + 64))) return false;
  }
  return true;
}

const text = (value: string): Text => ({ type: 'text', value });
const element = (tagName: string, properties: Properties, children: ElementContent[]): Element => ({ type: 'element', tagName, properties, children });
const EOL = (): Text => text('\n');

/** mdast-util-to-hast's `wrap`: line endings between nodes, and around them when `loose`. */
function wrap<T extends ElementContent>(nodes: T[], loose = false): Array<T | Text> {
  const result: Array<T | Text> = loose ? [EOL()] : [];
  nodes.forEach((node, index) => {
    if (index) result.push(EOL());
    result.push(node);
  });
  if (loose && nodes.length > 0) result.push(EOL());
  return result;
}

function trimMarkdownSpaceStart(value: string): string {
  let index = 0;
  while (value.charCodeAt(index) === 9 || value.charCodeAt(index) === 32) index++;
  return value.slice(index);
}

function attr(token: Token, name: string): string | undefined {
  const found = token.attrs?.find(([key]) => key === name);
  return found === undefined ? undefined : String(found[1]);
}

function decline(): never {
  throw DECLINE;
}

interface Footnote {
  key: string; // lower-cased label: GFM matches labels without case
  safeId: string;
  references: number;
}

class TreeBuilder {
  private pos = 0;
  private readonly order: Footnote[] = [];
  private readonly byKey = new Map<string, Footnote>();
  private inFootnote = false;

  private lines: string[] | undefined;

  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
    private readonly labels: FootnoteLabels,
  ) {}

  root(): Root {
    const children: RootContent[] = wrap(this.blocks());
    const footer = this.pos < this.tokens.length ? this.footnoteSection() : undefined;
    if (footer) children.push(EOL(), footer);
    return { type: 'root', children };
  }

  /** Block tokens up to the next closing token (left for the caller) or the footnote block. */
  private blocks(): Element[] {
    const out: Element[] = [];
    while (this.pos < this.tokens.length) {
      const token = this.tokens[this.pos]!;
      if (token.nesting === -1 || token.type === 'footnote_block_open') break;
      if (token.level >= DEEPEST_LEVEL) decline();
      if (token.type === 'footnote_anchor') {
        this.pos++;
        continue;
      }
      out.push(this.block());
    }
    return out;
  }

  private close(type: string): void {
    if (this.tokens[this.pos]?.type !== type) decline(); // a token shape we do not know
    this.pos++;
  }

  private block(): Element {
    const token = this.tokens[this.pos++]!;
    switch (token.type) {
      case 'paragraph_open': {
        const children = this.inline(this.tokens[this.pos++]!);
        while (this.tokens[this.pos]?.type === 'footnote_anchor') this.pos++;
        this.close('paragraph_close');
        return element('p', {}, children);
      }
      case 'heading_open': {
        const children = this.inline(this.tokens[this.pos++]!);
        this.close('heading_close');
        return element(token.tag, {}, children);
      }
      case 'blockquote_open': {
        const children = this.blocks();
        this.close('blockquote_close');
        return element('blockquote', {}, wrap(children, true));
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        // micromark starts a list at a number other than 1 only after a blank line (not
        // after a definition, nor in a container), where CommonMark and markdown-it may.
        if (token.type === 'ordered_list_open' && Number(attr(token, 'start') ?? 1) !== 1 && (token.level > 0 || !this.followsBlankLine(token))) decline();
        return this.list(token);
      case 'fence':
        return this.code(token);
      case 'hr':
        return element('hr', {}, []);
      case 'table_open':
        if (!this.plainTableStart(token) || (this.tokens[this.pos - 2]?.type !== 'paragraph_close' && !this.followsBlankLine(token))) decline();
        return this.table();
      default:
        return decline(); // raw HTML, or a token this builder does not know
    }
  }

  private list(open: Token): Element {
    const ordered = open.type === 'ordered_list_open';
    const closeType = ordered ? 'ordered_list_close' : 'bullet_list_close';
    const items: Element[][] = [];
    let loose = false;
    while (this.tokens[this.pos]?.type === 'list_item_open') {
      const item = this.tokens[this.pos++]!;
      const first = this.tokens[this.pos];
      // micromark often reads `-` alone, or followed by a blank line, as text.
      if (first?.type === 'list_item_close' || (first?.map && item.map && first.map[0] > item.map[0])) decline();
      if (first?.type === 'paragraph_open' && TASK.test(this.tokens[this.pos + 1]?.content ?? '')) decline();
      // A loose list shows its paragraphs; markdown-it hides those of a tight one.
      for (let i = this.pos; i < this.tokens.length; i++) {
        const token = this.tokens[i]!;
        if (token.type === 'list_item_close' && token.level === item.level) break;
        if (token.type === 'paragraph_open' && token.level === item.level + 1 && !token.hidden) loose = true;
      }
      items.push(this.blocks());
      this.close('list_item_close');
    }
    this.close(closeType);
    // Inside a container, micromark calls a list spread when a blank line parts it from the next list.
    if (open.level > 0 && /_list_open$/.test(this.tokens[this.pos]?.type ?? '')) decline();
    const properties: Properties = {};
    const start = ordered ? Number(attr(open, 'start') ?? 1) : 1;
    if (start !== 1) properties.start = start;
    return element(ordered ? 'ol' : 'ul', properties, wrap(items.map((results) => listItem(results, loose)), true));
  }

  private code(token: Token): Element {
    // micromark drops the blank lines that end an unclosed fence; markdown-it keeps them.
    if (/(?:^|\n)[ \t]*\n$/.test(token.content)) decline();
    const content = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
    const properties: Properties = {};
    const language = token.type === 'fence' ? parser.utils.unescapeAll(token.info).trim().split(/\s+/)[0] : '';
    if (language) properties.className = ['language-' + language];
    return element('pre', {}, [element('code', properties, [text(content ? content + '\n' : '')])]);
  }

  private sourceLine(index: number | undefined): string | undefined {
    this.lines ??= this.source.split('\n');
    return index === undefined ? undefined : this.lines[index];
  }

  private followsBlankLine(token: Token): boolean {
    const line = token.map?.[0];
    return line === 0 || (line !== undefined && this.sourceLine(line - 1)!.trim() === '');
  }

  /**
   * markdown-it tries tables before any other block, so `- a | b` over a delimiter row is a
   * table there and a list item in GFM: only a header line that starts like nothing else is taken.
   */
  private plainTableStart(token: Token): boolean {
    const header = this.sourceLine(token.map?.[0]);
    return header !== undefined && !/^(?: {4}|\s*(?:[-+*>#<`~]|\d+[.)]|$))/.test(header);
  }

  private table(): Element {
    const sections: Element[] = [];
    while (this.tokens[this.pos]?.type === 'thead_open' || this.tokens[this.pos]?.type === 'tbody_open') {
      const head = this.tokens[this.pos++]!.type === 'thead_open';
      const rows: Element[] = [];
      while (this.tokens[this.pos]?.type === 'tr_open') {
        this.pos++;
        const cells: Element[] = [];
        while (this.tokens[this.pos]?.type === 'th_open' || this.tokens[this.pos]?.type === 'td_open') {
          const cell = this.tokens[this.pos++]!;
          const align = /text-align:(\w+)/.exec(attr(cell, 'style') ?? '')?.[1];
          const content = this.tokens[this.pos++]!;
          if (content.content.includes('\\')) decline(); // `\\|` splits cells differently
          const children = this.inline(content);
          this.close(head ? 'th_close' : 'td_close');
          cells.push(element(head ? 'th' : 'td', align ? { align } : {}, children));
        }
        this.close('tr_close');
        rows.push(element('tr', {}, wrap(cells, true)));
      }
      this.close(head ? 'thead_close' : 'tbody_close');
      sections.push(element(head ? 'thead' : 'tbody', {}, wrap(rows, true)));
    }
    this.close('table_close');
    return element('table', {}, wrap(sections, true));
  }

  /** Inline tokens as mdast-util-to-hast would convert the mdast phrasing they stand for. */
  private inline(token: Token): ElementContent[] {
    if (token.type !== 'inline') decline();
    if (token.content.includes('`')) {
      // markdown-it keeps a continuation line's indent inside a code span; micromark drops it.
      // And markdown-it 14 loses later code spans after a failed link whose label holds one.
      if (/\n[ \t]/.test(token.content) || /\[[^\]]*`/.test(token.content)) decline();
    }
    // A `*` or `_` left as text next to a `**` or `__` run is where the two apply
    // CommonMark's rule of 3 differently.
    const doubleDelimiters = token.content.includes('**') || token.content.includes('__');
    const root: ElementContent[] = [];
    const stack: ElementContent[][] = [root];
    const opened: Element[] = [];
    let pending: string | undefined; // mdast keeps a run of text, escapes and soft breaks as one node
    // to-hast trims the start of whatever follows a hard break: a text, or an element's first text.
    let afterBreak = false;
    let trimFirstTextOf: ElementContent[] | undefined;
    const add = (node: ElementContent) => {
      flush();
      if (afterBreak && node.type === 'element') {
        const head = node.children[0];
        if (head?.type === 'text') head.value = trimMarkdownSpaceStart(head.value);
        else if (!head) trimFirstTextOf = node.children; // filled in as its tokens come
      }
      afterBreak = false;
      stack[stack.length - 1]!.push(node);
    };
    const flush = () => {
      if (pending === undefined) return;
      if (mayHoldAutolink(pending) || pending.includes('[^') || (doubleDelimiters && /[*_]/.test(pending))) decline();
      const container = stack[stack.length - 1]!;
      let value = trimLines(pending);
      if (afterBreak || (container === trimFirstTextOf && container.length === 0)) value = trimMarkdownSpaceStart(value);
      afterBreak = false;
      trimFirstTextOf = undefined;
      pending = undefined;
      container.push(text(value));
    };
    const open = (node: Element) => {
      add(node);
      opened.push(node);
      stack.push(node.children);
    };
    const close = () => {
      flush();
      if (!opened.pop()) decline();
      stack.pop();
      afterBreak = false;
    };
    for (const child of token.children ?? []) {
      if (child.level >= DEEPEST_LEVEL) decline();
      switch (child.type) {
        case 'text': // markdown-it leaves empty texts where emphasis delimiters were
          if (child.content) pending = (pending ?? '') + child.content;
          break;
        case 'softbreak':
          pending = (pending ?? '') + '\n';
          break;
        case 'hardbreak':
          add(element('br', {}, []));
          stack[stack.length - 1]!.push(text('\n'));
          afterBreak = true;
          break;
        case 'code_inline':
          if (child.content.trim() === '') decline(); // micromark empties a code span of spaces only
          add(element('code', {}, [text(child.content)]));
          break;
        case 'em_open':
          open(element('em', {}, []));
          break;
        case 'strong_open':
          open(element('strong', {}, []));
          break;
        case 'link_open': {
          const properties: Properties = { href: normalizeUri(attr(child, 'href') ?? '') };
          const title = attr(child, 'title');
          if (title !== undefined) properties.title = title;
          open(element('a', properties, []));
          break;
        }
        case 'em_close':
        case 'strong_close':
        case 'link_close':
          close();
          break;
        case 'image': {
          const properties: Properties = { src: normalizeUri(attr(child, 'src') ?? ''), alt: this.altText(child.children ?? []) };
          const title = attr(child, 'title');
          if (title !== undefined) properties.title = title;
          add(element('img', properties, []));
          break;
        }
        case 'footnote_ref':
          add(this.footnoteReference(String((child.meta as { label: unknown }).label)));
          break;
        default:
          decline(); // raw HTML, strikethrough, or a token this builder does not know
      }
    }
    flush();
    if (opened.length > 0) decline();
    return root;
  }

  /** An image's alt, as mdast-util-to-string reads its label. */
  private altText(children: Token[]): string {
    let alt = '';
    for (const child of children) {
      if (child.type === 'text') {
        if (mayHoldAutolink(child.content) || child.content.includes('[^')) decline();
        alt += child.content;
      } else if (child.type === 'softbreak') alt += '\n';
      else if (child.type === 'code_inline' || child.type === 'html_inline') decline();
      else if (child.type === 'image') alt += this.altText(child.children ?? []);
      else if (child.type === 'footnote_ref') decline();
    }
    return alt;
  }

  private footnoteReference(label: string): Element {
    if (this.inFootnote) decline(); // to-hast numbers those while it builds the section
    const key = label.toLowerCase();
    let footnote = this.byKey.get(key);
    if (!footnote) {
      footnote = { key, safeId: normalizeUri(key), references: 0 };
      this.byKey.set(key, footnote);
      this.order.push(footnote);
    }
    footnote.references++;
    const link = element(
      'a',
      {
        href: `#${CLOBBER}fn-${footnote.safeId}`,
        id: `${CLOBBER}fnref-${footnote.safeId}${footnote.references > 1 ? `-${footnote.references}` : ''}`,
        dataFootnoteRef: true,
        ariaDescribedBy: ['footnote-label'],
      },
      [text(String(this.order.indexOf(footnote) + 1))],
    );
    return element('sup', {}, [link]);
  }

  /** markdown-it-footnote's block of referenced definitions, as remark-rehype's footer. */
  private footnoteSection(): Element | undefined {
    this.close('footnote_block_open');
    this.inFootnote = true;
    const contents = new Map<string, Element[]>();
    while (this.tokens[this.pos]?.type === 'footnote_open') {
      const key = String((this.tokens[this.pos++]!.meta as { label: unknown }).label).toLowerCase();
      if (contents.has(key)) decline(); // two labels that differ only in case
      contents.set(key, this.blocks());
      this.close('footnote_close');
    }
    this.close('footnote_block_close');
    if (this.pos !== this.tokens.length) decline();
    const items = this.order.map((footnote, referenceIndex) => {
      const content: ElementContent[] = contents.get(footnote.key) ?? decline();
      const backReferences: ElementContent[] = [];
      for (let rereference = 1; rereference <= footnote.references; rereference++) {
        if (backReferences.length > 0) backReferences.push(text(' '));
        const back: ElementContent[] = [text('↩')];
        if (rereference > 1) back.push(element('sup', {}, [text(String(rereference))]));
        backReferences.push(
          element(
            'a',
            {
              href: `#${CLOBBER}fnref-${footnote.safeId}${rereference > 1 ? `-${rereference}` : ''}`,
              dataFootnoteBackref: '',
              ariaLabel: this.labels.backLabel(referenceIndex, rereference),
              className: ['data-footnote-backref'],
            },
            back,
          ),
        );
      }
      const tail = content[content.length - 1];
      if (tail && tail.type === 'element' && tail.tagName === 'p') {
        const last = tail.children[tail.children.length - 1];
        if (last && last.type === 'text') last.value += ' ';
        else tail.children.push(text(' '));
        tail.children.push(...backReferences);
      } else {
        content.push(...backReferences);
      }
      return element('li', { id: `${CLOBBER}fn-${footnote.safeId}` }, wrap(content, true));
    });
    if (items.length === 0) return undefined;
    return element('section', { dataFootnotes: true, className: ['footnotes'] }, [
      element('h2', { className: ['sr-only'], id: 'footnote-label' }, [text(this.labels.label)]),
      EOL(),
      element('ol', {}, wrap(items, true)),
      EOL(),
    ]);
  }
}

/** mdast-util-to-hast's list item: tight lists unwrap paragraphs, line endings around the rest. */
function listItem(results: Element[], loose: boolean): Element {
  const children: ElementContent[] = [];
  results.forEach((child, index) => {
    const paragraph = child.tagName === 'p';
    if (loose || index !== 0 || !paragraph) children.push(EOL());
    if (paragraph && !loose) children.push(...child.children);
    else children.push(child);
  });
  const tail = results[results.length - 1];
  if (tail && (loose || tail.tagName !== 'p')) children.push(EOL());
  return element('li', {}, children);
}
