// The rule catalogue (src/errors/rules.ts) against what uses it: the schemas' fields, every
// place in src/ that makes a diagnostic, and the rule tables of the docs.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import fg from 'fast-glob';
import GithubSlugger from 'github-slugger';
import type { Heading, InlineCode, Root, Table } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import ts from 'typescript';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { articleSchema, bioSchema, navigationSchema, pageSchema, portfolioSchema, websiteSchema } from '../../src/build/content/schemas.js';
import { diagnostic } from '../../src/errors/diagnostic.js';
import { CONTENT_FIELDS, fieldRule, RULES, type RuleId } from '../../src/errors/rules.js';
import { REPO } from '../helpers.js';

const isRuleId = (id: string): id is RuleId => Object.hasOwn(RULES, id);

const IDS = Object.keys(RULES) as RuleId[];
const CATEGORIES = new Set(IDS.map((id) => id.split('/')[0]!));
/** `links/brokn`: what a rule id looks like, known or not. */
const ruleShaped = (s: string) => /^[a-z]+\/[A-Za-z-]*$/.test(s) && CATEGORIES.has(s.split('/')[0]!);
/** Ids no call site writes: fieldRule() makes them from a schema issue's field. */
const FROM_FIELDS = new Set<RuleId>([...CONTENT_FIELDS.map((f) => fieldRule(f)), fieldRule('')]);

test('every rule has a title, a hint, a severity and a docs anchor on an existing page', async () => {
  for (const id of IDS) {
    const rule = RULES[id];
    assert.match(id, /^[a-z]+\/[a-z][A-Za-z-]*$/, `${id}: a rule id is <category>/<name>`);
    assert.ok(rule.title.trim() !== '' && rule.hint.trim() !== '', `${id}: title and hint`);
    assert.ok(['error', 'warning', 'either'].includes(rule.severity), `${id}: severity ${rule.severity}`);
    const [file, anchor] = rule.docs.split('#') as [string, string];
    const headings = (await docsOf(file)).headings;
    assert.ok(headings.has(anchor), `${id}: ${file} has no heading #${anchor} (it has ${[...headings].join(', ')})`);
  }
});

test('one content/invalid-<field> rule per top-level field of the content schemas, and no other', () => {
  const schemaFields = new Set(
    [pageSchema, articleSchema, bioSchema, portfolioSchema, websiteSchema, navigationSchema].flatMap((s) => Object.keys(s.shape)),
  );
  assert.deepEqual([...CONTENT_FIELDS].sort(), [...schemaFields].sort());
  for (const field of CONTENT_FIELDS) {
    const id = fieldRule(field);
    assert.equal(id, `content/invalid-${field}`);
    // A named rule of the same id would silently replace the field's.
    assert.ok(RULES[id].title.startsWith(`a ${field} `), `${id} is the field's rule, not another rule of that name`);
  }
  assert.equal(fieldRule(''), 'content/invalid-entry', 'a file that is wrong as a whole');
  assert.equal(fieldRule('constructor'), 'content/invalid-entry', 'an inherited name is no field');
});

test('diagnostic() fills in the catalogue: its severity, and its hint unless the call site has a better one', () => {
  assert.deepEqual(diagnostic('redirects/loop', { file: 'config/redirects.yaml', line: 3, message: 'redirect loop: /a/ -> /b/ -> /a/' }), {
    severity: 'error',
    rule: 'redirects/loop',
    file: 'config/redirects.yaml',
    line: 3,
    message: 'redirect loop: /a/ -> /b/ -> /a/',
    hint: RULES['redirects/loop'].hint,
  });
  assert.equal(diagnostic('graph/unknown-author', { file: 'f', message: 'm', hint: 'authors are folder names under content/team/: jdoe' }).hint, 'authors are folder names under content/team/: jdoe');
  assert.equal(diagnostic('graph/unknown-author', { file: 'f', message: 'm', hint: undefined }).hint, RULES['graph/unknown-author'].hint);
  assert.equal(diagnostic('content/unknown-field', { file: 'f', message: 'm' }).severity, 'warning');
  assert.equal(diagnostic('links/external', { file: 'f', message: 'm', severity: 'warning' }).severity, 'warning');
  // A check finding's own fields pass through.
  assert.equal(diagnostic('site/orphan', { file: 'f', message: 'm', page: '/about/' }).page, '/about/');

  // @ts-expect-error: an id that is not in the catalogue does not compile...
  assert.throws(() => diagnostic('content/no-such-rule', { file: 'f', message: 'm' }), /unknown rule "content\/no-such-rule".*src\/errors\/rules\.ts/);
  // @ts-expect-error: ...a rule with one severity takes no other...
  diagnostic('links/broken', { file: 'f', message: 'm', severity: 'warning' });
  // @ts-expect-error: ...and an `either` rule's call site must choose.
  diagnostic('links/external', { file: 'f', message: 'm' });
});

