import { describe, expect, it } from 'vitest';
import type { SupervisorOptions } from '../../src/engine/supervisor.js';
import type { EffectImpls } from '../../src/machines/effect-contract.js';
import { renderPrBody, testsProven } from '../../src/views/pr-body.js';
import { harness } from '../support/job-harness.js';
import { type Script, scriptedEffects, testRun } from '../support/scripted-effects.js';

// Only a PR whose tests were seen passing closes its issue. The body is written once, when the PR
// opens (and again, the same, when a resumed job finds it): every path to an open PR is checked
// here with the body the openPr step wrote for it.

async function bodyOf(script: Script, options: Partial<SupervisorOptions> = {}) {
  const scripted = scriptedEffects(script).impls;
  const bodies: string[] = [];
  const effects: EffectImpls = {
    ...scripted,
    openPr: async (input, ctx) => {
      bodies.push(renderPrBody(input.job));
      return scripted.openPr(input, ctx);
    },
  };
  const h = harness(script, { ...options, effects });
  const r = await h.request();
  if (r.outcome !== 'created') throw new Error(r.outcome);
  const snapshot = await h.supervisor.whenFinished(r.jobId);
  expect(bodies).toHaveLength(1);
  return { body: bodies[0]!, state: snapshot.value, outcome: snapshot.context.outcome };
}

describe('the PR body links the issue by what the tests showed', () => {
  // A job whose work did not pass does not end: it waits with its draft in prOpened, saying why.
  it.each([
    [
      'tests pass on the second attempt',
      { tests: [false, true] },
      {},
      'promoted',
      'tests-passed',
      'Closes #1',
    ],
    [
      'tests still fail after the last attempt',
      { tests: [false, false, false] },
      {},
      'prOpened',
      'tests-failing',
      'Refs #1',
    ],
    [
      'booty could not see the tests pass',
      { tests: [false, false, false], unknown: true },
      {},
      'prOpened',
      'tests-unknown',
      'Refs #1',
    ],
    [
      'a refinement failed after a failing attempt',
      { tests: [false], outcomes: { refine: ['permanent' as const] } },
      {},
      'prOpened',
      'error',
      'Refs #1',
    ],
  ])('%s: %s', async (_, script, options, state, reason, link) => {
    const { body, state: ended, outcome } = await bodyOf(script, options);
    expect(ended).toBe(state);
    expect(outcome?.reason).toBe(reason);
    expect(body).toContain(`\n\n${link}`);
    expect(body.includes('Closes #')).toBe(link.startsWith('Closes'));
    expect(body.includes('> [!CAUTION]')).toBe(!link.startsWith('Closes'));
  });

  it('says in the draft’s caution why the job failed', async () => {
    const { body, outcome } = await bodyOf({ tests: [false], outcomes: { refine: ['permanent'] } });
    expect(outcome?.reason).toBe('error');
    expect(body).toContain(
      `> [!CAUTION]\n> ${outcome!.message} This draft holds the work so far for a human to pick up.`,
    );
  });

  it('does not count a passing run of an earlier attempt for changes made after it', () => {
    const passed = { ...testRun(true), at: 1 };
    const attempt = (n: number, test: typeof passed | null) => ({
      n,
      explanation: '',
      proposed: [],
      files: ['a.js'],
      rejected: [],
      addedTests: [],
      applied: true,
      test,
    });
    expect(testsProven({ attempts: [attempt(1, passed)], outcome: null })).toBe(true);
    expect(testsProven({ attempts: [attempt(1, passed), attempt(2, null)], outcome: null })).toBe(false);
    expect(
      testsProven({ attempts: [attempt(1, passed)], outcome: { reason: 'error', message: 'openPr failed' } }),
    ).toBe(false);
  });
});
