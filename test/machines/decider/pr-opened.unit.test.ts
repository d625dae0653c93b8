import { describe, it } from 'vitest';
import { cancelled, check, effect, failed, happy, ok, outside, type Row, retryAt } from './decider.js';

// Stage: promoting (mark the draft ready once CI lets it), and the two states a job waits in with
// its PR: prOpened (draft) and promoted (ready). A waiting job starts no effect.

const rows: Row[] = [
  {
    name: 'promoted: CI passed, the PR is ready for review and the job waits with it',
    given: happy.promoting(),
    when: ok.promoted(),
    expect: {
      state: 'promoted',
      effect: null,
      context: { pr: { draft: false }, outcome: { reason: 'tests-passed' } },
    },
  },
  {
    name: 'CI still running: the PR stays draft and the job waits for CI',
    given: happy.promoting(),
    when: ok.promoted(1, 'pending'),
    expect: {
      state: 'prOpened',
      effect: null,
      context: { pr: { draft: true }, conversation: { ci: { state: 'pending' } } },
    },
  },
  {
    name: 'CI red at promotion: the failed jobs are re-run once',
    given: happy.promoting(),
    when: ok.promoted(1, 'failed'),
    expect: { state: 'rerunningCi', effect: effect('rerunCi', 1) },
  },
  {
    name: 'a transient failure is retried',
    given: happy.promoting(),
    when: failed('promote', true, 1),
    expect: { state: 'promoting', effect: effect('promotePr', 1, retryAt(0)) },
  },
  {
    name: 'a promotion GitHub refuses leaves the PR draft: the job waits, not failed',
    given: happy.promoting(),
    when: failed('promote', false, 1),
    expect: { state: 'prOpened', effect: null, context: { outcome: { reason: 'promotion-failed' } } },
  },
  {
    name: 'a cancel after the PR opened',
    given: happy.promoting(),
    when: cancelled('closed'),
    expect: { state: 'cancelled', effect: null },
  },
  {
    name: 'a job waiting with its promoted PR is cancelled when its issue closes',
    given: happy.promoted(),
    when: cancelled('closed'),
    expect: { state: 'cancelled', effect: null, context: { outcome: { reason: 'closed' } } },
  },
  {
    name: 'the PR merged: the job ends merged',
    given: happy.promoted(),
    when: outside.closed(true),
    expect: { state: 'merged', effect: null, context: { outcome: { reason: 'merged' } } },
  },
  {
    name: 'the PR closed unmerged: the job ends closed',
    given: happy.waitingForCi(),
    when: outside.closed(false),
    expect: { state: 'closed', effect: null, context: { outcome: { reason: 'pr-closed' } } },
  },
  {
    name: 'a finished job ignores a late cancel',
    given: [...happy.promoted(), outside.closed(true)],
    when: cancelled(),
    expect: { state: 'merged', effect: null, context: { outcome: { reason: 'merged' } } },
  },
  {
    name: 'a human marks the draft ready: the job waits as promoted',
    given: happy.waitingForCi(),
    when: outside.draft(false),
    expect: { state: 'promoted', effect: null, context: { pr: { draft: false } } },
  },
  {
    name: 'a human turns the ready PR back to draft: the job waits as prOpened',
    given: happy.promoted(),
    when: outside.draft(true),
    expect: { state: 'prOpened', effect: null, context: { pr: { draft: true } } },
  },
  {
    name: '@booty cancel from a writer ends the job',
    given: happy.promoted(),
    when: outside.command('cancel'),
    expect: { state: 'cancelled', effect: null, context: { outcome: { reason: 'command' } } },
  },
];

describe('decider: promoting, prOpened and promoted', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
