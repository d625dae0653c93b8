import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../src/events/effect-results.js';
import type { TouchedTest } from '../../src/sandbox/changed-tests.js';
import { judge, type RunFacts } from '../../src/sandbox/test-verdict.js';

// The verdict as a table: given the baseline and a run after the change, then this verdict and
// these reasons. See test-verdict.property.unit.test.ts for the rule over random runs.

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

/** An entry for a whole file, as a runner that reports files (uvu) gives it: `lite.js (5 / 5)`. */
const file = (path: string, passed: number, failed = 0, skipped = 0): TestCase => ({
  id: path,
  file: path,
  name: path,
  status: failed > 0 ? 'failed' : skipped > 0 && passed === 0 ? 'skipped' : 'passed',
  durationMs: null,
  message: failed > 0 ? `${failed} of ${passed + failed} failed` : null,
  scope: 'file',
  counts: { passed, failed, skipped },
});

describe('judge, where the runner reports files', () => {
  // clsx at the parent of `feat: add clsx/lite module`: uvu printed `classnames.js (15 / 15)` and
  // `index.js (12 / 12)`, then `lite.js (5 / 5)` after the change.
  const CLSX = [file('test/classnames.js', 15), file('test/index.js', 12)];
  const lite: TouchedTest[] = [
    { file: 'test/lite.js', path: ['strings'] },
    { file: 'test/lite.js', path: ['objects'] },
  ];
  const rows: {
    name: string;
    baseline: TestCase[];
    after: TestCase[];
    exit?: number;
    touched?: TouchedTest[];
    verdict: 'pass' | 'fail' | 'unknown';
    codes: string[];
    changed?: string[];
  }[] = [
    {
      name: 'a test file the change added, all of its tests passing, is seen: the change passes',
      baseline: CLSX,
      after: [...CLSX, file('test/lite.js', 5)],
      touched: lite,
      verdict: 'pass',
      codes: [],
      changed: ['test/lite.js'],
    },
    {
      name: 'an added file with one test failing fails the change',
      baseline: CLSX,
      after: [...CLSX, file('test/lite.js', 4, 1)],
      exit: 1,
      touched: lite,
      verdict: 'fail',
      codes: ['changed-test-failed'],
      changed: ['test/lite.js'],
    },
    {
      name: 'a modified file with a test skipped is not all seen passing: unknown',
      baseline: CLSX,
      after: [file('test/classnames.js', 15), file('test/index.js', 12, 0, 1)],
      touched: [{ file: 'test/index.js', path: ['toggles'] }],
      verdict: 'unknown',
      codes: ['changed-test-unseen'],
      changed: ['test/index.js'],
    },
    {
      name: 'a file that passed on the baseline and shows a failure now fails the change',
      baseline: CLSX,
      after: [file('test/classnames.js', 14, 1), file('test/index.js', 12), file('test/lite.js', 5)],
      exit: 1,
      touched: lite,
      verdict: 'fail',
      codes: ['baseline-test-failed'],
    },
    {
      name: 'a file with fewer tests passing than before fails the change, though none fails',
      baseline: CLSX,
      after: [file('test/classnames.js', 14), file('test/index.js', 12)],
      verdict: 'fail',
      codes: ['baseline-test-missing'],
    },
    {
      name: 'a file the baseline already failed in does not block, as long as no more of it fails',
      baseline: [file('test/classnames.js', 14, 1), file('test/index.js', 12)],
      after: [file('test/classnames.js', 14, 1), file('test/index.js', 12), file('test/lite.js', 5)],
      exit: 1,
      touched: lite,
      verdict: 'pass',
      codes: [],
    },
    {
      name: 'a file that went missing after the change fails it',
      baseline: CLSX,
      after: [file('test/classnames.js', 15), file('test/lite.js', 5)],
      touched: lite,
      verdict: 'fail',
      codes: ['baseline-test-missing'],
    },
  ];

  it('judges each file by its counts: seen when all of its tests passed, and no fewer passing than before', () => {
    for (const { name, baseline, after, exit, touched, verdict, codes, changed } of rows) {
      const j = judge({ baseline: run(0, baseline), run: run(exit ?? 0, after), touched: touched ?? [] });
      expect({ verdict: j.verdict, codes: j.reasons.map((r) => r.code) }, name).toEqual({ verdict, codes });
      if (changed) expect(j.changedTests, name).toEqual(changed);
    }
  });
});
