// Shared by the tests: build a fixture site into memory, and find diagnostics.
import assert from 'node:assert/strict';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type BuildResult } from '../src/build/index.js';
import { MemorySink } from '../src/build/emit/sink.js';
import { siteChecks } from '../src/commands/check/site-warnings.js';
import { DiagnosticsError, type Diagnostic } from '../src/errors/diagnostic.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const fixture = (name: string) => path.join(REPO, 'test', 'fixtures', name);

export async function buildToMemory(root: string, options: Partial<BuildOptions> = {}): Promise<{ result: BuildResult; out: MemorySink }> {
  const out = new MemorySink();
  const result = await build({ root, sink: out, siteChecks, ...options });
  return { result, out };
}

/** Builds and expects a DiagnosticsError; returns its diagnostics. */
export async function buildFailure(root: string, options: Partial<BuildOptions> = {}): Promise<Diagnostic[]> {
  try {
    await build({ root, sink: new MemorySink(), siteChecks, ...options });
  } catch (error) {
    if (error instanceof DiagnosticsError) return error.diagnostics;
    throw error;
  }
  assert.fail(`expected the build of ${root} to fail`);
}

export function findDiagnostic(diagnostics: Diagnostic[], match: Partial<Diagnostic>): Diagnostic {
  const found = diagnostics.find((d) => Object.entries(match).every(([k, v]) => d[k as keyof Diagnostic] === v));
  assert.ok(found, `no diagnostic matching ${JSON.stringify(match)} among:\n${diagnostics.map((d) => JSON.stringify(d)).join('\n')}`);
  return found;
}

/**
 * A writable copy of a fixture at `test/.tmp/<name>` (the fixtures' depth, so their relative
 * locale path still holds), with its own copy of the templates when `ownTemplates` is set
 * (copies, not links: the client bundle names chunks by their paths).
 */
/** Copies a fixture without what a build left in it (its cache and output): a copy starts as the repository has it. */
export function copyFixture(name: string, to: string): Promise<void> {
  const leftovers = new Set(['.ir-site', 'public'].map((dir) => path.join(fixture(name), dir)));
  return cp(fixture(name), to, { recursive: true, filter: (source) => !leftovers.has(source) });
}

export async function writableFixture(name: string, copyName: string, { ownTemplates = false } = {}): Promise<string> {
  const root = path.join(REPO, 'test', '.tmp', copyName);
  await rm(root, { recursive: true, force: true });
  await mkdir(path.dirname(root), { recursive: true });
  await copyFixture(name, root);
  if (ownTemplates) {
    await cp(path.join(REPO, 'templates'), path.join(root, 'templates'), { recursive: true });
    const config = path.join(root, 'site.config.ts');
    const text = await readFile(config, 'utf8');
    assert.ok(text.includes(`templates: '../../../templates'`), `${name}/site.config.ts points at the repository's templates`);
    await writeFile(config, text.replace(`templates: '../../../templates'`, `templates: 'templates'`));
  }
  return root;
}

/** The files under `dir` (none when it is missing), relative, with forward slashes, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Every file under `dir` by its relative path, its bytes in base64: two folders' trees compare with deepEqual. */
export async function fileTree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const rel of await filesUnder(dir)) files.set(rel, (await readFile(path.join(dir, rel))).toString('base64'));
  return files;
}

/** How `actual` differs from `expected` (fileTree's): files that differ, are missing or are extra. */
export function treeDifferences(expected: Map<string, string>, actual: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [rel, bytes] of expected) if (actual.get(rel) !== bytes) found.push(actual.has(rel) ? `${rel} differs` : `${rel} missing`);
  for (const rel of actual.keys()) if (!expected.has(rel)) found.push(`${rel} extra`);
  return found;
}

type Run = (options?: Partial<BuildOptions>) => Promise<unknown>;

/** What a build of the site at `root` without the cache writes (into `reference/`, removed after), as a fileTree. */
export async function referenceTree(root: string, run: Run): Promise<Map<string, string>> {
  await run({ outDir: 'reference', cache: false });
  const files = await fileTree(path.join(root, 'reference'));
  await rm(path.join(root, 'reference'), { recursive: true, force: true });
  return files;
}

/** A fresh cache and output, as two builds leave them (the second stores what the first could not: search documents). */
export async function freshCache(root: string, run: Run): Promise<void> {
  await rm(path.join(root, '.ir-site'), { recursive: true, force: true });
  await rm(path.join(root, 'public'), { recursive: true, force: true });
  await run();
  await run();
}
