import { describe, expect, it } from 'vitest';
import { foldJob, type JobSnapshot } from '../../src/machines/fold.js';
import { progressStages, renderProgress } from '../../src/views/progress-render.js';
import { jobContext } from '../forges/github/sim-fixture.js';
import { harness } from '../support/job-harness.js';
import type { Script } from '../support/scripted-effects.js';

async function log(script: Script) {
  const h = harness(script);
  const r = await h.request();
  if (r.outcome !== 'created') throw new Error(r.outcome);
  await h.supervisor.whenFinished(r.jobId);
  return h.store.readStream(r.jobId);
}

const checklist = (s: Pick<JobSnapshot, 'value' | 'context'>) =>
  progressStages(s).map((st) => `${st.mark} ${st.label}${st.detail ? ` — ${st.detail}` : ''}`);

describe('renderProgress', () => {
  it('shows the refinement attempt, what is done and what is ahead', async () => {
    const events = await log({ tests: [false, true] });
    const at = events.findIndex((e) => e.state === 'refining');
    const snapshot = foldJob(events.slice(0, at + 1));

    expect(checklist(snapshot)).toEqual([
      'done Prepare the workspace — from `main`',
      'done Run the tests before the change — all passing (1 test: 1 passed, 0 failed, 0 skipped)',
      'done Analyze the issue',
      'running Refine the change — attempt 2 of 3',
      'pending Run the tests — last run: 1 failing (2 tests: 1 passed, 1 failed, 0 skipped)',
      'pending Open a draft pull request',
      'pending Mark it ready for review',
    ]);
    expect(renderProgress(snapshot)).toContain('### ⏳ booty is working on this issue');
  });

  it('on a failed step names it in words, with the error and the branch', async () => {
    const events = await log({ outcomes: { analyze: ['permanent'] } });
    const snapshot = foldJob(events);
    const text = renderProgress(snapshot);

    expect(checklist(snapshot).slice(1, 4)).toEqual([
      'done Run the tests before the change — all passing (1 test: 1 passed, 0 failed, 0 skipped)',
      'failed Analyze the issue',
      'skipped Generate the change',
    ]);
    expect(text).toContain('### ❌ booty could not finish this issue');
    // The step in words, once: the machine's name for it is not what a maintainer reads.
    expect(text).toContain('\n\nAnalyzing the issue failed (`BOOTY_E_EFFECT_FAILED`): simulated 401\n\n');
    expect(text.match(/failed \(`BOOTY_E_EFFECT_FAILED`\)/g)).toHaveLength(1);
    expect(text).not.toMatch(/`analyze`|effect analyze/);
    expect(text).toContain('**Branch:** `booty/issue-1-add-an-add-function`');
  });

  it('marks where a cancelled job stood', () => {
    const context = jobContext({
      workspace: { baseSha: 'a'.repeat(40), defaultBranch: 'main' },
      attempt: 1,
      attempts: [
        {
          n: 1,
          explanation: '',
          proposed: [],
          files: ['a.js'],
          rejected: [],
          addedTests: [],
          applied: true,
          test: null,
        },
      ],
      outcome: { reason: 'unlabeled', message: 'Cancelled: the trigger label was removed (by octocat).' },
    });
    const snapshot = { value: 'cancelled', context } as unknown as JobSnapshot;
    expect(checklist(snapshot).slice(3)).toEqual([
      'done Generate the change — attempt 1 of 3',
      'cancelled Run the tests',
      'skipped Open a draft pull request',
      'skipped Mark it ready for review',
    ]);
    expect(renderProgress(snapshot)).toContain('Cancelled: the trigger label was removed (by octocat).');
  });

  it('keeps the first attempt’s failure, collapsed, while the second is under way and after it passed', async () => {
    const events = await log({ tests: [false, true] });
    const refining = renderProgress(
      foldJob(events.slice(0, events.findIndex((e) => e.state === 'refining') + 1)),
    );
    const done = renderProgress(foldJob(events));
    const failure = [
      '**Attempt 1 of 3:** ❌ 1 test failed (2 tests: 1 passed, 1 failed, 0 skipped) in 5 ms · changed `src/index.js`, `test/index.test.js`',
      '<details><summary>What failed in attempt 1: 1 failing test</summary>',
      '`adds numbers (attempt 1)`',
      '```\nexpected true, got false\n```',
      '</details>',
    ].join('\n\n');

    expect(refining).toContain(`#### Attempts\n\n${failure}\n\n<sub>`);
    expect(done).toContain(
      `#### Attempts\n\n${failure}\n\n**Attempt 2 of 3:** ✅ passed (1 test: 1 passed, 0 failed, 0 skipped) in 5 ms`,
    );
  });

  it('names a step it retries in words', async () => {
    const events = await log({ outcomes: { runBaseline: ['transient'] } });
    const retrying = foldJob(events.slice(0, events.findIndex((e) => e.type === 'StepFailed') + 1));
    expect(renderProgress(retrying)).toContain(
      '**Retrying:** running the tests before the change failed (retry 1 of 5): simulated 503',
    );
  });

  it('links to the job view when there is one, and says nothing of it otherwise', async () => {
    const snapshot = foldJob(await log({}));
    const url = 'https://booty.example.com/jobs/j-1/view';
    expect(renderProgress(snapshot, { jobViewUrl: url })).toContain(
      `  \n**Every step, live:** [the job view](${url})\n\n`,
    );
    expect(renderProgress(snapshot)).not.toContain('job view');
    expect(renderProgress(snapshot, { jobViewUrl: null })).toBe(renderProgress(snapshot));
  });

  it('shows the steps in words, not the machine’s diagram', async () => {
    const text = renderProgress(foldJob(await log({})));
    expect(text).toMatch(/- ✅ Mark it ready for review\n\n\*\*Pull request:\*\*/);
    expect(text).not.toContain('mermaid');
    expect(text).not.toMatch(/stateDiagram|invoke |\[canRetry\]|state `/);
  });
});
