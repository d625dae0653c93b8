import { describe, expect, it } from 'vitest';
import { foldJob } from '../../../src/machines/fold.js';
import { brokenBaseline, testRun } from '../../support/scripted-effects.js';
import { cancelled, check, effect, failed, happy, ok, type Row, retryAt, succeeded } from './decider.js';

/** `npm test` ran and exited 0, and booty read no test from it (uvu before booty read uvu). */
const unreadable = succeeded('baseline', {
  ...brokenBaseline(),
  ran: true,
  exitCode: 0,
  outputTail: 'classnames.js (15 / 15)\nindex.js (12 / 12)\n\n  Total:     27\n  Passed:    27',
  broken: {
    reason: 'tests-unreadable',
    message:
      'the tests ran and exited 0, but booty read no test result from them: the command starts `uvu` (the `test` script: `uvu -r esm test`), whose output booty cannot read',
  },
});

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
    name: 'a baseline booty cannot read stops the job before any model request',
    given: happy.baselining(),
    when: unreadable,
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'tests-unreadable' }, pr: null } },
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

  it('says which runner it saw and that nothing was sent to the model', () => {
    const job = foldJob([...happy.baselining(), unreadable].map(({ type, ...data }) => ({ type, data })));
    expect(job.context.outcome?.message).toBe(
      'booty cannot read the results of the test command `npm test` on the base branch: the tests ran and exited 0, but booty read no test result from them: the command starts `uvu` (the `test` script: `uvu -r esm test`), whose output booty cannot read. A change cannot be judged by tests booty cannot see, so nothing was sent to the model.',
    );
  });
});
