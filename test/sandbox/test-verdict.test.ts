import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/events/effect-results.js';
import type { TouchedTest } from '../../src/sandbox/changed-tests.js';
import { judge, type RunFacts } from '../../src/sandbox/test-verdict.js';

// The verdict as a table: given the baseline and a run after the change, then this verdict and
// these reasons. See test-verdict.property.test.ts for the rule over random runs.

const t = (id: string, status: TestCase['status'], file: string | null = id.split(' > ')[0]!): TestCase => ({
  id,
  file,
  name: id
    .split(/ > |::/)
    .at(-1)!
    .replace(/\[.*\]$/, ''),
  status,
  durationMs: 1,
  message: status === 'failed' ? 'expected 1 to be 2' : null,
});

const run = (exitCode: number | null, cases: TestCase[], extra: Partial<RunFacts> = {}): RunFacts => ({
  ran: true,
  exitCode,
  signal: null,
  timedOut: false,
  cases,
  loadErrors: [],
  ...extra,
});

const A = 'test/a.test.js > adds';
const B = 'test/a.test.js > subtracts';
const OLD = 'test/old.test.js > already broken';
const NEW = 'test/new.test.js > parses 1h';

describe('judge', () => {
  const rows: {
    name: string;
    baseline: RunFacts;
    after: RunFacts;
    touched?: TouchedTest[];
    verdict: 'pass' | 'fail' | 'unknown';
    codes: string[];
  }[] = [
    {
      name: 'a clean run with the new test passing passes',
      baseline: run(0, [t(A, 'passed')]),
      after: run(0, [t(A, 'passed'), t(NEW, 'passed')]),
      touched: [{ file: 'test/new.test.js', path: ['parses 1h'] }],
      verdict: 'pass',
      codes: [],
    },
    {
      name: 'a failure the baseline already had does not block',
      baseline: run(1, [t(A, 'passed'), t(OLD, 'failed')]),
      after: run(1, [t(A, 'passed'), t(OLD, 'failed'), t(NEW, 'passed')]),
      verdict: 'pass',
      codes: [],
    },
    {
      name: 'a test that passed before and fails now fails the change',
      baseline: run(0, [t(A, 'passed'), t(B, 'passed')]),
      after: run(1, [t(A, 'passed'), t(B, 'failed')]),
      verdict: 'fail',
      codes: ['baseline-test-failed'],
    },
    {
      name: 'a test that passed before and is gone now fails the change',
      baseline: run(0, [t(A, 'passed'), t(B, 'passed')]),
      after: run(0, [t(A, 'passed')]),
      verdict: 'fail',
      codes: ['baseline-test-missing'],
    },
    {
      name: 'a test the change added that fails fails the change',
      baseline: run(0, [t(A, 'passed')]),
      after: run(1, [t(A, 'passed'), t(NEW, 'failed')]),
      verdict: 'fail',
      codes: ['changed-test-failed'],
    },
    {
      name: 'an old failing test the change edited must now pass',
      baseline: run(1, [t(A, 'passed'), t(OLD, 'failed')]),
      after: run(1, [t(A, 'passed'), t(OLD, 'failed')]),
      touched: [{ file: 'test/old.test.js', path: ['already broken'] }],
      verdict: 'fail',
      codes: ['changed-test-failed'],
    },
    {
      name: 'a test the change declared that no run showed is unknown',
      baseline: run(0, [t(A, 'passed')]),
      after: run(0, [t(A, 'passed')]),
      touched: [{ file: 'test/new.test.js', path: ['parses 1h'] }],
      verdict: 'unknown',
      codes: ['changed-test-unseen'],
    },
    {
      name: 'a command that could not run is unknown, never a pass',
      baseline: run(127, [], { ran: false }),
      after: run(127, [], { ran: false }),
      verdict: 'unknown',
      codes: ['not-run', 'no-test-passed'],
    },
    {
      name: 'a non-zero exit that names no failing test is unknown',
      baseline: run(0, [t(A, 'passed')]),
      after: run(1, [t(A, 'passed')]),
      verdict: 'unknown',
      codes: ['exit-disagrees'],
    },
    {
      name: 'an exit 0 whose report names a failure is unknown',
      baseline: run(1, [t(A, 'passed'), t(OLD, 'failed')]),
      after: run(0, [t(A, 'passed'), t(OLD, 'failed')]),
      verdict: 'unknown',
      codes: ['exit-disagrees'],
    },
    {
      name: 'a run where no test passed is unknown even when it exits 0',
      baseline: run(0, []),
      after: run(0, []),
      verdict: 'unknown',
      codes: ['no-test-passed'],
    },
    {
      name: 'a timeout fails, whatever passed before it',
      baseline: run(0, [t(A, 'passed')]),
      after: run(null, [t(A, 'passed')], { timedOut: true, signal: 'SIGTERM' }),
      verdict: 'fail',
      codes: ['timed-out'],
    },
    {
      name: 'a changed test that was skipped was never seen passing',
      baseline: run(0, [t(A, 'passed')]),
      after: run(0, [t(A, 'passed'), t(NEW, 'skipped')]),
      verdict: 'unknown',
      codes: ['changed-test-unseen'],
    },
    {
      name: 'a new test file that did not load fails the change',
      baseline: run(0, [t(A, 'passed')]),
      after: run(1, [t(A, 'passed')], { loadErrors: [{ file: 'test/new.test.js', message: 'SyntaxError' }] }),
      touched: [{ file: 'test/new.test.js', path: ['parses 1h'] }],
      verdict: 'fail',
      codes: ['changed-test-failed'],
    },
    {
      name: 'a parametrized pytest case with spaces in its id is judged by its id',
      baseline: run(0, [
        t('tests/test_p.py::test_parse[1 h]', 'passed', 'tests/test_p.py'),
        t('tests/test_p.py::test_parse[90 m]', 'passed', 'tests/test_p.py'),
      ]),
      after: run(1, [
        t('tests/test_p.py::test_parse[1 h]', 'failed', 'tests/test_p.py'),
        t('tests/test_p.py::test_parse[90 m]', 'passed', 'tests/test_p.py'),
      ]),
      verdict: 'fail',
      codes: ['baseline-test-failed'],
    },
  ];

  it.each(rows)('$name', ({ baseline, after, touched, verdict, codes }) => {
    const j = judge({ baseline, run: after, touched: touched ?? [] });
    expect(j.verdict).toBe(verdict);
    expect(j.reasons.map((r) => r.code)).toEqual(codes);
  });

  it('names the tests of each reason and lists the change’s tests by id', () => {
    const j = judge({
      baseline: run(1, [t(A, 'passed'), t(B, 'passed'), t(OLD, 'failed')]),
      run: run(1, [t(A, 'passed'), t(B, 'failed'), t(OLD, 'failed'), t(NEW, 'passed')]),
      touched: [{ file: 'test/new.test.js', path: ['parses 1h'] }],
    });
    expect(j).toMatchObject({
      verdict: 'fail',
      failingTests: [OLD, B].sort(),
      newFailures: [B],
      baselineFailures: [OLD],
      changedTests: [NEW],
      addedTestsFailing: [],
    });
    expect(j.reasons[0]).toMatchObject({ code: 'baseline-test-failed', tests: [B] });
  });
});