/** Where src/ writes a rule id or makes a diagnostic object other than with `diagnostic('<id>', ...)`. */
function strayRules(file: string, text: string): { made: RuleId[]; stray: string[] } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const made: RuleId[] = [];
  const stray: string[] = [];
  const at = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    stray.push(`${file}:${line + 1}: ${what}`);
  };
  const visitNode = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const call = node.parent;
      const inDiagnostic = ts.isCallExpression(call) && call.arguments[0] === node && ts.isIdentifier(call.expression) && call.expression.text === 'diagnostic';
      if (inDiagnostic && isRuleId(node.text)) made.push(node.text);
      else if (isRuleId(node.text)) at(node, `the rule id '${node.text}' outside diagnostic('${node.text}', ...)`);
      else if (ruleShaped(node.text) && (inDiagnostic || (ts.isPropertyAssignment(call) && call.name.getText() === 'rule'))) {
        at(node, `'${node.text}' is not a rule of src/errors/rules.ts`);
      }
    }
    if (ts.isTemplateExpression(node) && ruleShaped(node.head.text)) at(node, `a rule id made at run time: \`${node.head.text}\${...}\``);
    if (ts.isObjectLiteralExpression(node) && !file.startsWith('src/errors/')) {
      const names = new Set(node.properties.map((p) => p.name?.getText()));
      if (names.has('rule') && names.has('severity')) at(node, 'a diagnostic written as an object literal, not made with diagnostic()');
    }
    ts.forEachChild(node, visitNode);
  };
  visitNode(source);
  return { made, stray };
}

test('src/ makes every diagnostic with diagnostic(\'<rule id>\', ...), and every rule is made somewhere', async () => {
  const files = await fg(['src/**/*.{ts,tsx}'], { cwd: REPO, ignore: ['src/errors/rules.ts'] });
  const made = new Set<RuleId>();
  const stray: string[] = [];
  for (const file of files.sort()) {
    const found = strayRules(file, await readFile(path.join(REPO, file), 'utf8'));
    found.made.forEach((id) => made.add(id));
    stray.push(...found.stray);
  }
  assert.deepEqual(stray, [], 'make diagnostics with diagnostic() from src/errors/diagnostic.ts, naming a rule of src/errors/rules.ts');
  const unused = IDS.filter((id) => !made.has(id) && !FROM_FIELDS.has(id));
  assert.deepEqual(unused, [], 'rules of the catalogue no code makes: remove them, or make them');
});

test('the scan finds a rule id written any other way', () => {
  const { stray } = strayRules(
    'src/x.ts',
    [
      `out.push({ severity: 'error', rule, file, message });`,
      `const id = \`content/invalid-\${field}\`;`,
      `problem(o, 'redirects/loop', message);`,
      `diagnostic('links/brokn', { message });`,
      `const ok = diagnostic('links/broken', { message });`,
      `const path = 'content/pages';`,
    ].join('\n'),
  );
  assert.deepEqual(stray, [
    'src/x.ts:1: a diagnostic written as an object literal, not made with diagnostic()',
    'src/x.ts:2: a rule id made at run time: `content/invalid-${...}`',
    "src/x.ts:3: the rule id 'redirects/loop' outside diagnostic('redirects/loop', ...)",
    "src/x.ts:4: 'links/brokn' is not a rule of src/errors/rules.ts",
  ]);
});

