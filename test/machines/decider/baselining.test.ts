import { describe, it } from 'vitest';
import { testRun } from '../../support/scripted-effects.js';
import { cancelled, check, effect, failed, happy, ok, type Row, retryAt } from './decider.js';

// Stage: baselining (the repository's own tests on the base commit, before any model request).
const rows: Row[] = [
  {
    name: 'a passing baseline: the model is asked to analyse the issue',
    given: happy.baselining(),
    when: ok.baseline(),
    expect: { state: 'analyzing', effect: effect('analyze', 0), context: { baseline: { passed: true } } },
  },
  {
    name: 'a baseline with failing tests still goes on: those failures are the baseline',
    given: happy.baselining(),
    when: ok.baseline({ ...testRun(false, ['test/old.test.js > broken']), broken: null }),
    expect: {
      state: 'analyzing',
      effect: effect('analyze', 0),
      context: { baseline: { failingTests: ['test/old.test.js > broken'] } },
    },
  },
  {
    name: 'a test command that cannot run stops the job before any model request',
    given: happy.baselining(),
    when: ok.brokenBaseline(),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'test-command-broken' } } },
  },
  {
    name: 'a transient failure is retried after the backoff',
    given: happy.baselining(),
    when: failed('baseline', true),
    expect: { state: 'baselining', effect: effect('runBaseline', 0, retryAt(0)) },
  },
  {
    name: 'a permanent failure fails the job, with nothing to push',
    given: happy.baselining(),
    when: failed('baseline', false),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'error' }, pr: null } },
  },
  {
    name: 'a cancel while the baseline runs',
    given: happy.baselining(),
    when: cancelled(),
    expect: { state: 'cancelled', effect: null },
  },
];

describe('decider: baselining', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
