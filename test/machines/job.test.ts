import { describe, expect, it } from 'vitest';
import type { JobChange } from '../../src/engine/job-runner.js';
import { maxAttemptsOf } from '../../src/machines/job-context.js';
import { jobStates, stateName } from '../../src/machines/job-states.js';
import { harness } from '../support/job-harness.js';
import type { Script } from '../support/scripted-effects.js';

// The job machine through every path, live, with scripted effects over a real SQLite log.

async function runJob(
  script: Script,
  options: {
    settings?: Record<string, unknown>;
    onChange?: (c: JobChange, h: ReturnType<typeof harness>) => void;
  } = {},
) {
  const states: string[] = [];
  let h!: ReturnType<typeof harness>;
  h = harness(script, {
    settings: options.settings,
    observers: [
      {
        changed: (c) => {
          states.push(stateName(c.snapshot));
          options.onChange?.(c, h);
        },
      },
    ],
  });
  const r = await h.request();
  if (r.outcome !== 'created') throw new Error(`expected a job, got ${r.outcome}`);
  const snapshot = await h.supervisor.whenFinished(r.jobId);
  const events = await h.store.readStream(r.jobId);
  return { h, jobId: r.jobId, snapshot, states, events, keys: [...h.effects.log] };
}

const distinct = (xs: string[]) => xs.filter((x, i) => x !== xs[i - 1]);

