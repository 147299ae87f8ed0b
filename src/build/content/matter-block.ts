// The front matter block of an entry file, as gray-matter finds it, and the entry made of it
// once its YAML is parsed (frontmatter.ts). Apart so that a build that knows a block's YAML by
// its digest (a body edit: incremental/front-matter-cache.ts) never loads the YAML parser.
import matter from 'gray-matter';
import { digestOf } from '../../files/digest.js';
import type { FileTimes } from '../../files/file-times.js';
import type { Diagnostic } from '../../errors/diagnostic.js';

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of the first body line in the file. */
  bodyLine: number;
  /** 1-based file line of each front-matter key and list item, by path (field-line.ts pathKey). */
  fieldLines: Record<string, number>;
  /** Digest of `body`: page keys use it. */
  bodyDigest: string;
  /**
   * Digest of the text before the body (front matter and its delimiters): all the later stages
   * read of a file but its body (incremental/keys.ts, graphKey).
   */
  matterDigest: string;
}

/**
 * Front matter the build cache knows without reading the file, with its body's digest and image
 * references; the body starts at `bodyOffset` in the file's normalised text (readEntryBody).
 */
export type RecalledFrontMatter = Omit<FrontMatter, 'body'> & { bodyOffset: number };

/** A file as a stat saw it (files/file-times.ts). */
export interface SourceFile extends FileTimes {
  path: string;
}

/** A front-matter problem where it is in the file; its hint only when the rule's (fix the YAML) is not the way out. */
export type FrontMatterError = Pick<Diagnostic, 'column' | 'field' | 'message' | 'excerpt' | 'hint'> & { line: number };

/** A YAML text's value, and the line of each key and list item in it by path (field-line.ts pathKey). */
export interface ParsedYaml {
  data: unknown;
  lines: Record<string, number>;
}

/** An entry file's text (normalised) cut where gray-matter cuts it. */
export interface MatterBlock {
  /** The YAML between the delimiters, as gray-matter hands it to its engine (its line N is the file's); null when there is none, or only comments. */
  yaml: string | null;
  /** Everything after the front matter. */
  body: string;
  /** Digest of the text before the body: a file with the same one has the same front matter. */
  matterDigest: string;
}

class FrontMatterSyntax extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const refuse = (lang: string) => () => {
  throw new FrontMatterSyntax(`front matter in "${lang}" is not allowed: content may not run code; use YAML`, 1);
};

const refuseCode = {
  javascript: { parse: refuse('javascript'), stringify: () => '' },
  js: { parse: refuse('js'), stringify: () => '' },
  coffee: { parse: refuse('coffee'), stringify: () => '' },
  coffeescript: { parse: refuse('coffeescript'), stringify: () => '' },
};

/** gray-matter on `text` (normalised), every code-running engine refused; its YAML engine only keeps the text, which frontMatterOf parses. */
export function matterBlock(text: string): MatterBlock | FrontMatterError {
  let yaml: string | null = null;
  const keep = { parse: (s: string) => ((yaml = s), {}), stringify: () => '' };
  const otherLanguage = (language: string) => ({ line: 1, message: `front matter in "${language}" cannot be read: ir-site reads YAML only`, hint: 'start the file with --- alone on its line and write the front matter in YAML' });
  let file: { content: string; language?: string };
  try {
    file = matter(text, { language: 'yaml', engines: { yaml: keep, ...refuseCode } } as unknown as Parameters<typeof matter>[1]) as typeof file;
  } catch (error) {
    if (error instanceof FrontMatterSyntax) return { line: error.line, message: error.message, hint: 'start the file with --- and write the front matter in YAML' };
    // `---toml`: gray-matter has no such engine.
    const language = /^---[ \t]*([^\s-][^\s]*)/.exec(text)?.[1];
    if (language) return otherLanguage(language);
    return { line: 1, message: `unreadable front matter: ${(error as Error).message}` };
  }
  // `---json` (gray-matter's own engine), or a name every object has (`---constructor`): another engine read it, not our YAML one.
  if (file.language !== undefined && file.language !== 'yaml' && file.language !== 'yml') return otherLanguage(file.language);
  const body = file.content;
  return { yaml, body, matterDigest: digestOf(text.slice(0, text.length - body.length)) };
}

/** The entry of a file cut into `block`, given what its YAML parsed to (or the problem found in it). */
export function frontMatterOf(text: string, block: MatterBlock, yaml: ParsedYaml | FrontMatterError): FrontMatter | FrontMatterError {
  if ('message' in yaml) return yaml;
  const data = block.yaml === null ? {} : (yaml.data ?? {});
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { line: 2, message: 'front matter must be a YAML mapping of fields (`title: ...`)', hint: 'write one field: value per line, e.g. title: "Quarterly commentary"' };
  }
  const bodyOffset = text.length - block.body.length;
  return {
    data: data as Record<string, unknown>,
    body: block.body,
    bodyLine: text.slice(0, bodyOffset).split('\n').length,
    fieldLines: text.startsWith('---') && block.yaml !== null ? yaml.lines : {},
    bodyDigest: digestOf(block.body),
    matterDigest: block.matterDigest,
  };
}
