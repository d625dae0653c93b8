import { describe, expect, it } from 'vitest';
import type { TestRun } from '../../src/events/effect-results.js';
import type { AttemptRecord } from '../../src/machines/job-context.js';
import { judge } from '../../src/sandbox/test-verdict.js';
import { renderPrBody } from '../../src/views/pr-body.js';
import { renderProgress } from '../../src/views/progress-render.js';
import { sampleJobView } from '../support/job-harness.js';
import { testRun } from '../support/scripted-effects.js';

// booty.yml's `gate: exit-code`: a change whose tests exit 0 passes where booty reads no result,
// and the PR body and the progress comment say that it rests on the exit status alone.

function jobWith(gate: 'tests' | 'exit-code') {
  const facts = { ran: true, exitCode: 0, signal: null, timedOut: false, cases: [], loadErrors: [] };
  const judged = judge({ baseline: { cases: [], loadErrors: [] }, run: facts, touched: [], gate });
  const test: TestRun = {
    ...testRun(true),
    at: 1,
    ...facts,
    totals: { total: 0, passed: 0, failed: 0, errored: 0, skipped: 0 },
    ...judged,
    passed: judged.verdict === 'pass',
  };
  const attempt: AttemptRecord = {
    n: 1,
    explanation: 'Adds the option.',
    proposed: [],
    files: ['index.js'],
    rejected: [],
    addedTests: [],
    applied: true,
    test,
  };
  return sampleJobView(
    {},
    { baseline: { ...test, changedTests: [] }, attempt: 1, attempts: [attempt], lastTest: test },
  );
}

describe('weak evidence', () => {
  it('the PR body and the comment say a pass rests on the exit status alone, which is never the default', () => {
    const job = jobWith('exit-code');
    expect(job.lastTest).toMatchObject({ verdict: 'pass', evidence: 'exit-code' });
    const body = renderPrBody(job);
    expect(body).toContain('| Result | ✅ passed on the exit status alone (weak evidence) |');
    expect(body).toContain(
      '> [!WARNING]\n> **Weak evidence.** `.github/booty.yml` says `gate: exit-code`, so this change passed because its test command exited 0. booty could not see its tests pass (no test was seen passing after the change).',
    );
    expect(body).toContain('Closes #');
    const comment = renderProgress({ value: 'promoted', context: job });
    expect(comment).toContain('Run the tests — passed on the exit status alone (weak evidence) in');
    expect(comment).toContain('**Weak evidence.**');
    // Never the default: the same run without the gate is not proven.
    const strict = jobWith('tests');
    expect(strict.lastTest).toMatchObject({ verdict: 'unknown', passed: false });
    expect(renderPrBody(strict)).not.toContain('Weak evidence');
  });
});
