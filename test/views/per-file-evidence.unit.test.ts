import { describe, expect, it } from 'vitest';
import type { TestCase, TestRun } from '../../src/events/effect-results.js';
import type { AttemptRecord } from '../../src/machines/job-context.js';
import { totalsOf } from '../../src/sandbox/reports/case-list.js';
import { judge } from '../../src/sandbox/test-verdict.js';
import { renderPrBody } from '../../src/views/pr-body.js';
import { renderProgress } from '../../src/views/progress-render.js';
import { sampleJobView } from '../support/job-harness.js';

// A runner that reports files, not tests (uvu): the PR body and the progress comment count its
// tests, not its files, and say that the evidence is per file. clsx's shape: 27 tests in two files
// on the base, and a third file of 5 tests added by the change.

const file = (path: string, passed: number): TestCase => ({
  id: path,
  file: path,
  name: path,
  status: 'passed',
  durationMs: null,
  message: null,
  scope: 'file',
  counts: { passed, failed: 0, skipped: 0 },
});

function run(cases: TestCase[], judged: Partial<TestRun> = {}): TestRun {
  return {
    at: 1,
    command: 'npm test',
    ran: true,
    exitCode: 0,
    signal: null,
    timedOut: false,
    durationMs: 310,
    outputTail: 'Total:     32\nPassed:    32',
    source: 'uvu',
    cases,
    loadErrors: [],
    totals: totalsOf(cases),
    broken: null,
    verdict: 'pass',
    reasons: [],
    passed: true,
    failingTests: [],
    newFailures: [],
    baselineFailures: [],
    changedTests: [],
    addedTestsFailing: [],
    sandbox: 'bwrap',
    ...judged,
  };
}

function clsxJob() {
  const baseline = run([file('test/classnames.js', 15), file('test/index.js', 12)]);
  const cases = [...baseline.cases, file('test/lite.js', 5)];
  const judged = judge({
    baseline,
    run: { ...baseline, cases },
    touched: [{ file: 'test/lite.js', path: ['strings'] }],
  });
  const test = run(cases, { ...judged, passed: judged.verdict === 'pass' });
  const attempt: AttemptRecord = {
    n: 1,
    explanation: 'Adds clsx/lite.',
    proposed: [],
    files: ['src/lite.js', 'test/lite.js'],
    rejected: [],
    addedTests: ['test/lite.js'],
    applied: true,
    test,
  };
  return sampleJobView(
    {},
    {
      baseline,
      attempt: 1,
      attempts: [attempt],
      lastTest: test,
      changes: [{ path: 'src/lite.js', content: '' }],
      workspace: { baseSha: 'a'.repeat(40), defaultBranch: 'main' },
    },
  );
}

describe('evidence read per file', () => {
  it('the PR body counts tests, not files, names the added file with its count, and says the evidence is per file', () => {
    const job = clsxJob();
    expect(job.lastTest!.verdict).toBe('pass');
    const body = renderPrBody(job);
    expect(body).toContain(
      '| After the change | 32 tests: 32 passed, 0 failed, 0 skipped, counted per file; exited 0 in 310 ms |',
    );
    expect(body).toContain(
      '| Before the change | 27 tests: 27 passed, 0 failed, 0 skipped, counted per file; exited 0 |',
    );
    expect(body).toContain(
      'The evidence is per file: the test runner reports how many tests of each file passed, not each test by name.',
    );
    expect(body).toContain(
      'Tests this change added or modified:\n- `test/lite.js` (the whole file: 5 tests, 5 passed)',
    );
  });

  it('the progress comment counts the tests per file too', () => {
    const job = clsxJob();
    const text = renderProgress({ value: 'openingPr', context: job });
    expect(text).toContain(
      'Run the tests — passed in 310 ms (32 tests: 32 passed, 0 failed, 0 skipped, counted per file)',
    );
    expect(text).toContain('all passing (27 tests: 27 passed, 0 failed, 0 skipped, counted per file)');
  });
});
