// A YAML parse error in words an editor can act on. The `yaml` parser says where it gave up
// ("Nested mappings are not allowed in compact mappings", one line early when a field is
// indented too far); this reads the text around that place to find the line that is wrong,
// and says what the usual mistake there is: an unquoted colon, a tab, a field or list item
// at the wrong depth, a quote or bracket never closed, a field written twice.
import { YAMLParseError } from 'yaml';

export interface YamlProblem {
  /** 1-based, in the text given. */
  line: number;
  column?: number;
  /** The top-level field the problem is in, where the parser could not place it (a tab-indented key). */
  field?: string;
  message: string;
  hint?: string;
}

const indentOf = (line: string) => /^ */.exec(line)![0].length;
const isBlank = (line: string) => /^\s*(#.*)?$/.test(line);
/** `key:` (or `- key:`) at the start of a line: the key and the column its value starts after. */
const FIELD = /^(\s*(?:-\s+)?)(?:"[^"]*"|'[^']*'|[^\s:#'"[\]{}-][^:#]*?)\s*:(?=\s|$)/;

/** The key of a FIELD match, without its indentation, list dash, colon or quotes. */
const keyOf = (field: RegExpExecArray) =>
  field[0]
    .slice(field[1]!.length)
    .replace(/\s*:$/, '')
    .trim()
    .replace(/^["']|["']$/g, '');

/**
 * The key of the tab-indented line `at` (1-based) when it can only be a top-level field that
 * the tab pushed in: the line above is a top-level field with its value (or there is none).
 */
function tabbedTopField(lines: string[], at: number): string | undefined {
  const own = FIELD.exec((lines[at - 1] ?? '').replace(/^[ \t]+/, ''));
  if (!own || own[1] !== '') return undefined;
  const above = lineAbove(lines, at - 1);
  if (above === null) return keyOf(own);
  const previous = FIELD.exec(lines[above]!);
  return previous && previous[1] === '' && !isBlank(lines[above]!.slice(previous[0].length)) ? keyOf(own) : undefined;
}

/** The first `: ` (or a trailing `:`) in an unquoted value: what YAML reads as another field. */
function colonInValue(line: string): { key: string; value: string; at: number } | null {
  const field = FIELD.exec(line);
  if (!field) return null;
  const valueStart = field[0].length;
  const rest = line.slice(valueStart);
  const value = rest.trim();
  if (value === '' || /^["'[{|>&*!#]/.test(value)) return null;
  const m = /:(\s|$)/.exec(rest);
  if (!m) return null;
  return { key: keyOf(field), value: value.replace(/\s+#.*$/, ''), at: valueStart + m.index + 1 };
}

/** The line where a `"` or `'` value opens and is not closed, at or before `before`. */
function unclosedQuote(lines: string[], quote: string, before: number): { line: number; column: number } | null {
  for (let i = Math.min(before, lines.length) - 1; i >= 0; i--) {
    const line = lines[i]!;
    const open = new RegExp(`(?:^|:\\s+|-\\s+|[\\[{,]\\s*)${quote}`).exec(line);
    if (!open) continue;
    const from = open.index + open[0].length;
    const body = line.slice(from);
    const closed = quote === '"' ? /(^|[^\\])(\\\\)*"/.test(body) : /'/.test(body.replace(/''/g, ''));
    if (!closed) return { line: i + 1, column: from };
  }
  return null;
}

/** The line where a `[` or `{` opens and is not closed on that line, at or before `before`. */
function unclosedBracket(lines: string[], open: string, close: string, before: number): { line: number; column: number } | null {
  for (let i = Math.min(before, lines.length) - 1; i >= 0; i--) {
    const line = lines[i]!;
    const at = line.indexOf(open);
    if (at === -1) continue;
    const depth = [...line.slice(at)].reduce((d, c) => d + (c === open ? 1 : c === close ? -1 : 0), 0);
    if (depth > 0) return { line: i + 1, column: at + 1 };
  }
  return null;
}

/** The nearest line above `index` (0-based) that is not blank or a comment. */
function lineAbove(lines: string[], index: number): number | null {
  for (let i = index - 1; i >= 0; i--) if (!isBlank(lines[i]!)) return i;
  return null;
}

/** `Nested mappings are not allowed in compact mappings`: a colon in a value, or the next field indented too far. */
function nestedMapping(lines: string[], line: number): YamlProblem | null {
  const text = lines[line - 1] ?? '';
  const colon = colonInValue(text);
  if (colon) {
    const field = FIELD.exec(text)!;
    return {
      line,
      column: colon.at,
      message: `the value of "${colon.key}" has a colon followed by a space, which YAML reads as the start of another field`,
      hint: `put the value in quotes: ${field[0].trim()} "${colon.value.replace(/"/g, '\\"')}"`,
    };
  }
  // The value ran on to a later line, which is indented deeper than this field: that line is the mistake.
  const own = indentOf(text.replace(/^(\s*)-\s+/, (_, s: string) => `${s}  `));
  for (let i = line; i < lines.length; i++) {
    const next = lines[i]!;
    if (isBlank(next)) continue;
    if (indentOf(next) <= own) break;
    if (FIELD.test(next)) {
      const key = FIELD.exec(next)![0].trim().replace(/:$/, '');
      const ownKey = FIELD.exec(text)?.[0].replace(/^\s*(-\s+)?/, '').replace(/\s*:$/, '');
      return {
        line: i + 1,
        column: indentOf(next) + 1,
        message: `"${key}" is indented further (${indentOf(next)} spaces) than the field above it${ownKey ? ` ("${ownKey}", ${own})` : ''}`,
        hint: `line it up with the field above: ${own} spaces before "${key}:" (or, if it belongs inside that field, give that field no value on its own line)`,
      };
    }
  }
  return null;
}

/** A list item (`- `) or field that does not line up with the ones before it. */
function misaligned(lines: string[], line: number, code: string, parserMessage: string): YamlProblem {
  const text = lines[line - 1] ?? '';
  const indent = indentOf(text);
  const above = lineAbove(lines, line - 1);
  const isItem = /^\s*-(\s|$)/.test(text);
  if (isItem) {
    // The items of one list start at one column: the nearest item above shows it.
    let sibling: number | null = null;
    for (let i = line - 2; i >= 0; i--) {
      if (/^\s*-(\s|$)/.test(lines[i]!)) {
        sibling = i;
        break;
      }
      if (!isBlank(lines[i]!) && indentOf(lines[i]!) < indent && !/^\s*-/.test(lines[i]!)) break;
    }
    const want = sibling === null ? null : indentOf(lines[sibling]!);
    return {
      line,
      column: indent + 1,
      message: `this list item is at the wrong depth: it starts after ${indent} space${indent === 1 ? '' : 's'}${want === null ? '' : `, the item on line ${sibling! + 1} after ${want}`}`,
      hint: want === null ? 'start every "- " of one list at the same column, indented under its field' : `start it after ${want} spaces, like the items above it`,
    };
  }
  const aboveText = above === null ? '' : lines[above]!;
  const inItem = code === 'MISSING_CHAR' && /without - indicator/.test(parserMessage);
  const want = inItem && above !== null ? indentOf(aboveText.replace(/^(\s*)-\s+/, (_, s: string) => `${s}  `)) : above === null ? 0 : indentOf(aboveText);
  return {
    line,
    column: indent + 1,
    message: `this line is not lined up with the field${inItem ? 's of the list item' : ''} above it: it starts after ${indent} space${indent === 1 ? '' : 's'}, the line above after ${want}`,
    hint: `fields of one mapping start at the same column: indent it by ${want} spaces`,
  };
}

const PLAIN: Record<string, string> = {
  BAD_DQ_ESCAPE: 'a backslash in a double-quoted value starts an escape that YAML does not know',
  BAD_SCALAR_START: 'a value starts with a character YAML reserves (@, `, %)',
  MULTIPLE_DOCS: 'the text holds more than one YAML document (a line with only --- or ...)',
  MULTILINE_IMPLICIT_KEY: 'a field name runs over more than one line',
  UNEXPECTED_TOKEN: 'YAML found a character it did not expect here',
  MULTIPLE_ANCHORS: 'a value has two anchors (&name)',
  BAD_ALIAS: 'an alias (*name) refers to an anchor that is not defined',
  TAG_RESOLVE_FAILED: 'a tag (!!name or !name) that YAML does not know: content may not ask for types or code',
  BAD_DIRECTIVE: 'a directive (a line starting with %) that YAML does not know',
  BAD_COLLECTION_TYPE: 'a tag that does not fit the value it is on (a list tag on a mapping, or the reverse)',
};
const PLAIN_HINTS: Record<string, string> = {
  BAD_DQ_ESCAPE: 'write \\\\ for a backslash, or use single quotes',
  BAD_SCALAR_START: 'put the value in quotes',
  MULTIPLE_DOCS: 'remove the extra --- line (front matter ends at the second ---)',
  UNEXPECTED_TOKEN: 'put the value in quotes if it is text',
  TAG_RESOLVE_FAILED: 'remove the tag; put the value in quotes if it is text',
  BAD_DIRECTIVE: 'remove the line, or put the value in quotes',
  BAD_COLLECTION_TYPE: 'remove the tag',
};

/** Explains an error `yaml` threw on `text`; null for anything else. */
export function explainYamlError(text: string, error: unknown): YamlProblem | null {
  if (!(error instanceof YAMLParseError)) return null;
  const lines = text.split('\n');
  const pos = error.linePos?.[0];
  const line = pos?.line ?? 1;
  const parserMessage = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const here = (problem: Omit<YamlProblem, 'line'>): YamlProblem => ({ line, column: pos?.col, ...problem });
  switch (error.code) {
    case 'TAB_AS_INDENT': {
      const tabLine = lines.findIndex((l, i) => i >= line - 1 && /^ *\t/.test(l));
      const at = tabLine === -1 ? line : tabLine + 1;
      const field = tabbedTopField(lines, at);
      return {
        line: at,
        column: (lines[at - 1] ?? '').indexOf('\t') + 1,
        ...(field !== undefined && { field }),
        message: 'this line is indented with a tab; YAML allows only spaces',
        hint: 'replace the tab with spaces (2 per level, like the lines around it)',
      };
    }
    case 'MISSING_CHAR': {
      const quote = /closing ("|')/.exec(parserMessage)?.[1];
      if (quote) {
        const open = unclosedQuote(lines, quote, line);
        const name = quote === '"' ? 'double' : 'single';
        return {
          ...(open ?? { line, column: pos?.col }),
          message: `the ${name} quote that opens this value is never closed`,
          hint: `end the value with ${quote} on the same line${quote === "'" ? " (an apostrophe inside single quotes is written '')" : ' (a quote inside double quotes is written \\")'}`,
        };
      }
      if (/without - indicator/.test(parserMessage)) return misaligned(lines, line, error.code, parserMessage);
      return here({ message: `something is missing here: ${parserMessage}` });
    }
    case 'BLOCK_AS_IMPLICIT_KEY':
      if (/block sequence/i.test(parserMessage)) return misaligned(lines, line, error.code, parserMessage);
      return nestedMapping(lines, line) ?? here({ message: 'a value here reads as another field (a colon followed by a space?)', hint: 'put the value in quotes' });
    case 'BAD_INDENT': {
      for (const [open, close, name, example] of [['[', ']', 'list', 'sections: [insights, news]'], ['{', '}', 'mapping', 'video: { provider: youtube, id: abc }']] as const) {
        if (!parserMessage.includes(`end with a ${close}`)) continue;
        const at = unclosedBracket(lines, open, close, line);
        return { ...(at ?? { line, column: pos?.col }), message: `the ${open} that opens this ${name} is never closed`, hint: `end the ${name} with ${close} on the same line, e.g. ${example}` };
      }
      return misaligned(lines, line, error.code, parserMessage);
    }
    case 'DUPLICATE_KEY': {
      const twice = FIELD.exec(lines[line - 1] ?? '');
      const key = twice ? keyOf(twice) : undefined;
      // Where the parser found the first of the two (frontmatter.ts parseYamlText), when it says.
      const first = (error as { firstLine?: number }).firstLine;
      return here({
        message: `the field "${key ?? '?'}" is written twice${first === undefined ? '' : ` (first on line ${first})`}`,
        hint: 'keep one of the two',
      });
    }
    default: {
      const message = error.code in PLAIN ? PLAIN[error.code]! : `YAML cannot read this: ${parserMessage}`;
      return here({ message, hint: PLAIN_HINTS[error.code] });
    }
  }
}
