// Markdown -> sanitised hast -> React-ready JSON (to-react-tree.ts) that travels in page data
// and is rendered with createElement by the templates, on the server and in the browser
// alike: never through innerHTML. One unified pipeline of ordinary plugins:
//
//   remark-parse, remark-gfm, the depth limit        markdown -> mdast
//   the site's remark plugins
//   remark-rehype (footnote labels per language)      mdast -> hast
//   rehype-raw (only for bodies with raw HTML), the depth limit again
//   rehype-sanitize (GitHub's schema, plus tel: links)
//   content ids, heading ids, heading levels          (content-ids.ts, heading-ids.ts, demote-headings.ts)
//   French typography (fr), then the site's rehype plugins
//
// A compiler builds each language's processor once and reuses it for every body (each render
// thread has its own compiler).
import type { Root } from 'hast';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type PluggableList, type Processor } from 'unified';
import { VFile } from 'vfile';
import type { MarkdownTree } from '../../shared/types.js';
import { rehypeContentIds } from './content-ids.js';
import { rehypeDemoteHeadings } from './demote-headings.js';
import { sitePlugins } from './site-plugins.js';
import { rehypeFrenchTypography } from './french-typography.js';
import { rehypeHeadingIds } from './heading-ids.js';
import { checkMarkdownText, MarkdownLimitError, rehypeDepthLimit, remarkDepthLimit } from './limits.js';
import { rawHtmlWhenPresent } from './raw-html.js';
import { toReactTree, type BodyFolder, type MissingImage } from './to-react-tree.js';
import { languageOf } from '../../shared/language.js';

export { MarkdownLimitError, MARKDOWN_LIMITS } from './limits.js';
export { MarkdownPluginError } from './site-plugins.js';
export { typesetFrench } from './french-typography.js';
export type { BodyFolder, MissingImage } from './to-react-tree.js';

/** The site's plugins (`markdown` in site.config.ts), each a plugin or `[plugin, options]`. */
export interface MarkdownOptions {
  remarkPlugins?: PluggableList;
  rehypePlugins?: PluggableList;
  /** French typography in French bodies (default true). */
  frenchTypography?: boolean;
}

/**
 * What a plugin said about a body: a warning (`file.message()`) or an error (a message marked
 * `fatal`, as remark-lint marks its error-level rules; `file.fail()` throws instead). Its line
 * and column in the body (1 = the body's first line), and its text with the plugin's source and
 * rule id. `file.info()` notes are not kept.
 */
export interface BodyMessage {
  line?: number;
  column?: number;
  text: string;
  fatal?: true;
}

/** A body compiled: the React-ready tree its page carries, and what the plugins said about it. */
export interface CompiledBody {
  tree: MarkdownTree;
  messages: BodyMessage[];
  /** Relative image addresses that name no file next to the body. */
  missingImages: MissingImage[];
}

/** Where a body comes from: its file's path (relative to `cwd`), and the site's folder. */
export interface BodyFile {
  path: string;
  cwd: string;
}

interface FootnoteLabels {
  footnoteLabel: string;
  footnoteBackLabel: (referenceIndex: number, rereferenceIndex: number) => string;
}

const FOOTNOTES: Record<string, FootnoteLabels> = {
  en: { footnoteLabel: 'Notes', footnoteBackLabel: (i, j) => `Back to reference ${i + 1}${j > 1 ? `-${j}` : ''}` },
  fr: { footnoteLabel: 'Notes', footnoteBackLabel: (i, j) => `Retour à l’appel de note ${i + 1}${j > 1 ? `-${j}` : ''}` },
};

/**
 * GitHub's sanitising schema, with `tel:` links, and the `user-content-` prefix left to
 * content-ids.ts: remark-rehype already prefixes footnote ids, and a second prefix breaks their links.
 */
const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  clobberPrefix: '',
  // Phone numbers are links on an investor-relations site.
  protocols: { ...defaultSchema.protocols, href: [...(defaultSchema.protocols?.href ?? []), 'tel'] },
  // A raw <img>'s layout (docs/images.md): read when the tree is made, not rendered.
  attributes: { ...defaultSchema.attributes, img: [...(defaultSchema.attributes?.img ?? []), 'dataLayout'] },
};

