// The public API is pinned: what `ir-site` and `ir-site/templates` export, and of what kind,
// read by the TypeScript compiler from the entry files. A change here is a deliberate change
// of the API: update the list with it. Every export statement, and every export where it is
// declared (function, class, interface, type, constant), carries a doc comment. Templates reach ir-site through the package's exports only.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { REPO } from '../helpers.js';

const ENTRIES = {
  'ir-site': 'src/index.ts',
  'ir-site/templates': 'src/exports/templates.ts',
  'ir-site/search': 'src/exports/search.ts',
} as const;

const PINNED: Record<keyof typeof ENTRIES, Record<string, string>> = {
  'ir-site': {
    defineConfig: 'function',
    SiteConfigInput: 'type',
    build: 'function',
    BuildOptions: 'interface',
    BuildResult: 'interface',
    BuildReporter: 'interface',
    Stage: 'type',
    OutputSink: 'interface',
    check: 'function',
    CheckOptions: 'interface',
    CheckResult: 'interface',
    Finding: 'interface',
    serve: 'function',
    ServeOptions: 'interface',
    RunningServer: 'interface',
    dev: 'function',
    DevOptions: 'interface',
    RunningDev: 'interface',
    DiagnosticsError: 'class',
    formatDiagnostics: 'function',
    Diagnostic: 'interface',
    MarkdownOptions: 'interface',
    typesetFrench: 'function',
    // Type-only, with the template types: usable as `typeof ARTICLE_TYPES`.
    ARTICLE_TYPES: 'variable',
  },
  'ir-site/templates': {
    ARTICLE_TYPES: 'variable',
    localizePath: 'function',
    imageOf: 'function',
    isSafeUrl: 'function',
    markdownElementFate: 'function',
    safeMarkdownProps: 'function',
    sendForm: 'function',
  },
  'ir-site/search': {
    SearchIndex: 'class',
    highlight: 'function',
    SearchFilters: 'interface',
    SearchOutcome: 'interface',
    SearchHit: 'interface',
    TextPart: 'interface',
    searchIndexPartPath: 'function',
    searchIndexPath: 'function',
  },
};

const program = ts.createProgram(
  Object.values(ENTRIES).map((f) => path.join(REPO, f)),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true, noEmit: true },
);
const checker = program.getTypeChecker();

function kindOf(symbol: ts.Symbol): string {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const f = target.flags;
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Interface) return 'interface';
  if (f & ts.SymbolFlags.TypeAlias) return 'type';
  if (f & ts.SymbolFlags.Variable) return 'variable';
  return `other(${f})`;
}

function exportsOf(file: string): Map<string, ts.Symbol> {
  const source = program.getSourceFile(path.join(REPO, file))!;
  const moduleSymbol = checker.getSymbolAtLocation(source)!;
  return new Map(checker.getExportsOfModule(moduleSymbol).map((s) => [s.getName(), s]));
}

/** The types every template receives come from src/shared/types.ts: both entries export all of them. */
const SHARED_TYPES = [...exportsOf('src/shared/types.ts')].filter(([, s]) => kindOf(s) !== 'variable').map(([name]) => name);

for (const [name, file] of Object.entries(ENTRIES) as Array<[keyof typeof ENTRIES, string]>) {
  test(`${name}: exactly the pinned exports, each of its kind`, () => {
    const actual = Object.fromEntries([...exportsOf(file)].filter(([n]) => !SHARED_TYPES.includes(n)).map(([n, s]) => [n, kindOf(s)]));
    assert.deepEqual(actual, PINNED[name]);
    if (name !== 'ir-site/search') for (const type of SHARED_TYPES) assert.ok(exportsOf(file).has(type), `${name} exports the template type ${type}`);
  });

  test(`${name}: every export statement has a doc comment, and so does every export where it is declared`, () => {
    const source = program.getSourceFile(path.join(REPO, file))!;
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) && !(ts.isFunctionDeclaration(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))) continue;
      if (ts.isExportDeclaration(statement) && statement.isTypeOnly && statement.exportClause && ts.isNamedExports(statement.exportClause) && statement.exportClause.elements.length === 1 && /SiteConfigInput/.test(statement.getText())) continue;
      assert.ok(ts.getJSDocCommentsAndTags(statement).length > 0 || /^\s*\/\*\*/.test(source.text.slice(statement.getFullStart(), statement.getStart())), `${file}: no doc comment on "${statement.getText().slice(0, 80)}"`);
    }
    const undocumented = [...exportsOf(file)].filter(([, symbol]) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return ts.displayPartsToString(target.getDocumentationComment(checker)).trim().length === 0;
    });
    assert.deepEqual(undocumented.map(([exported]) => exported), [], `${name}: exports with no doc comment where they are declared`);
  });
}

test('templates import ir-site through its package exports, never by a path into src/', () => {
  const exportsField = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).exports as Record<string, unknown>;
  assert.deepEqual(Object.keys(exportsField).sort(), ['.', './search', './templates']);
  const files = readdirSync(path.join(REPO, 'templates'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.tsx?$/.test(e.name));
  assert.ok(files.length > 10);
  for (const entry of files) {
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const m of text.matchAll(/from '([^']+)'/g)) {
      assert.ok(!/(^|\/)src\//.test(m[1]!), `${entry.name} imports ${m[1]}`);
      if (m[1]!.startsWith('ir-site')) assert.ok(['ir-site/templates', 'ir-site/search'].includes(m[1]!), `${entry.name} imports ${m[1]}`);
    }
  }
});
