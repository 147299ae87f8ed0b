// Entries that cannot both be published: one slug twice in a language, or two entries
// claiming one path. Pure.
import type { ArticleEntry } from '../content/entries.js';
import { diagnostic, type Diagnostic } from '../../errors/diagnostic.js';
import type { Route } from './model.js';
import { htmlFileFor, pageDataUrl } from '../../shared/paths.js';

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

/** Where a route's two files go: paths that differ may still name one file (`/` and `/index/` one record, `/` and `/index.html` one page). */
const filesOf = (r: Route) => [htmlFileFor(r.path), pageDataUrl(r.path)];

/** 0 for `/`, 2 for a path that names an index file or folder (`/index/`, `/a/index.html`), 1 for any other. */
const indirectness = (p: string) => (p === '/' ? 0 : /(^|\/)index(\.html|\/)$/.test(p) ? 2 : 1);

/** The two routes of a conflict, the one whose front matter decided its path first (the report points at it). */
const decidedFirst = (r: Route, first: Route): [Route, Route] => (r.pathLine === undefined && first.pathLine !== undefined ? [first, r] : [r, first]);

/** Keeps the first route of each output file (a path names two), and reports the others (naming both sources). */
export function pathConflicts(routes: Route[]): { routes: Route[]; diagnostics: Diagnostic[] } {
  const byFile = new Map<string, Route>();
  const kept = new Set<Route>();
  const diagnostics: Diagnostic[] = [];
  const name = (x: Route) => x.file ?? `a generated ${x.template} page`;
  const report = (at: Route, other: Route, what: string) =>
    diagnostics.push(diagnostic('graph/path-conflict', { file: at.file ?? other.file ?? 'content', line: at.pathLine, field: at.pathField, message: `two entries claim ${what}: ${name(at)} and ${name(other)}` }));
  for (const r of routes) {
    const file = filesOf(r).find((f) => byFile.has(f));
    const first = file === undefined ? undefined : byFile.get(file)!;
    if (first?.path === r.path) {
      // One slug used twice is reported once, by duplicateSlugs.
      const sameSlug = first.data.template === 'article' && r.data.template === 'article' && first.data.slug === r.data.slug;
      if (!sameSlug) report(...decidedFirst(r, first), `the path ${r.path}`);
      continue;
    }
    if (first) {
      // The route kept is the one at the path a host serves that file for: `/`, not `/index/`.
      const [keep, drop] = indirectness(r.path) < indirectness(first.path) ? [r, first] : [first, r];
      report(drop, keep, `the file ${file!.replace(/^\//, '')} (as ${keep.path} and ${drop.path})`);
      if (keep === first) continue;
      kept.delete(first);
      for (const f of filesOf(first)) byFile.delete(f);
    }
    kept.add(r);
    for (const f of filesOf(r)) byFile.set(f, r);
  }
  // Paths that differ only in case are one folder on macOS and Windows disks and on many hosts.
  const byFolded = new Map<string, Route>();
  for (const r of kept) {
    const folded = htmlFileFor(r.path).toLowerCase();
    const first = byFolded.get(folded);
    if (!first) byFolded.set(folded, r);
    else report(...decidedFirst(r, first), `paths that differ only in case, one folder on macOS and Windows (${first.path} and ${r.path})`);
  }
  return { routes: [...kept], diagnostics };
}
