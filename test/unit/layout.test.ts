// The layout's rules, read from the code: which folder of src/ imports which (every import,
// export-from and import(), types included), against the "May import:" line of each folder's
// README, both ways (an import the README does not list fails, and so does a listed folder
// nothing imports); no cycle between folders; no function over 120 lines in src/ or templates/;
// every package the code loads declared in package.json.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import fg from 'fast-glob';
import ts from 'typescript';
import { REPO } from '../helpers.js';

/** The folders of src/ that are units of the layout, most specific first. */
const UNITS = [
  'build/config',
  'build/content',
  'build/images',
  'build/graph',
  'build/templates',
  'build/render',
  'build/emit',
  'build',
  'incremental',
  'features/markdown',
  'features/search',
  'features/offline',
  'commands/cli',
  'commands/server',
  'commands/check',
  'client',
  'exports',
  'shared',
  'files',
  'errors',
] as const;
/** The files directly in src/: the public API (`index`), and what ir-site knows of its own package. */
const ROOT_UNITS: Record<string, string> = { 'src/index.ts': 'index', 'src/version.ts': 'package', 'src/package-root.ts': 'package' };
const MAX_FUNCTION_LINES = 120;

function unitOf(file: string): string {
  if (ROOT_UNITS[file]) return ROOT_UNITS[file];
  const inSrc = file.replace(/^src\//, '');
  const unit = UNITS.find((u) => inSrc.startsWith(`${u}/`));
  assert.ok(unit, `${file} is in no unit of the layout: add its folder to UNITS (and give it a README)`);
  return unit;
}

const sourceOf = (file: string) =>
  ts.createSourceFile(file, readFileSync(path.join(REPO, file), 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

function importsOf(source: ts.SourceFile): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) specifiers.push(node.arguments[0].text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) specifiers.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/** unit -> unit -> the files that make the edge. */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of fg.sync('src/**/*.{ts,tsx}', { cwd: REPO }).sort()) {
    const from = unitOf(file);
    const edges = graph.get(from) ?? graph.set(from, new Map()).get(from)!;
    for (const specifier of importsOf(sourceOf(file))) {
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
      if (!target.startsWith('src/')) continue;
      const to = unitOf(existsSync(path.join(REPO, target)) ? target : target.replace(/\.ts$/, '.tsx'));
      if (to !== from) (edges.get(to) ?? edges.set(to, []).get(to)!).push(file);
    }
  }
  return graph;
}

/** The units a README's "May import:" sentence names, in backquotes ("May import: nothing." names none). */
function mayImport(unit: string): Set<string> {
  const readme = path.join(REPO, 'src', ...unit.split('/'), 'README.md');
  assert.ok(existsSync(readme), `src/${unit} has a README.md`);
  const line = readFileSync(readme, 'utf8')
    .split('\n')
    .find((l) => l.includes('May import:'));
  assert.ok(line, `src/${unit}/README.md has a "May import:" line`);
  const sentence = line.slice(line.indexOf('May import:')).split(/\.(?:\s|$)/)[0]!;
  return new Set([...sentence.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
}

test('each folder imports what its README says it may, and everything its README lists', () => {
  const graph = folderGraph();
  const problems: string[] = [];
  for (const unit of UNITS) {
    const allowed = mayImport(unit);
    const actual = graph.get(unit) ?? new Map<string, string[]>();
    for (const [to, files] of actual) if (!allowed.has(to)) problems.push(`src/${unit} imports ${to} (${[...new Set(files)].join(', ')}), which its README does not list`);
    for (const to of allowed) if (!actual.has(to)) problems.push(`src/${unit}/README.md lists ${to}, which nothing in src/${unit} imports`);
  }
  assert.deepEqual(problems, []);
});

test('no import cycle between the folders of src/', () => {
  const graph = folderGraph();
  // Depth-first search; a back edge is a cycle, reported as its path.
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (unit: string, trail: string[]) => {
    state.set(unit, 'open');
    for (const to of graph.get(unit)?.keys() ?? []) {
      if (state.get(to) === 'open') cycles.push([...trail.slice(trail.indexOf(to)), unit, to].join(' -> '));
      else if (!state.has(to)) visit(to, [...trail, unit]);
    }
    state.set(unit, 'done');
  };
  for (const unit of graph.keys()) if (!state.has(unit)) visit(unit, []);
  assert.deepEqual(cycles, []);
});

test(`no function in src/ or templates/ is longer than ${MAX_FUNCTION_LINES} lines`, () => {
  const long: string[] = [];
  for (const file of fg.sync(['src/**/*.{ts,tsx}', 'templates/**/*.{ts,tsx}'], { cwd: REPO }).sort()) {
    const source = sourceOf(file);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const lines = source.getLineAndCharacterOfPosition(node.end).line - first + 1;
        const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
        if (lines > MAX_FUNCTION_LINES) long.push(`${file}:${first + 1} ${name}: ${lines} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(long, []);
});

/** The packages a file loads when it runs: `import type`, type-only names and `import('x').T` types are erased. */
function runtimePackagesOf(source: ts.SourceFile): string[] {
  const packages: string[] = [];
  const erased = (node: ts.ImportDeclaration) => {
    const clause = node.importClause;
    if (!clause) return false;
    if (clause.isTypeOnly) return true;
    const named = clause.namedBindings;
    return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
  };
  const add = (specifier: string) => {
    if (specifier.startsWith('.') || specifier.startsWith('node:')) return;
    const parts = specifier.split('/');
    packages.push(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !erased(node)) add(node.moduleSpecifier.text);
    else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) add(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return packages;
}

test('every package src/ and templates/ load is a dependency in package.json, not one hoisted from another', () => {
  const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
  const undeclared = new Map<string, string[]>();
  for (const file of fg.sync(['src/**/*.{ts,tsx}', 'templates/**/*.{ts,tsx}'], { cwd: REPO }).sort()) {
    for (const name of runtimePackagesOf(sourceOf(file))) {
      if (name === manifest.name || name in manifest.dependencies) continue;
      (undeclared.get(name) ?? undeclared.set(name, []).get(name)!).push(file);
    }
  }
  assert.deepEqual(Object.fromEntries(undeclared), {});
});
