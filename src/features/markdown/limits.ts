// Limits on a body's structure, so that hostile or broken content gets a clear error with its
// line in bounded time and memory, instead of a stack overflow or a parse that runs for
// minutes (docs/content.md "Limits"). Markdown parsers and the tree walkers after them recurse
// once per level of nesting, and micromark re-checks every open container on every line, so
// nesting is what must be bounded; a scan of the text finds it before any parser runs, and a
// walk of the parsed tree (iterative, no recursion) checks the result.

export const MARKDOWN_LIMITS = {
  /** A body's size in bytes (UTF-8). */
  bodyBytes: 1024 * 1024,
  /** Block containers (quotes and list items) inside one another, as the lines' markers and indentation show them. */
  blockNesting: 32,
  /** Raw HTML elements inside one another. */
  htmlNesting: 32,
  /** Emphasis, strikethrough and link brackets (`*`, `_`, `~`, `[`) in one paragraph. */
  inlineMarkers: 2000,
  /** Elements inside one another in the compiled body. */
  treeDepth: 100,
} as const;

/** A body over one of the limits; `line` is 1-based within the body. */
export class MarkdownLimitError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'MarkdownLimitError';
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// Elements that take no end tag, or whose end tag HTML lets a writer leave out: they never nest.
const VOID_OR_OPTIONAL = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'colgroup', 'rb', 'rt', 'rp', 'rtc', 'caption',
]);
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)\b[^<>]*?(\/?)>/g;

/** Columns of leading whitespace (a tab to the next multiple of 4), and the rest of the line. */
function indentOf(line: string): { columns: number; rest: number } {
  let columns = 0;
  let i = 0;
  for (; i < line.length; i++) {
    const c = line[i];
    if (c === ' ') columns += 1;
    else if (c === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return { columns, rest: i };
}

/** Quote and list markers at the start of a line, with the indentation before each. */
function containerDepth(line: string): number {
  let depth = 0;
  let i = 0;
  let columns = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') {
      columns += line[i] === '\t' ? 4 - (columns % 4) : 1;
      i++;
    }
    const c = line[i];
    if (c === '>') {
      depth++;
      i++;
      columns++;
      continue;
    }
    const list = /^(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)/.exec(line.slice(i, i + 11));
    if (list) {
      depth++;
      i += list[0].length;
      columns += list[0].length;
      continue;
    }
    break;
  }
  // Each level of a nested list needs at least two more columns than the last.
  return depth + Math.floor(indentOf(line).columns / 2);
}

/** Throws MarkdownLimitError for the first limit the text goes over. Linear in its length. */
export function checkMarkdownText(markdown: string): void {
  const bytes = Buffer.byteLength(markdown, 'utf8');
  if (bytes > MARKDOWN_LIMITS.bodyBytes) {
    throw new MarkdownLimitError(
      `the body is ${(bytes / 1024 / 1024).toFixed(1)} MiB; the limit is ${MARKDOWN_LIMITS.bodyBytes / 1024 / 1024} MiB`,
      1,
      'split it into several entries, or publish the text as a document (documents: in the front matter)',
    );
  }
  const lines = markdown.split('\n');
  let fence: string | null = null;
  let markers = 0;
  let paragraphStart = 0;
  let htmlDepth = 0;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const trimmed = line.slice(indentOf(line).rest);
    const opening = FENCE.exec(trimmed);
    if (fence !== null) {
      if (opening && opening[1]![0] === fence[0] && opening[1]!.length >= fence.length && trimmed.slice(opening[1]!.length).trim() === '') fence = null;
      continue;
    }
    if (opening) {
      fence = opening[1]!;
      continue;
    }
    const depth = containerDepth(line);
    if (depth > MARKDOWN_LIMITS.blockNesting) {
      throw new MarkdownLimitError(
        `this line is nested ${depth} levels deep (each quote marker, list item and 2 columns of indentation count one); the limit is ${MARKDOWN_LIMITS.blockNesting}`,
        n + 1,
        'flatten the quotes or lists; put deeply indented code in a fenced code block (```)',
      );
    }
    if (trimmed === '') {
      markers = 0;
      paragraphStart = n + 1;
      continue;
    }
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      // * _ ~ [
      if (c === 42 || c === 95 || c === 126 || c === 91) markers++;
    }
    if (markers > MARKDOWN_LIMITS.inlineMarkers) {
      throw new MarkdownLimitError(
        `this paragraph holds more than ${MARKDOWN_LIMITS.inlineMarkers} emphasis, strikethrough and link markers (* _ ~ [)`,
        paragraphStart + 1,
        'split the paragraph; write a literal * or _ as \\* or \\_',
      );
    }
    if (line.includes('<')) {
      for (const [, close, name, selfClosing] of line.matchAll(TAG)) {
        if (VOID_OR_OPTIONAL.has(name!.toLowerCase()) || selfClosing) continue;
        htmlDepth = close ? Math.max(0, htmlDepth - 1) : htmlDepth + 1;
        if (htmlDepth > MARKDOWN_LIMITS.htmlNesting) {
          throw new MarkdownLimitError(
            `HTML elements are nested more than ${MARKDOWN_LIMITS.htmlNesting} deep here`,
            n + 1,
            'close the elements you open, and nest fewer of them',
          );
        }
      }
    }
  }
}

interface Positioned {
  children?: Positioned[];
  position?: { start?: { line?: number } };
}

/** Throws MarkdownLimitError when a parsed tree (mdast or hast) is deeper than the limit. No recursion. */
export function checkTreeDepth(tree: Positioned): void {
  const stack: Array<[Positioned, number]> = [[tree, 0]];
  let lastLine = 1;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    lastLine = node.position?.start?.line ?? lastLine;
    if (depth > MARKDOWN_LIMITS.treeDepth) {
      throw new MarkdownLimitError(
        `the body nests elements more than ${MARKDOWN_LIMITS.treeDepth} deep here`,
        lastLine,
        'flatten the nesting of quotes, lists, emphasis, links or HTML elements',
      );
    }
    for (const child of node.children ?? []) stack.push([child, depth + 1]);
  }
}

/** remark plugin: the parsed body within the depth limit, before anything walks it recursively. */
export function remarkDepthLimit() {
  return checkTreeDepth;
}

/**
 * rehype plugin: the same after raw HTML is parsed, before the sanitiser walks the tree. A
 * function of its own: unified attaches a plugin once, however often it is used.
 */
export function rehypeDepthLimit() {
  return checkTreeDepth;
}
