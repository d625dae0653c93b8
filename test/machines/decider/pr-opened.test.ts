import { describe, it } from 'vitest';
import { cancelled, check, effect, failed, happy, ok, type Row, retryAt } from './decider.js';

// Stage: prOpened (mark the draft ready for review) and what follows a finished job.
const promoted = [...happy.prOpened(), ok.promoted()];

const rows: Row[] = [
  {
    name: 'promoted: the job is done, its PR ready for review',
    given: happy.prOpened(),
    when: ok.promoted(),
    expect: {
      state: 'promoted',
      effect: null,
      context: { pr: { draft: false }, outcome: { reason: 'tests-passed' } },
    },
  },
  {
    name: 'a transient failure is retried',
    given: happy.prOpened(),
    when: failed('promote', true, 1),
    expect: { state: 'prOpened', effect: effect('promotePr', 1, retryAt(0)) },
  },
  {
    name: 'a promotion GitHub refuses leaves the PR draft: the job is held, not failed',
    given: happy.prOpened(),
    when: failed('promote', false, 1),
    expect: { state: 'heldAsDraft', effect: null, context: { outcome: { reason: 'promotion-failed' } } },
  },
  {
    name: 'a cancel after the PR opened',
    given: happy.prOpened(),
    when: cancelled('closed'),
    expect: { state: 'cancelled', effect: null },
  },
  {
    name: 'a finished job ignores a late cancel',
    given: promoted,
    when: cancelled(),
    expect: { state: 'promoted', effect: null, context: { outcome: { reason: 'tests-passed' } } },
  },
];

describe('decider: prOpened', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