describe('job machine', () => {
  it('given tests that pass at once, then the PR is opened and promoted after one attempt', async () => {
    const { h, snapshot, states, keys, jobId } = await runJob({});
    expect(snapshot.value).toBe('promoted');
    expect(snapshot.context.attempt).toBe(1);
    expect(snapshot.context.pr).toMatchObject({ number: 7, draft: false });
    expect(snapshot.context.outcome?.reason).toBe('tests-passed');
    expect(distinct(states)).toEqual([
      'preparing',
      'baselining',
      'analyzing',
      'generating',
      'applying',
      'testing',
      'openingPr',
      'promoting',
      'promoted',
    ]);
    // It waits with its PR, parked: not finished, and holding no slot.
    expect(snapshot.status).toBe('active');
    expect(h.supervisor.running).toEqual([]);
    expect(keys).toEqual(
      [
        'prepare:0',
        'runBaseline:0',
        'analyze:0',
        'generate:1',
        'applyChanges:1',
        'runTests:1',
        'openPr:1',
        `promotePr:1:${'b'.repeat(40)}`,
      ].map((k) => `${jobId}:${k}`),
    );
  });

  it('given a first attempt that fails the tests, then it refines with the failure and is promoted after two', async () => {
    const { snapshot, keys, jobId } = await runJob({ tests: [false, true] });
    expect(snapshot.value).toBe('promoted');
    expect(snapshot.context.attempt).toBe(2);
    expect(keys).toContain(`${jobId}:refine:2`);
    expect(snapshot.context.attempts.map((a) => [a.n, a.test?.passed])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(snapshot.context.attempts[0]!.test?.failingTests).toEqual(['adds numbers (attempt 1)']);
  });

  it('given tests that never pass, then after maxAttempts the work goes up as a draft PR that waits for a human', async () => {
    const { snapshot, keys, states } = await runJob({ tests: [false, false, false], maxAttempts: 3 });
    expect(snapshot.value).toBe('prOpened');
    expect(snapshot.context.attempt).toBe(3);
    expect(snapshot.context.attempts).toHaveLength(3);
    expect(snapshot.context.pr).toMatchObject({ number: 7, draft: true });
    expect(snapshot.context.outcome?.reason).toBe('tests-failing');
    expect(keys.filter((k) => k.includes(':runTests:'))).toHaveLength(3);
    expect(keys.some((k) => k.includes(':promotePr:'))).toBe(false);
    expect(states.filter((s) => s === 'refining')).toHaveLength(2);
  });

  it('reads maxAttempts from the repository config, not the default', async () => {
    // stallAfter 4: five attempts that never improve are not stopped early.
    const { snapshot } = await runJob({
      tests: [false, false, false, false, false],
      maxAttempts: 5,
      config: { stallAfter: 4 },
    });
    expect(maxAttemptsOf(snapshot.context)).toBe(5);
    expect(snapshot.context.attempt).toBe(5);
  });

  it('given a transient failure, then the step is retried after a backoff and the job goes on', async () => {
    const { snapshot, events, keys, jobId } = await runJob({
      outcomes: { analyze: ['transient', 'transient'] },
    });
    expect(snapshot.value).toBe('promoted');
    expect(keys.filter((k) => k === `${jobId}:analyze:0`)).toHaveLength(3);
    const errors = events.filter((e) => e.type === 'StepFailed' && e.data.step === 'analyze');
    expect(errors).toHaveLength(2);
    expect(errors.map((e) => e.state)).toEqual(['analyzing', 'analyzing']);
    expect(snapshot.context.error).toBeNull();
  });

  it('given transient failures beyond maxRetries, then the job stops naming the step, its work up as a draft', async () => {
    const { snapshot } = await runJob(
      { outcomes: { runTests: ['transient', 'transient', 'transient'] } },
      { settings: { maxRetries: 2 } },
    );
    expect(snapshot.value).toBe('prOpened');
    expect(snapshot.context.error).toMatchObject({ step: 'runTests', code: 'BOOTY_E_EFFECT_TRANSIENT' });
    expect(snapshot.context.outcome?.reason).toBe('error');
  });

  it('given a permanent failure, then the job fails at once without retrying', async () => {
    const { snapshot, keys, jobId } = await runJob({ outcomes: { openPr: ['permanent'] } });
    expect(snapshot.value).toBe('failed');
    expect(keys.filter((k) => k === `${jobId}:openPr:1`)).toHaveLength(1);
    expect(snapshot.context.error).toMatchObject({ step: 'openPr', code: 'BOOTY_E_EFFECT_FAILED' });
    expect(snapshot.context.outcome?.message).toContain('simulated 401');
  });

  it('given an attempt whose every change is rejected, then the rejections are recorded and it refines', async () => {
    const { snapshot, states } = await runJob({ rejectAttempts: [1] });
    expect(snapshot.value).toBe('promoted');
    expect(snapshot.context.attempts[0]).toMatchObject({ n: 1, files: [], test: null });
    expect(snapshot.context.attempts[0]!.rejected.map((r) => r.rule)).toEqual(['protected', 'protected']);
    expect(distinct(states).slice(4, 7)).toEqual(['applying', 'refining', 'applying']);
  });

  it('given no change is ever applied, then the job fails with no PR', async () => {
    const { snapshot, keys } = await runJob({ rejectAttempts: [1, 2, 3] });
    expect(snapshot.value).toBe('failed');
    expect(snapshot.context.outcome?.reason).toBe('no-changes');
    expect(snapshot.context.pr).toBeNull();
    expect(keys.some((k) => k.includes(':openPr:'))).toBe(false);
  });

  it('given a self-modification, then the PR stays draft for a human', async () => {
    const { snapshot, keys } = await runJob({}, { settings: {} });
    expect(snapshot.value).toBe('promoted');
    const self = await (async () => {
      const h = harness({}, { isSelf: () => true });
      const r = await h.request();
      if (r.outcome !== 'created') throw new Error(r.outcome);
      return { snap: await h.supervisor.whenFinished(r.jobId), keys: h.effects.log };
    })();
    expect(self.snap.value).toBe('prOpened');
    expect(self.snap.context.outcome?.reason).toBe('self-modification');
    expect(self.snap.context.pr?.draft).toBe(true);
    expect(self.keys.some((k) => k.includes(':promotePr:'))).toBe(false);
    expect(keys.some((k) => k.includes(':promotePr:'))).toBe(true);
  });

  it('given a promotion that fails, then the job waits with its draft, not failed', async () => {
    const { snapshot } = await runJob({ outcomes: { promotePr: ['permanent'] } });
    expect(snapshot.value).toBe('prOpened');
    expect(snapshot.context.outcome?.reason).toBe('promotion-failed');
    expect(snapshot.context.pr?.draft).toBe(true);
  });

  it('given a token budget, when a model step goes over it, then the job parks at its budget', async () => {
    const { snapshot, keys } = await runJob({ tokensPerCall: 600 }, { settings: { maxTokens: 1000 } });
    expect(snapshot.value).toBe('budgetExhausted');
    expect(snapshot.context.outcome).toBeNull();
    expect(snapshot.context.usage.inputTokens).toBe(1200);
    expect(keys.some((k) => k.includes(':applyChanges:'))).toBe(false);
  });

  // The states a job passes through on its way to its PR (the conversation's own are in the
  // crash suite and the decider tables).
  // The plan, the budget and escalation are not on this path: their cancels are in the crash suite.
  const offPath = ['postingPlan', 'awaitingApproval', 'budgetExhausted', 'escalating'];
  const cancellable = jobStates
    .slice(0, jobStates.indexOf('promoting') + 1)
    .filter((s) => !offPath.includes(s));
  it.each(cancellable)(
    'given a cancel while %s, then the job ends cancelled and nothing after it runs',
    async (state) => {
      const script: Script = { delayMs: 20, tests: [false, true] };
      let cancelledAt = -1;
      let startedBeforeCancel = -1;
      const { snapshot, keys, events } = await runJob(script, {
        onChange: (c, h) => {
          if (cancelledAt < 0 && stateName(c.snapshot) === state) {
            cancelledAt = c.version;
            setTimeout(() => {
              startedBeforeCancel = h.effects.log.length;
              void h.supervisor.cancel(c.jobId, { reason: 'unlabeled', sender: 'octocat' });
            }, 5);
          }
        },
      });
      expect(snapshot.value).toBe('cancelled');
      expect(snapshot.context.outcome).toMatchObject({ reason: 'unlabeled' });
      const last = events[events.length - 1]!;
      expect(last.type).toBe('JobCancelled');
      expect(last.state).toBe('cancelled');
      // No effect result was logged after the cancel, and no effect started after it.
      expect(events.filter((e) => e.type.startsWith('Step')).length).toBe(cancelledAt - 1);
      expect(keys.length).toBe(startedBeforeCancel);
    },
  );

  it('given a cancel while it waits with its PR, then the parked job is folded, cancelled and ends', async () => {
    const { h, jobId, snapshot } = await runJob({});
    expect(snapshot.value).toBe('promoted');
    expect(await h.supervisor.cancel(jobId, { reason: 'closed', sender: 'octocat' })).toBe('cancelled');
    const after = await h.supervisor.whenFinished(jobId);
    expect(after.value).toBe('cancelled');
    expect((await h.store.getJob(jobId))?.final).toBe(true);
  });

  it('given a review on its promoted PR, then the parked job wakes, runs a round and waits again', async () => {
    const { h, jobId, keys: before } = await runJob({});
    const delivery = { id: 'd-review', event: 'pull_request_review', action: 'submitted' };
    const woke = await h.intake.submit(delivery, {
      kind: 'wake',
      repo: { forge: 'github' as const, owner: 'acme', name: 'widgets' },
      target: { pr: 7 },
      event: {
        type: 'FeedbackReceived',
        place: 'review',
        author: 'reviewer',
        body: 'Handle negative numbers too.',
        commentId: 501,
        comments: [],
        mention: false,
      },
    });
    expect(woke).toEqual({ outcome: 'woke', jobId });
    await h.supervisor.onIdle();
    const after = await h.supervisor.whenFinished(jobId);
    expect(after.value).toBe('promoted');
    expect(after.context.conversation.rounds).toMatchObject([
      { n: 1, firstAttempt: 2, result: 'pushed', commit: '1'.padStart(40, 'd') },
    ]);
    expect(h.effects.log.slice(before.length)).toEqual(
      ['syncBranch:1:r1', 'generate:2', 'applyChanges:2', 'runTests:2', 'answerRound:2:r1'].map(
        (k) => `${jobId}:${k}`,
      ),
    );
    // The same delivery again changes nothing.
    expect(
      await h.intake.submit(delivery, {
        kind: 'wake',
        repo: { forge: 'github' as const, owner: 'acme', name: 'widgets' },
        target: { pr: 7 },
        event: { type: 'PrClosed', merged: true, sender: 'x' },
      }),
    ).toEqual({ outcome: 'duplicate' });
  });

  it('given news the job already has (an echo of its own promotion, CI on an old commit), then nothing is logged', async () => {
    const { h, jobId, events } = await runJob({});
    const repo = { forge: 'github' as const, owner: 'acme', name: 'widgets' };
    const echo = await h.intake.submit(
      { id: 'd-ready', event: 'pull_request', action: 'ready_for_review' },
      {
        kind: 'wake',
        repo,
        target: { pr: 7 },
        event: {
          type: 'PrUpdated',
          action: 'ready_for_review',
          headSha: null,
          draft: false,
          sender: 'booty',
        },
      },
    );
    const oldCi = await h.intake.submit(
      { id: 'd-ci', event: 'check_suite', action: 'completed' },
      {
        kind: 'wake',
        repo,
        target: { pr: 7 },
        event: { type: 'CiCompleted', headSha: 'e'.repeat(40), source: 'check_suite', conclusion: 'success' },
      },
    );
    expect([echo, oldCi]).toEqual([
      { outcome: 'ignored', reason: 'nothing new for the job' },
      { outcome: 'ignored', reason: 'nothing new for the job' },
    ]);
    expect(await h.store.readStream(jobId)).toHaveLength(events.length);
  });
});
