import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../../../src/sandbox/reports/ansi.js';
import { parseTextOutput } from '../../../src/sandbox/reports/text-fallback.js';
import { FIXTURES, fixture, LAB, statuses } from './fixture.js';

// The printed output of real runs: test/fixtures/test-output (captured earlier from sample projects
// in /tmp/samples, jest.txt following jest 29's format) and test/fixtures/reports (this lab's runs).
const older = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '../../fixtures/test-output', name), 'utf8');

describe('parseTextOutput', () => {
  it('pytest -q: the short summary, a parametrised id with spaces named in full', () => {
    const { cases } = parseTextOutput(fixture('pytest/quiet.txt'), LAB.pytest);
    expect(statuses(cases)).toEqual([
      ['tests/test_units.py::test_fails', 'failed'],
      ['tests/test_units.py::test_param[2 m]', 'failed'],
      ['tests/test_units.py::test_xpass_strict', 'failed'],
      ['tests/test_units.py::TestDurations::test_hours_fail', 'failed'],
      ['tests/test_units.py::test_uses_broken', 'errored'],
    ]);
    expect(cases[1]).toMatchObject({ name: 'test_param', message: 'AssertionError: assert 120 == 3600' });
  });

  it('pytest -v: every outcome, the summary folded in', () => {
    const { cases } = parseTextOutput(fixture('pytest/verbose.txt'), LAB.pytest);
    expect(statuses(cases)).toEqual([
      ['tests/sub/test_deep.py::test_deep', 'passed'],
      ['tests/test_units.py::test_adds', 'passed'],
      ['tests/test_units.py::test_fails', 'failed'],
      ['tests/test_units.py::test_param[1 h]', 'passed'],
      ['tests/test_units.py::test_param[2 m]', 'failed'],
      ['tests/test_units.py::test_skipped', 'skipped'],
      ['tests/test_units.py::test_xfail', 'skipped'],
      ['tests/test_units.py::test_xpass_strict', 'failed'],
      ['tests/test_units.py::test_uses_broken', 'errored'],
      ['tests/test_units.py::TestDurations::test_minutes', 'passed'],
      ['tests/test_units.py::TestDurations::test_hours_fail', 'failed'],
      ['tests/test_units.py::TestDurations::TestNested::test_inner', 'passed'],
    ]);
  });

  it('pytest: a module that did not import is a load error with its traceback', () => {
    const { cases, loadErrors } = parseTextOutput(fixture('pytest/collection-error.txt'), LAB.pytest);
    expect(cases).toEqual([]);
    expect(loadErrors.map((e) => e.file)).toEqual(['tests/test_bad.py']);
    expect(loadErrors[0]!.message).toContain(
      "E   ModuleNotFoundError: No module named 'not_a_module_anywhere'",
    );
    const older2 = parseTextOutput(older('pytest-collection-error.txt'), '/tmp/samples/py');
    expect(older2.loadErrors[0]!.message).toBe(
      'E     File "tests/test_syntax.py", line 1\nE       def test_x(:\nE                  ^\nE   SyntaxError: invalid syntax',
    );
  });

  it('vitest (default reporter, colours): failures and the file that did not load', () => {
    const { cases, loadErrors } = parseTextOutput(fixture('vitest/default.txt'), LAB.vitest);
    expect(statuses(cases)).toEqual([
      ['test/duration.test.js > parseDuration > parses 2m', 'failed'],
      ['test/duration.test.js > parseDuration > nested > parses 2h', 'failed'],
    ]);
    expect(cases[0]!.message).toContain('AssertionError: expected 120 to be 100 // Object.is equality');
    expect(loadErrors.map((e) => e.file)).toEqual(['test/broken.test.js']);
  });

  it('vitest --reporter=verbose: passes and skips too', () => {
    const { cases } = parseTextOutput(fixture('vitest/verbose.txt'), LAB.vitest);
    expect(statuses(cases)).toEqual([
      ['test/duration.test.js > parseDuration > parses 1h', 'passed'],
      ['test/duration.test.js > parseDuration > parses 2m', 'failed'],
      ['test/duration.test.js > parseDuration > parses days', 'skipped'],
      ['test/duration.test.js > parseDuration > parses weeks', 'skipped'],
      ['test/duration.test.js > parseDuration > nested > parses 1h', 'passed'],
      ['test/duration.test.js > parseDuration > nested > parses 2h', 'failed'],
      ['test/duration.test.js > parseDuration > nested > same title', 'passed'],
      ['test/duration.test.js > parseDuration > nested > same title #2', 'passed'],
      ['test/duration.test.js > top level passes', 'passed'],
    ]);
  });

  it('jest --verbose: the tree under its suite headers, failures folded in', () => {
    const { cases, loadErrors } = parseTextOutput(fixture('jest/verbose.txt'), LAB.jest);
    expect(statuses(cases)).toEqual([
      ['test/duration.test.js > top level passes', 'passed'],
      ['test/duration.test.js > parseDuration > parses 1h', 'passed'],
      ['test/duration.test.js > parseDuration > parses 2m', 'failed'],
      ['test/duration.test.js > parseDuration > parses days', 'skipped'],
      ['test/duration.test.js > parseDuration > parses weeks', 'skipped'],
      ['test/duration.test.js > parseDuration > nested > parses 1h', 'passed'],
      ['test/duration.test.js > parseDuration > nested > parses 2h', 'failed'],
      ['test/duration.test.js > parseDuration > nested > same title', 'passed'],
      ['test/duration.test.js > parseDuration > nested > same title #2', 'passed'],
    ]);
    expect(loadErrors.map((e) => e.file)).toEqual(['test/broken.test.js']);
  });

  it('jest (default): the failures and the suite that failed to run', () => {
    const { cases, loadErrors } = parseTextOutput(older('jest.txt'), '/tmp/samples/jest');
    expect(statuses(cases)).toEqual([
      ['test/math.test.js > math > subtracts', 'failed'],
      ['test/math.test.js > math > nested > multiplies', 'failed'],
      ['test/math.test.js > top level fails', 'failed'],
    ]);
    expect(loadErrors.map((e) => e.file)).toEqual(['test/broken.test.js']);
  });

  it('node:test spec: passes without a file (spec does not print one), failures with it', () => {
    const { cases, loadErrors } = parseTextOutput(fixture('node-test/spec.txt'), LAB.node);
    expect(statuses(cases)).toEqual([
      ['parseDuration > parses 1h', 'passed'],
      ['test/duration.test.js > parseDuration > parses 2m', 'failed'],
      ['parseDuration > parses days', 'skipped'],
      ['parseDuration > parses weeks', 'skipped'],
      ['parseDuration > nested suite > parses 1h', 'passed'],
      ['test/duration.test.js > parseDuration > nested suite > parses 2h', 'failed'],
      ['parseDuration > nested suite > same title', 'passed'],
      ['parseDuration > nested suite > same title #2', 'passed'],
      ['top level with subtests > sub passes', 'passed'],
      ['test/duration.test.js > top level with subtests > sub fails', 'failed'],
      ['top level passes', 'passed'],
      ['other passes', 'passed'],
    ]);
    expect(loadErrors.map((e) => e.file)).toEqual(['test/broken.test.js']);
  });

  it('node:test TAP and spec name the same failing tests alike', () => {
    const failing = (name: string) =>
      parseTextOutput(older(name), '/tmp/samples/nt')
        .cases.filter((c) => c.status === 'failed')
        .map((c) => c.id);
    expect(failing('node-test-tap.txt')).toEqual([
      'test/math.test.js > math > subtracts',
      'test/math.test.js > math > nested > multiplies',
      'test/math.test.js > top level fails',
    ]);
    expect(failing('node-test-spec.txt')).toEqual(failing('node-test-tap.txt'));
  });

  it('go test -v: passes, failing leaves, the package that did not build', () => {
    const { cases, loadErrors } = parseTextOutput(older('go-test-v.txt'), '/tmp/samples/go');
    expect(statuses(cases)).toEqual([
      ['example.com/calc > TestAdd', 'passed'],
      ['example.com/calc > TestSub', 'failed'],
      ['example.com/calc > TestTable/positive', 'passed'],
      ['example.com/calc > TestTable/negative', 'failed'],
      ['example.com/calc/sub > TestOK', 'passed'],
      ['example.com/calc/sub > TestPanics', 'failed'],
    ]);
    expect(loadErrors).toEqual([
      { file: 'example.com/calc/broken', message: 'broken/broken_test.go:5:28: undefined: undefinedThing' },
    ]);
  });

  it('go test without -v: the failures', () => {
    const { cases } = parseTextOutput(older('go-test.txt'), '/tmp/samples/go');
    expect(statuses(cases)).toEqual([
      ['example.com/calc > TestSub', 'failed'],
      ['example.com/calc > TestTable/negative', 'failed'],
      ['example.com/calc/sub > TestPanics', 'failed'],
    ]);
  });

  it('cargo test: libtest lines', () => {
    const cwd = path.join(FIXTURES, 'cargo/durations');
    const { cases } = parseTextOutput(fixture('cargo/test.txt'), cwd);
    expect(cases.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([
      'src/lib.rs > tests::parses_minutes',
      'tests/it.rs > panics_on_unknown_unit',
    ]);
    expect(cases).toHaveLength(8);
  });

  it('mocha: a file that throws while loading', () => {
    const { loadErrors } = parseTextOutput(fixture('mocha/load-error.txt'), LAB.mocha);
    expect(loadErrors.map((e) => e.file)).toEqual(['test/broken.spec.js']);
    expect(loadErrors[0]!.message.split('\n')[0]).toBe(
      "Exception during run: Error: Cannot find module './does-not-exist'",
    );
  });

  it('finds nothing in a passing summary or in plain text', () => {
    expect(parseTextOutput('Test Suites: 1 passed, 1 total\nTests: 3 passed, 3 total\n', '/r')).toEqual({
      cases: [],
      loadErrors: [],
    });
    expect(parseTextOutput('Segmentation fault (core dumped)\n', '/r').cases).toEqual([]);
  });
});

describe('stripAnsi', () => {
  it('removes whole sequences: colours, OSC hyperlinks and titles, charset switches', () => {
    const link = '\u001b]8;;file:///repo/a.ts\u0007a.ts\u001b]8;;\u0007';
    expect(
      stripAnsi(`\u001b[1m\u001b[31m FAIL \u001b[39m\u001b[22m ${link}\u001b]0;title\u001b\\\u001b(B`),
    ).toBe(' FAIL  a.ts');
  });
});

describe('parseTextOutput: tape run by node, the runner not named', () => {
  it('reads each `# title` as a test of its assertions', () => {
    const { cases } = parseTextOutput(fixture('tape/run.tap'), LAB.tape);
    expect(statuses(cases)).toEqual([
      ['adds', 'passed'],
      ['fails', 'failed'],
      ['skipped', 'skipped'],
      ['inner', 'passed'],
      ['b passes', 'passed'],
    ]);
  });
});