interface DocsTableRow {
  /** Slugs of the headings the table is under, outermost first. */
  sections: string[];
  ids: string[];
  /** The severity column's text, when the table has one (a column headed "" or "Severity"). */
  severity?: string;
}

const docsCache = new Map<string, Promise<{ headings: Set<string>; rows: DocsTableRow[] }>>();

/** The heading slugs of a docs page (as GitHub makes them) and the rows of its tables with a "Rule" column. */
function docsOf(file: string): Promise<{ headings: Set<string>; rows: DocsTableRow[] }> {
  let docs = docsCache.get(file);
  if (!docs) docsCache.set(file, (docs = readDocs(file)));
  return docs;
}

async function readDocs(file: string): Promise<{ headings: Set<string>; rows: DocsTableRow[] }> {
  const tree = unified().use(remarkParse).use(remarkGfm).parse(await readFile(path.join(REPO, file), 'utf8')) as Root;
  const slugger = new GithubSlugger();
  const headings = new Set<string>();
  const rows: DocsTableRow[] = [];
  const stack: { depth: number; slug: string }[] = [];
  const text = (node: unknown) => {
    let out = '';
    visit(node as Root, (n) => {
      if ('value' in n && typeof n.value === 'string') out += n.value;
    });
    return out.trim();
  };
  for (const node of tree.children) {
    if (node.type === 'heading') {
      const slug = slugger.slug(text(node as Heading));
      headings.add(slug);
      while (stack.length > 0 && stack[stack.length - 1]!.depth >= (node as Heading).depth) stack.pop();
      stack.push({ depth: (node as Heading).depth, slug });
    }
    if (node.type !== 'table') continue;
    const [header, ...body] = (node as Table).children;
    const titles = header!.children.map((cell) => text(cell));
    const ruleColumn = titles.indexOf('Rule');
    if (ruleColumn === -1) continue;
    const severityColumn = titles.findIndex((t) => t === '' || t === 'Severity');
    for (const row of body) {
      const ids: string[] = [];
      visit(row.children[ruleColumn]!, 'inlineCode', (code: InlineCode) => void ids.push(code.value));
      const severity = severityColumn === -1 ? undefined : text(row.children[severityColumn]);
      rows.push({ sections: stack.map((s) => s.slug), ids, severity });
    }
  }
  return { headings, rows };
}

const DOCS = ['docs/content.md', 'docs/check.md', 'docs/configuration.md'];

test('the rule tables of docs/content.md, docs/check.md and docs/configuration.md list every rule, under its anchor, with its severity', async () => {
  const problems: string[] = [];
  const documented = new Set<string>();
  for (const file of DOCS) {
    for (const row of (await docsOf(file)).rows) {
      for (const id of row.ids) {
        // Other tables have a "Rule" column too (redirect kinds); `content/invalid-<field>` is a pattern the text explains.
        if (!ruleShaped(id)) continue;
        if (!isRuleId(id)) {
          problems.push(`${file}#${row.sections.at(-1)}: ${id} is not a rule of src/errors/rules.ts`);
          continue;
        }
        if (row.sections.includes(RULES[id].docs.split('#')[1]!) && RULES[id].docs.startsWith(`${file}#`)) documented.add(id);
        if (row.severity === undefined) continue;
        const { severity } = RULES[id];
        const says = { error: /\berror\b/.test(row.severity), warning: /\bwarning\b/.test(row.severity) };
        const means = { error: severity !== 'warning', warning: severity !== 'error' };
        if (says.error !== means.error || says.warning !== means.warning) problems.push(`${file}: ${id} is "${row.severity}" in the table, ${severity} in the catalogue`);
      }
    }
  }
  for (const id of IDS) if (!documented.has(id)) problems.push(`${id} is not in a rule table under ${RULES[id].docs}`);
  assert.deepEqual(problems, []);
});
