// Entries that cannot both be published: one slug twice in a language, or two entries
// claiming one path. Pure.
import type { ArticleEntry } from '../content/entries.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import type { Route } from './model.js';

export function duplicateSlugs(articles: ArticleEntry[]): Diagnostic[] {
  const seen = new Map<string, ArticleEntry>();
  const out: Diagnostic[] = [];
  for (const a of articles) {
    const id = `${a.locale}\0${a.fm.slug}`;
    const first = seen.get(id);
    if (!first) {
      seen.set(id, a);
      continue;
    }
    out.push(
      diagnostic('graph/duplicate-slug', {
        file: a.file,
        line: a.fieldLines['slug'],
        field: 'slug',
        message: `the slug "${a.fm.slug}" is already used by ${first.file} (line ${first.fieldLines['slug'] ?? '?'}) in the same language`,
      }),
    );
  }
  return out;
}

/** Keeps the first route of each path and reports the others (naming both sources). */
export function pathConflicts(routes: Route[]): { routes: Route[]; diagnostics: Diagnostic[] } {
  const byPath = new Map<string, Route>();
  const diagnostics: Diagnostic[] = [];
  for (const r of routes) {
    const first = byPath.get(r.path);
    if (!first) {
      byPath.set(r.path, r);
      continue;
    }
    // One slug used twice is reported once, by duplicateSlugs.
    const sameSlug = first.data.template === 'article' && r.data.template === 'article' && first.data.slug === r.data.slug;
    if (!sameSlug) {
      // Point at the entry whose front matter decided the path, where one did.
      const [at, other] = r.pathLine === undefined && first.pathLine !== undefined ? [first, r] : [r, first];
      diagnostics.push(
        diagnostic('graph/path-conflict', {
          file: at.file ?? other.file ?? 'content',
          line: at.pathLine,
          field: at.pathField,
          message: `two entries claim the path ${r.path}: ${at.file ?? `a generated ${at.template} page`} and ${other.file ?? `a generated ${other.template} page`}`,
        }),
      );
    }
  }
  return { routes: [...byPath.values()], diagnostics };
}
