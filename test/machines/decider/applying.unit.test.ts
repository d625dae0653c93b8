import { describe, it } from 'vitest';
import { cancelled, change, check, effect, failed, happy, later, ok, type Row, retryAt } from './decider.js';

// Stage: applying (the proposal, through the path policy, onto the work tree).
const attempt2 = [...later.refining(), ok.refined(2)];

const rows: Row[] = [
  {
    name: 'applied changes are tested next',
    given: happy.applying(),
    when: ok.applied(),
    expect: {
      state: 'testing',
      effect: effect('runTests', 1),
      context: {
        changes: [change(1), { path: 'test/index.test.js' }],
        attempts: [{ n: 1, applied: true, addedTests: ['test/index.test.js'] }],
      },
    },
  },
  {
    name: 'every change refused, attempts left: the model is told why and tries again',
    given: happy.applying(),
    when: ok.rejected(1),
    expect: { state: 'refining', effect: effect('refine', 2), context: { attempt: 2, changes: [] } },
  },
  {
    name: 'every change refused on the last attempt, nothing applied before: the job fails, nothing pushed',
    given: [...happy.applying().slice(0, 1), ok.prepared(1), ...happy.applying().slice(2)],
    when: ok.rejected(1),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'no-changes' }, pr: null } },
  },
  {
    name: 'a refined change replaces the earlier one at its path',
    given: attempt2,
    when: ok.applied(2),
    expect: {
      state: 'testing',
      effect: effect('runTests', 2),
      context: { changes: [change(2), { path: 'test/index.test.js' }] },
    },
  },
  {
    name: 'a transient failure is retried',
    given: happy.applying(),
    when: failed('apply', true, 1),
    expect: { state: 'applying', effect: effect('applyChanges', 1, retryAt(0)) },
  },
  {
    name: 'a permanent failure after earlier work: that work goes up as a draft PR',
    given: attempt2,
    when: failed('apply', false, 2),
    expect: { state: 'openingPr', effect: effect('openPr', 2), context: { outcome: { reason: 'error' } } },
  },
  {
    name: 'a cancel while the change is written',
    given: happy.applying(),
    when: cancelled(),
    expect: { state: 'cancelled', effect: null },
  },
];

describe('decider: applying', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
