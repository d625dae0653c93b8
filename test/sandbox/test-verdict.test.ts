import { describe, expect, it } from 'vitest';
import { judge, type RunFacts } from '../../src/sandbox/test-verdict.js';

const run = (
  exitCode: number | null,
  failingTests: string[] = [],
  extra: Partial<RunFacts> = {},
): RunFacts => ({
  exitCode,
  signal: null,
  timedOut: false,
  failingTests,
  ...extra,
});
const unnamedFailure = '`npm test` exited with 1 and its output names no failing test';

describe('judge', () => {
  const cases: {
    name: string;
    run: RunFacts;
    baseline: RunFacts | null;
    addedTests?: string[];
    goModule?: string;
    expected: { passed: boolean; newFailures: string[]; addedTestsFailing: string[] };
  }[] = [
    {
      name: 'a clean run passes',
      run: run(0),
      baseline: run(0),
      addedTests: ['test/add.test.js'],
      expected: { passed: true, newFailures: [], addedTestsFailing: [] },
    },
    {
      name: 'failures the baseline already had do not count',
      run: run(1, ['test/old.test.js > flaky']),
      baseline: run(1, ['test/old.test.js > flaky']),
      expected: { passed: true, newFailures: [], addedTestsFailing: [] },
    },
    {
      name: 'a failure the baseline did not have is new',
      run: run(1, ['test/old.test.js > flaky', 'test/old.test.js > sums']),
      baseline: run(1, ['test/old.test.js > flaky']),
      expected: { passed: false, newFailures: ['test/old.test.js > sums'], addedTestsFailing: [] },
    },
    {
      name: 'an added test that fails fails the run',
      run: run(1, ['test/add.test.js > add > adds']),
      baseline: run(0),
      addedTests: ['test/add.test.js', 'test/other.test.js'],
      expected: {
        passed: false,
        newFailures: ['test/add.test.js > add > adds'],
        addedTestsFailing: ['test/add.test.js'],
      },
    },
    {
      name: 'pytest node ids belong to their file',
      run: run(1, ['tests/test_add.py::test_adds']),
      baseline: run(0),
      addedTests: ['tests/test_add.py'],
      expected: {
        passed: false,
        newFailures: ['tests/test_add.py::test_adds'],
        addedTestsFailing: ['tests/test_add.py'],
      },
    },
    {
      name: 'go failures belong to the test files of their package',
      run: run(1, ['example.com/calc/sub > TestAdd']),
      baseline: run(0),
      addedTests: ['sub/add_test.go', 'add_test.go'],
      goModule: 'example.com/calc',
      expected: {
        passed: false,
        newFailures: ['example.com/calc/sub > TestAdd'],
        addedTestsFailing: ['sub/add_test.go'],
      },
    },
    {
      name: 'a non-zero exit naming no test is a failure, added tests included',
      run: run(1),
      baseline: run(0),
      addedTests: ['test/add.test.js'],
      expected: { passed: false, newFailures: [unnamedFailure], addedTestsFailing: ['test/add.test.js'] },
    },
    {
      name: 'a non-zero exit naming no test is not new when the baseline failed the same way',
      run: run(2),
      baseline: run(2),
      expected: { passed: true, newFailures: [], addedTestsFailing: [] },
    },
    {
      name: 'but a different unnamed failure than the baseline is new',
      run: run(1),
      baseline: run(2),
      expected: { passed: false, newFailures: [unnamedFailure], addedTestsFailing: [] },
    },
    {
      name: 'a timeout fails even when the failures it named were known',
      run: run(null, ['test/old.test.js > flaky'], { timedOut: true, signal: 'SIGKILL' }),
      baseline: run(1, ['test/old.test.js > flaky']),
      expected: { passed: false, newFailures: [unnamedFailure], addedTestsFailing: [] },
    },
    {
      name: 'without a baseline every failure is new',
      run: run(1, ['a.test.js > x']),
      baseline: null,
      expected: { passed: false, newFailures: ['a.test.js > x'], addedTestsFailing: [] },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const verdict = judge({
        run: c.run,
        baseline: c.baseline,
        addedTests: c.addedTests ?? [],
        unnamedFailure,
        goModule: c.goModule,
      });
      expect(verdict).toEqual({ ...c.expected, baselineFailures: c.baseline?.failingTests ?? [] });
    });
  }
});
