// Source files, read only when a finding needs a line: where a link is written in an
// entry's body, which front-matter field holds it, which template rendered it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { normaliseText, readFrontMatter, type FrontMatter } from '../content/frontmatter.js';
import type { Route } from '../graph/model.js';
import { fieldLine } from '../content/field-line.js';

export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
  field?: string;
  excerpt?: string;
}

/** Line, column and text of `index` in `text`, the text's first line being file line `firstLine`. */
export function positionIn(text: string, index: number, firstLine: number): { line: number; column: number; excerpt: string } {
  const before = text.lastIndexOf('\n', index - 1);
  let line = firstLine;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  const end = text.indexOf('\n', index);
  return { line, column: index - before, excerpt: text.slice(before + 1, end === -1 ? undefined : end) };
}

/** The ways a URL is written in markdown or raw HTML, most specific first, with where the URL starts. */
function writtenForms(url: string): { form: string; offset: number }[] {
  const variants = new Set<string>([url]);
  try {
    variants.add(decodeURI(url));
  } catch {
    // not percent-encoded text
  }
  const out: { form: string; offset: number }[] = [];
  for (const u of variants) {
    for (const [before, after] of [['](', ''], ['](<', '>'], ['href="', '"'], ["href='", "'"], ['src="', '"'], ["src='", "'"], [']: ', ''], ['<', '>']] as const) {
      out.push({ form: `${before}${u}${after}`, offset: before.length });
    }
  }
  for (const u of variants) out.push({ form: u, offset: 0 });
  return out;
}

export class Sources {
  private readonly texts = new Map<string, string | null>();
  private readonly matters = new Map<string, FrontMatter | null>();

  constructor(readonly root: string) {}

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

  /** Where `url` is written in the route's markdown body, or null when it is not there. */
  inBody(route: Route, url: string): SourceLocation | null {
    const md = route.markdown;
    if (!md) return null;
    for (const { form, offset } of writtenForms(url)) {
      const at = md.text.indexOf(form);
      if (at !== -1) return { file: md.file, ...positionIn(md.text, at + offset, md.line) };
    }
    return null;
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
