// The site's own plugins (`markdown` in site.config.ts), each wrapped so that what it throws,
// when it is attached or when it runs on a body, names it: "markdown.rehypePlugins[1]
// (rehypeGlossary) failed: ...". Without this the error is a stack trace into the bundled
// configuration, which names neither the plugin nor the option that holds it.
import type { Pluggable, PluggableList, Plugin, Transformer } from 'unified';

/** A failure of one of the site's plugins: the option that holds it, its own message, and whether it failed when attached (on no body in particular) or on a body. */
export class MarkdownPluginError extends Error {
  constructor(
    readonly plugin: string,
    cause: unknown,
    readonly attaching = false,
  ) {
    super(`${plugin} failed${attaching ? ' when attached' : ''}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'MarkdownPluginError';
  }
}

/** `list` (a plugin or `[plugin, ...options]` each), every plugin guarded; `option` names the list. */
export function sitePlugins(list: PluggableList | undefined, option: string): PluggableList {
  return (list ?? []).map((entry, i) => {
    const [plugin, ...options] = Array.isArray(entry) ? entry : [entry];
    if (typeof plugin !== 'function') return entry; // the configuration's schema allows no other
    const name = plugin.name ? ` (${plugin.name})` : '';
    return [guarded(plugin as Plugin<unknown[]>, `${option}[${i}]${name}`), ...options] as Pluggable;
  });
}

function guarded(plugin: Plugin<unknown[]>, label: string): Plugin<unknown[]> {
  const fail = (error: unknown): never => {
    throw error instanceof MarkdownPluginError ? error : new MarkdownPluginError(label, error);
  };
  return function (this: ThisParameterType<Plugin<unknown[]>>, ...args: unknown[]) {
    let made: unknown;
    try {
      made = plugin.apply(this, args);
    } catch (error) {
      throw new MarkdownPluginError(label, error, true);
    }
    if (typeof made !== 'function') return made as undefined;
    const transformer = made as Transformer;
    // unified tells a transformer that takes a `next` callback by its arity: the wrapper keeps it.
    if (transformer.length >= 3) {
      return function (this: unknown, tree, file, next) {
        try {
          return transformer.call(this, tree, file, (error, ...rest) => (error ? next(new MarkdownPluginError(label, error)) : next(error, ...rest)));
        } catch (error) {
          return fail(error);
        }
      } as Transformer;
    }
    return function (this: unknown, tree, file) {
      try {
        const out = (transformer as (...a: unknown[]) => unknown).call(this, tree, file);
        return out instanceof Promise ? out.then(undefined, fail) : out;
      } catch (error) {
        return fail(error);
      }
    } as Transformer;
  };
}