type MarkdownProcessor = Processor<any, any, any, any, any>;

function createProcessor(locale: string, options: MarkdownOptions): MarkdownProcessor {
  const language = languageOf(locale);
  const french = language === 'fr' && options.frenchTypography !== false;
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkDepthLimit)
    .use(sitePlugins(options.remarkPlugins, 'markdown.remarkPlugins'))
    .use(remarkRehype, { allowDangerousHtml: true, ...(FOOTNOTES[language] ?? FOOTNOTES.en) })
    .use(rawHtmlWhenPresent)
    .use(rehypeDepthLimit)
    .use(rehypeSanitize, SCHEMA)
    .use(rehypeContentIds)
    .use(rehypeHeadingIds)
    .use(rehypeDemoteHeadings)
    .use(french ? [rehypeFrenchTypography] : [])
    .use(sitePlugins(options.rehypePlugins, 'markdown.rehypePlugins'))
    .freeze();
}

/** Compiles bodies; one per thread, its processors made on first use per language. */
export class MarkdownCompiler {
  /** Each language's processor, or why it could not be made (a plugin that throws when attached): every body gets that error, and the plugin is not attached again. */
  private readonly processors = new Map<string, MarkdownProcessor | { failed: unknown }>();

  constructor(private readonly options: MarkdownOptions = {}) {}

  private processor(locale: string): MarkdownProcessor {
    let made = this.processors.get(locale);
    if (!made) {
      try {
        made = createProcessor(locale, this.options);
      } catch (failed) {
        made = { failed };
      }
      this.processors.set(locale, made);
    }
    if ('failed' in made) throw made.failed;
    return made;
  }

  /**
   * A body to its sanitised hast tree. Throws MarkdownLimitError for a body over a limit
   * (limits.ts), and MarkdownPluginError when one of the site's plugins failed (site-plugins.ts).
   */
  async toHast(markdown: string, locale: string, file?: BodyFile): Promise<Root> {
    return (await this.run(markdown, locale, file)).hast;
  }

  /** A body to the React-ready tree pages carry (`folder`: the files next to it, its relative images resolved there), with the messages the plugins added to the body's file, and the images `folder` lacks. */
  async compile(markdown: string, locale: string, folder: BodyFolder, file: BodyFile): Promise<CompiledBody> {
    const { hast, vfile } = await this.run(markdown, locale, file);
    const { tree, missing } = toReactTree(hast, folder);
    return { tree, messages: vfile.messages.flatMap(bodyMessage), missingImages: missing };
  }

  private async run(markdown: string, locale: string, file?: BodyFile): Promise<{ hast: Root; vfile: VFile }> {
    checkMarkdownText(markdown);
    try {
      const processor = this.processor(locale);
      // The plugins see the body as a file: its text, its path in the site, the site's folder.
      const vfile = new VFile(file ? { value: markdown, path: file.path, cwd: file.cwd } : { value: markdown });
      return { hast: (await processor.run(processor.parse(vfile), vfile)) as Root, vfile };
    } catch (error) {
      // The limits keep nesting far below the stack's depth; this is the last guard.
      if (error instanceof RangeError) {
        throw new MarkdownLimitError('the body nests too deeply to be read', 1, 'flatten the nesting of quotes, lists, emphasis, links or HTML elements');
      }
      throw error;
    }
  }
}

/** A plugin's message as kept: warnings and errors (`fatal`), with the plugin's names for it; `file.info()` notes dropped. */
function bodyMessage(message: VFile['messages'][number]): BodyMessage[] {
  if (message.fatal === undefined || message.fatal === null) return [];
  const by = [message.source, message.ruleId].filter(Boolean).join(':');
  const kept: BodyMessage = { text: by ? `${message.reason} (${by})` : message.reason };
  if (message.line != null) kept.line = message.line;
  if (message.column != null) kept.column = message.column;
  if (message.fatal) kept.fatal = true;
  return [kept];
}
