import { describe, expect, it } from 'vitest';
import type { QualityRun, TestRun } from '../../src/events/effect-results.js';
import type { JobSnapshot } from '../../src/machines/fold.js';
import type { AttemptRecord, JobContext } from '../../src/machines/job-context.js';
import { renderPrBody } from '../../src/views/pr-body.js';
import { progressStages, renderProgress } from '../../src/views/progress-render.js';
import { jobContext } from '../forges/github/sim-fixture.js';
import { testRun } from '../support/scripted-effects.js';

// A draft whose tests pass and whose quality command holds it back is told as that, in the
// progress comment as in the PR body: the command that failed, not "failed" or "the tests still fail".

const lint = (over: Partial<QualityRun> = {}): QualityRun => ({
  command: 'npm run lint',
  exitCode: 1,
  timedOut: false,
  durationMs: 3,
  findings: ['src/index.js: no-var', 'src/index.js: eqeqeq'],
  outputTail: 'src/index.js:1:1 no-var\nsrc/index.js:2:5 eqeqeq',
  verdict: 'fail',
  reason: 'passed on the base commit and exited 1 after the change',
  newFindings: ['src/index.js: no-var', 'src/index.js: eqeqeq'],
  ...over,
});

/** Tests passed, a quality command blocks: the run does not pass (test-effects.ts). */
const heldRun = (quality: QualityRun[]): TestRun => ({
  ...testRun(true),
  at: 1,
  verdict: quality.some((q) => q.verdict === 'fail') ? 'fail' : 'unknown',
  passed: false,
  quality,
  failureClass: 'unknown',
});

const attempt = (n: number, test: TestRun): AttemptRecord => ({
  n,
  explanation: `attempt ${n}`,
  proposed: [],
  files: ['src/index.js'],
  rejected: [],
  addedTests: [],
  applied: true,
  test,
});

function draft(test: TestRun, outcome: JobContext['outcome']): Pick<JobSnapshot, 'value' | 'context'> {
  const context = jobContext({
    workspace: { baseSha: 'a'.repeat(40), defaultBranch: 'main' },
    baseline: { ...testRun(true), at: 0 },
    attempt: 2,
    attempts: [attempt(1, { ...testRun(false, ['adds numbers']), at: 1 }), attempt(2, test)],
    lastTest: test,
    changes: [{ path: 'src/index.js', content: 'var x = 1;\n' }],
    pr: {
      number: 7,
      url: 'http://x/acme/widgets/pull/7',
      nodeId: 'PR_7',
      draft: true,
      headSha: 'b'.repeat(40),
      at: 1,
      created: true,
    },
    outcome,
  });
  return { value: 'prOpened', context } as unknown as Pick<JobSnapshot, 'value' | 'context'>;
}

const failing = {
  reason: 'tests-failing' as const,
  message: 'The tests still fail after 2 of 3 attempts; the work is up as a draft pull request.',
};

describe('a draft held back by a quality command', () => {
  it('names the command in the headline, the outcome, the test stage and the attempt', () => {
    const snapshot = draft(heldRun([lint()]), failing);
    const text = renderProgress(snapshot);

    expect(text).toContain('### ⏸️ booty opened a draft pull request; a quality command holds it back\n\n');
    expect(text).toContain(
      '\n\nThe tests pass, but `npm run lint` fails with failures the base commit did not have after 2 of 3 attempts. The work is up as a draft pull request.\n\n',
    );
    expect(text).not.toContain('still fail');
    expect(progressStages(snapshot).find((s) => s.key === 'test')?.detail).toBe(
      'passed (1 test: 1 passed, 0 failed, 0 skipped); held back by quality: `npm run lint` found 2 new findings',
    );
    expect(text).toContain(
      '**Attempt 2 of 3:** ❌ held back by quality: `npm run lint` found 2 new findings; the tests passed (1 test: 1 passed, 0 failed, 0 skipped) in 5 ms · changed `src/index.js`\n\n' +
        '<details><summary>What failed in attempt 2: `npm run lint` found 2 new findings</summary>\n\n' +
        '`npm run lint` found what the base commit did not have:\n- `src/index.js: no-var`\n- `src/index.js: eqeqeq`\n\n</details>',
    );
    // The attempt whose tests failed is told as before.
    expect(text).toContain(
      '**Attempt 1 of 3:** ❌ 1 test failed (2 tests: 1 passed, 1 failed, 0 skipped) in 5 ms',
    );
  });

  it('tells a command booty could not judge apart from one that failed, with its reason and output', () => {
    const unknown = lint({
      command: 'npm run typecheck',
      verdict: 'unknown',
      reason: 'exited 2, and there is no run of it on the base commit to compare with',
      findings: [],
      newFindings: [],
      outputTail: 'error somewhere',
    });
    const snapshot = draft(heldRun([unknown]), failing);
    const text = renderProgress(snapshot);

    expect(text).toContain(
      '\n\nThe tests pass, but booty cannot tell whether `npm run typecheck` fails because of the change after 2 of 3 attempts. The work is up as a draft pull request.\n\n',
    );
    expect(text).toContain(
      '**Attempt 2 of 3:** ❔ held back by quality: `npm run typecheck` could not be judged; the tests passed',
    );
    expect(text).toContain(
      '<summary>What failed in attempt 2: `npm run typecheck` could not be judged</summary>\n\n`npm run typecheck` exited 2, and there is no run of it on the base commit to compare with. The end of its output:\n\n```\nerror somewhere\n```',
    );
  });

  it('says the same in the PR body as in the comment', () => {
    const { context } = draft(heldRun([lint()]), failing);
    expect(renderPrBody(context as JobContext)).toContain(
      '> [!CAUTION]\n> The tests pass, but `npm run lint` fails with failures the base commit did not have after 2 of 3 attempts. This draft holds the work so far',
    );
  });

  it('keeps a stall’s own words: the outcome says why the loop stopped', () => {
    const stalled = { reason: 'stalled' as const, message: 'The attempts stopped improving.' };
    const text = renderProgress(draft(heldRun([lint()]), stalled));
    expect(text).toContain('\n\nThe attempts stopped improving.\n\n');
    expect(text).toContain('### ⏸️ booty opened a draft pull request; its attempts stopped improving');
  });
});
