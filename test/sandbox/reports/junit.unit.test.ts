import { describe, expect, it } from 'vitest';
import { totalsOf } from '../../../src/sandbox/reports/case-list.js';
import { parseJunit } from '../../../src/sandbox/reports/junit.js';
import { fixture, LAB, statuses } from './fixture.js';

describe('parseJunit: pytest (xunit1, via PYTEST_ADDOPTS)', () => {
  const { cases, loadErrors } = parseJunit(fixture('pytest/results.xml'), LAB.pytest);

  it('rebuilds every node id from file, classname and name, parameters with spaces included', () => {
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
    expect(loadErrors).toEqual([]);
    expect(totalsOf(cases)).toEqual({ total: 12, passed: 5, failed: 4, errored: 1, skipped: 2 });
  });

  it('names the function without its parameters, and keeps the file', () => {
    const param = cases.find((c) => c.id === 'tests/test_units.py::test_param[2 m]')!;
    expect(param).toMatchObject({ name: 'test_param', file: 'tests/test_units.py', durationMs: 0 });
    expect(param.message).toContain('AssertionError: assert 120 == 3600');
    expect(param.message).toContain('tests/test_units.py:19: AssertionError');
  });

  it('gives the fixture error as the errored test message, and no message to passes', () => {
    const broken = cases.find((c) => c.name === 'test_uses_broken')!;
    expect(broken.message).toContain('RuntimeError: fixture exploded');
    expect(
      cases.filter((c) => c.status === 'passed' || c.status === 'skipped').map((c) => c.message),
    ).toEqual(Array(7).fill(null));
  });

  it('reports a module that failed to import as a load error, not a case', () => {
    const report = parseJunit(fixture('pytest/collection-error.xml'), LAB.pytest);
    expect(report.cases).toEqual([]);
    expect(report.loadErrors).toHaveLength(1);
    expect(report.loadErrors[0]!.file).toBe('tests/test_bad.py');
    expect(report.loadErrors[0]!.message).toContain(
      "ModuleNotFoundError: No module named 'not_a_module_anywhere'",
    );
    // pytest's and Python's own frames are dropped; the module's line stays.
    expect(report.loadErrors[0]!.message).not.toContain('importlib/__init__.py');
    expect(report.loadErrors[0]!.message).toContain('tests/test_bad.py:1: in <module>');
  });

  it('folds a teardown error into the test it belongs to (pytest writes the case twice)', () => {
    const report = parseJunit(fixture('pytest/teardown-error.xml'), '/tmp/reports-lab/py2');
    expect(statuses(report.cases)).toEqual([
      ['tests/test_td.py::test_pass_td', 'errored'],
      ['tests/test_td.py::test_fail_td', 'errored'],
    ]);
    expect(report.cases[1]!.message).toContain('assert False');
    expect(report.cases[1]!.message).toContain('teardown exploded');
  });

  it('finds the module part without a file attribute (xunit2) from the files under cwd, else by case', () => {
    const xml = `<testsuites name="pytest tests"><testsuite name="pytest">
      <testcase classname="tests.test_units.TestDurations" name="test_minutes" time="0.1"/>
      <testcase classname="tests.test_units" name="test_param[1 h]" time="0.2"/></testsuite></testsuites>`;
    expect(parseJunit(xml, '/nonexistent').cases.map((c) => [c.id, c.file, c.durationMs])).toEqual([
      ['tests/test_units.py::TestDurations::test_minutes', 'tests/test_units.py', 100],
      ['tests/test_units.py::test_param[1 h]', 'tests/test_units.py', 200],
    ]);
  });
});

describe('parseJunit: vitest', () => {
  const { cases, loadErrors } = parseJunit(fixture('vitest/junit.xml'), LAB.vitest);

  it('reads the file from classname and the suites from the name', () => {
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
    expect(cases[5]).toMatchObject({ file: 'test/duration.test.js', name: 'parses 2h' });
    expect(cases[5]!.message).toBe(
      'AssertionError: expected 7200 to be 3600 // Object.is equality\n\n- Expected\n+ Received\n\n- 3600\n+ 7200\n\n ❯ test/duration.test.js:16:24',
    );
  });

  it('reports a file that failed to load (a case named after the file) as a load error', () => {
    expect(loadErrors).toHaveLength(1);
    expect(loadErrors[0]!.file).toBe('test/broken.test.js');
    expect(loadErrors[0]!.message).toContain(
      "Cannot find module './does-not-exist.js' imported from test/broken.test.js",
    );
  });
});

describe('parseJunit: other writers', () => {
  it('uses a file attribute when there is one, and classname as a group when there is not', () => {
    const xml = `<?xml version="1.0"?>
      <testsuite name="suite">
        <testcase classname="parse duration" name="parses 1h" file="/repo/test/a.spec.js" time="0.003"/>
        <testcase classname="com.example.DurationTest" name="parsesHours" time="0.5">
          <failure message="expected 3600">java.lang.AssertionError: expected 3600</failure>
        </testcase>
      </testsuite>`;
    const { cases } = parseJunit(xml, '/repo');
    expect(cases.map((c) => [c.id, c.file, c.name, c.status, c.durationMs])).toEqual([
      ['test/a.spec.js > parse duration > parses 1h', 'test/a.spec.js', 'parses 1h', 'passed', 3],
      ['com.example.DurationTest > parsesHours', null, 'parsesHours', 'failed', 500],
    ]);
    expect(cases[1]!.message).toBe('java.lang.AssertionError: expected 3600');
  });

  it('refuses XML that is not a JUnit report', () => {
    expect(() => parseJunit('<html><body>oops</body></html>', '/repo')).toThrow(/not a JUnit report/);
  });
});
