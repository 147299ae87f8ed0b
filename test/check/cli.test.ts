// `ir-site check` as CI runs it: the report, --format json, --strict, exit codes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fixture, REPO } from '../helpers.js';

const BIN = path.join(REPO, 'bin', 'ir-site.js');
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, 'check', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

test('check --help explains every flag and the exit codes', () => {
  const help = run('--help');
  assert.equal(help.code, 0);
  for (const flag of ['--root <dir>', '--dir <folder>', '--site <identity>', '--external', '--strict', '--format <format>']) assert.ok(help.out.includes(flag), flag);
  assert.match(help.out, /Exit codes: 0 no errors/);
  assert.match(help.out, /"human", "json"/);
});

test('a clean site: exit 0, and one summary line', () => {
  const r = run('--root', fixture('check-clean'));
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out.trim(), /^check: 0 errors, 0 warnings in 12 pages \(\d+\.\d\d s\)$/);
});

test('an error: exit 1; the report groups by rule and shows page, source line and hint', () => {
  const r = run('--root', fixture('check-broken-link'));
  assert.equal(r.code, 1);
  assert.equal(
    r.out,
    `links/broken  1 error

content/pages/home/en.md:7:17  error  the link to /our-team/ leads nowhere: no page, file or redirect rule has this path
    on /
    Meet [our team](/our-team/).
                    ^
    hint: fix the address: internal links are site paths with a trailing slash, e.g. /article/<slug>/

${r.out.trim().split('\n').at(-1)}
`,
  );
  assert.match(r.out.trim().split('\n').at(-1)!, /^check: 1 error, 0 warnings in 12 pages \(\d+\.\d\d s\)$/);
});

test('warnings pass, unless --strict', () => {
  assert.equal(run('--root', fixture('check-orphan')).code, 0);
  const strict = run('--root', fixture('check-orphan'), '--strict');
  assert.equal(strict.code, 1);
  assert.match(strict.out, /check: 0 errors, 1 warning in 13 pages/);
});

test('--format json: one document on stdout with counts, stats, findings and external links', () => {
  const r = run('--root', fixture('check-orphan'), '--format', 'json');
  assert.equal(r.code, 0);
  const report = JSON.parse(r.out) as {
    ok: boolean;
    errors: number;
    warnings: number;
    built: boolean;
    stats: { pages: number; links: number; checkMs: number; buildMs: number };
    findings: { rule: string; file: string; line: number; page: string }[];
    external: unknown[];
  };
  assert.equal(report.ok, true);
  assert.equal(report.errors, 0);
  assert.equal(report.warnings, 1);
  assert.equal(report.built, true);
  assert.equal(report.stats.pages, 13);
  assert.ok(report.stats.buildMs > 0 && report.stats.checkMs > 0);
  assert.deepEqual(
    report.findings.map((f) => ({ rule: f.rule, file: f.file, line: f.line, page: f.page })),
    [{ rule: 'site/orphan', file: 'content/pages/about/en.md', line: 2, page: '/about/' }],
  );
  assert.deepEqual(report.external, []);
});

test('a build that fails: exit 1, the build errors are the findings', () => {
  const r = run('--root', fixture('check-redirect-chain'), '--format', 'json');
  assert.equal(r.code, 1);
  const report = JSON.parse(r.out) as { ok: boolean; built: boolean; findings: { rule: string; hint: string }[] };
  assert.equal(report.ok, false);
  assert.equal(report.built, false);
  assert.deepEqual(report.findings.map((f) => [f.rule, f.hint]), [['redirects/chain', 'point /older-insights/ at /insights/']]);
  const human = run('--root', fixture('check-redirect-chain'));
  assert.match(human.out, /check: 1 error, 0 warnings; the build failed, so no page was checked/);
});

test('--dir that does not exist, or is a file: exit 1 with a message, not a stack', () => {
  const file = run('--root', fixture('check-clean'), '--dir', 'site.config.ts');
  assert.equal(file.code, 1);
  assert.match(file.err, /^ir-site check: --dir: .*site\.config\.ts is a file, not a folder/);
  const r = run('--root', fixture('check-clean'), '--dir', 'no-such-folder');
  assert.equal(r.code, 1);
  assert.match(r.err, /^ir-site check: --dir: no such folder: .*no-such-folder\n$/);
});

test('an unknown --format is refused', () => {
  const r = run('--format', 'xml');
  assert.notEqual(r.code, 0);
  assert.match(r.err, /argument 'xml' is invalid/);
});
