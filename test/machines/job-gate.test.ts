import { describe, expect, it } from 'vitest';
import { stateName } from '../../src/machines/job-states.js';
import { harness } from '../support/job-harness.js';
import type { Script } from '../support/scripted-effects.js';

// The gate's routes through the machine, live, with scripted effects over a real SQLite log:
// a broken baseline stops before the model, work is never silently lost, and a relabel after a
// finished job starts a fresh one on its own branch.

async function runJob(script: Script, settings: Record<string, unknown> = {}) {
  const h = harness(script, { settings });
  const r = await h.request();
  if (r.outcome !== 'created') throw new Error(`expected a job, got ${r.outcome}`);
  const snapshot = await h.supervisor.whenFinished(r.jobId);
  const states = (await h.store.readStream(r.jobId)).map((e) => e.state);
  const srcs = h.effects.log.map((k) => k.split(':')[1]);
  return { h, jobId: r.jobId, snapshot, states, srcs };
}

describe('the gate in the job machine', () => {
  it('given a baseline whose command cannot run, then the job fails before any request to the model', async () => {
    const { snapshot, srcs } = await runJob({ brokenBaseline: true });
    expect(stateName(snapshot)).toBe('failed');
    expect(snapshot.context.outcome?.reason).toBe('test-command-broken');
    expect(snapshot.context.outcome?.message).toContain('`npm test` does not work on the base branch');
    expect(srcs).toEqual(['prepare', 'runBaseline']);
  });

  it('given a step error after a change was applied, then the work goes up as a draft PR that waits', async () => {
    const { snapshot, srcs, states } = await runJob({ tests: [false], outcomes: { refine: ['permanent'] } });
    expect(stateName(snapshot)).toBe('prOpened');
    expect(srcs).toEqual([
      'prepare',
      'runBaseline',
      'analyze',
      'generate',
      'applyChanges',
      'runTests',
      'refine',
      'openPr',
    ]);
    expect(states.slice(-2)).toEqual(['openingPr', 'prOpened']);
    expect(snapshot.context.pr).toMatchObject({ number: 7, draft: true });
    expect(snapshot.context.outcome).toMatchObject({
      reason: 'error',
      message:
        'refine failed: effect refine failed: simulated 401 The work so far goes up as a draft pull request.',
    });
  });

  it('given a step error before any change, then no PR is opened', async () => {
    const { snapshot, srcs } = await runJob({ outcomes: { generate: ['permanent'] } });
    expect(stateName(snapshot)).toBe('failed');
    expect(srcs).not.toContain('openPr');
    expect(snapshot.context.pr).toBeNull();
  });

  it('given the budget runs out on a refinement, then the job parks with the refinement kept, unapplied', async () => {
    // Each call costs 100 tokens: analyze, generate, then the refine that crosses 250.
    const { snapshot, srcs } = await runJob({ tests: [false, true] }, { maxTokens: 250 });
    expect(stateName(snapshot)).toBe('budgetExhausted');
    expect(srcs.at(-1)).toBe('refine');
    expect(snapshot.context.attempts.at(-1)).toMatchObject({ n: 2, applied: false });
    expect(snapshot.context.pr).toBeNull();
  });

  it('given an unknown verdict on the last attempt, then the PR stays draft and the reason is tests-unknown', async () => {
    const { snapshot } = await runJob({ tests: [false], maxAttempts: 1, unknown: true });
    expect(stateName(snapshot)).toBe('prOpened');
    expect(snapshot.context.outcome?.reason).toBe('tests-unknown');
    expect(snapshot.context.outcome?.message).toContain('booty could not see the tests pass');
    expect(snapshot.context.pr?.draft).toBe(true);
  });
});

describe('a relabel after the job finished', () => {
  it('starts a fresh job on its own branch that links the earlier PR', async () => {
    const h = harness({});
    const first = await h.request();
    if (first.outcome !== 'created') throw new Error(first.outcome);
    const waiting = await h.supervisor.whenFinished(first.jobId);
    expect(stateName(waiting)).toBe('promoted');
    // While it waits with its PR the job is the active one; closed unmerged, it ends.
    expect((await h.request()).outcome).toBe('already-active');
    await h.intake.submit(
      { id: 'd-closed', event: 'pull_request', action: 'closed' },
      {
        kind: 'wake',
        repo: { forge: 'github' as const, owner: 'acme', name: 'widgets' },
        target: { pr: 7 },
        event: { type: 'PrClosed', merged: false, sender: 'octocat' },
      },
    );
    const done = await h.supervisor.whenFinished(first.jobId);
    expect(stateName(done)).toBe('closed');

    const second = await h.request();
    if (second.outcome !== 'created') throw new Error(second.outcome);
    expect(second.jobId).not.toBe(first.jobId);
    const again = await h.supervisor.whenFinished(second.jobId);
    expect(done.context.branch).toBe('booty/issue-1-add-an-add-function');
    expect(again.context.branch).toBe('booty/issue-1-r2-add-an-add-function');
    expect(again.context.request).toMatchObject({
      run: 2,
      previous: { jobId: first.jobId, pr: { number: 7, url: 'http://github.test/o/r/pull/7' } },
    });
  });
});
