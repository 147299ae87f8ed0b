// A body's images are resolved when it is compiled for its page, so a build finds the ones
// missing when it renders. A build that other content errors stop renders nothing: it compiles
// here the bodies that may name an image, so that one run reports every problem.
import type { ResolvedConfig } from './config/resolve.js';
import type { Route } from './graph/model.js';
import { missingImageDiagnostics } from './render/context.js';
import { textReader } from './bodies.js';
import type { Diagnostic } from '../errors/diagnostic.js';

/** Markdown names an image with `![`, HTML with `<img`: a body with neither names none (the parser decides the rest). */
const MAY_NAME_AN_IMAGE = /!\[|<img/i;

/** The images the bodies of `routes` name that are not next to them, each body compiled once. */
export async function missingBodyImages(routes: readonly Route[], config: ResolvedConfig): Promise<Diagnostic[]> {
  const { MarkdownCompiler } = await import('../features/markdown/index.js');
  const compiler = new MarkdownCompiler(config.markdown);
  const withText = textReader(config);
  const seen = new Set<string>();
  const found: Diagnostic[] = [];
  for (const route of routes) {
    if (!route.markdown || seen.has(route.markdown.file)) continue;
    seen.add(route.markdown.file);
    try {
      const source = withText(route).markdown!;
      if (!MAY_NAME_AN_IMAGE.test(source.text)) continue;
      const { missingImages } = await compiler.compile(source.text, source.locale, source.folder, { path: source.file, cwd: config.root });
      found.push(...missingImageDiagnostics(source, missingImages));
    } catch {
      // A body over a limit, a plugin that fails, a file changed since: its render reports it.
    }
  }
  return found;
}
