// A body's images are resolved when it is compiled for its page, so a build finds the ones
// missing when it renders. A build that other content errors stop renders nothing: it compiles
// here the bodies that may name an image, so that one run reports every problem.
import type { ResolvedConfig } from './config/resolve.js';
import type { Route } from './graph/model.js';
import { missingImageDiagnostics } from './render/context.js';
import { textReader } from './bodies.js';
import type { Diagnostic } from '../errors/diagnostic.js';
import type { MarkdownCompiler, MissingImage } from '../features/markdown/index.js';

/** Markdown names an image with `![`, HTML with `<img`: a body with neither names none (the parser decides the rest). */
const MAY_NAME_AN_IMAGE = /!\[|<img/i;

/** What a body names that is not next to it, by its text, language and the names next to it: `dev` asks again on every edit while an error stands. */
const found = new Map<string, readonly MissingImage[]>();
const compilers = new WeakMap<ResolvedConfig['markdown'], MarkdownCompiler>();

/** The images the bodies of `routes` name that are not next to them, each body compiled once. */
export async function missingBodyImages(routes: readonly Route[], config: ResolvedConfig): Promise<Diagnostic[]> {
  const { MarkdownCompiler } = await import('../features/markdown/index.js');
  let compiler = compilers.get(config.markdown);
  if (!compiler) compilers.set(config.markdown, (compiler = new MarkdownCompiler(config.markdown)));
  const withText = textReader(config);
  const seen = new Set<string>();
  const problems: Diagnostic[] = [];
  for (const route of routes) {
    if (!route.markdown || seen.has(route.markdown.file)) continue;
    seen.add(route.markdown.file);
    try {
      const source = withText(route).markdown!;
      if (!MAY_NAME_AN_IMAGE.test(source.text)) continue;
      const key = [source.digest, source.locale, ...Object.keys(source.folder)].join('\0');
      let missing = found.get(key);
      if (!missing) found.set(key, (missing = (await compiler.compile(source.text, source.locale, source.folder, { path: source.file, cwd: config.root })).missingImages));
      problems.push(...missingImageDiagnostics(source, missing));
    } catch {
      // A body over a limit, a plugin that fails, a file changed since: its render reports it.
    }
  }
  return problems;
}
