// DiagnosticsError carries the stage that failed, and the CLI names it from there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportFailure } from '../../src/commands/cli/index.js';
import type { Printer } from '../../src/commands/cli/reporter.js';
import { loadConfig } from '../../src/build/config/load.js';
import { build } from '../../src/build/index.js';
import { MemorySink } from '../../src/build/emit/sink.js';
import { diagnostic, DiagnosticsError, sortDiagnostics } from '../../src/errors/diagnostic.js';
import { fixture } from '../helpers.js';

async function failure(run: Promise<unknown>): Promise<DiagnosticsError> {
  try {
    await run;
  } catch (error) {
    assert.ok(error instanceof DiagnosticsError, String(error));
    return error;
  }
  assert.fail('expected a DiagnosticsError');
}

test('a failed run says which stage failed: configuration, or the content (build)', async () => {
  assert.equal((await failure(loadConfig({ root: fixture('bad-locale') }))).stage, 'configuration');
  const content = await failure(build({ root: fixture('content-errors'), sink: new MemorySink() }));
  assert.equal(content.stage, 'build');
  assert.equal(content.message, 'build failed with 8 errors');
});

test('the CLI names the failed stage from error.stage, not from the wording of the message', () => {
  const lines: string[] = [];
  const printer: Printer = { color: false, line: (text) => lines.push(text) };
  const error = new DiagnosticsError([diagnostic('client/compile', { file: 'templates/pages/home.tsx', line: 3, message: 'Expected ";" but found "}"' })], 'client bundle');
  error.message = 'the browser bundle could not be made (1 error)';
  assert.equal(reportFailure(printer, error), 1);
  assert.equal(lines.at(-1), '\nclient bundle failed: 1 error; nothing was written, the previous output is untouched.');
  assert.match(lines[0]!, /^templates\/pages\/home\.tsx:3 {2}error {2}Expected ";" but found "}"\n {4}hint: fix the source at the line shown/);
});

test('diagnostics are ordered by file, line, then column', () => {
  const at = (file: string, line: number, column?: number) => diagnostic('links/broken', { file, line, ...(column !== undefined && { column }), message: 'x' });
  const sorted = sortDiagnostics([at('b.md', 1, 1), at('a.md', 3, 167), at('a.md', 3, 50), at('a.md', 2), at('a.md', 3, 85)]);
  assert.deepEqual(sorted.map((d) => `${d.file}:${d.line}:${d.column ?? ''}`), ['a.md:2:', 'a.md:3:50', 'a.md:3:85', 'a.md:3:167', 'b.md:1:1']);
});
