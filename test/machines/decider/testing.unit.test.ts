import { describe, it } from 'vitest';
import { cancelled, check, effect, failed, happy, later, ok, type Row, retryAt } from './decider.js';

// Stage: testing (the repository's tests on the change: the gate).
const lastAttempt = later.lastTest();

const rows: Row[] = [
  {
    name: 'tests seen passing: the draft PR is opened',
    given: happy.testing(),
    when: ok.tests(true),
    expect: {
      state: 'openingPr',
      effect: effect('openPr', 1),
      context: { attempts: [{ n: 1, test: { passed: true } }] },
    },
  },
  {
    name: 'failing tests with attempts left: the model refines',
    given: happy.testing(),
    when: ok.tests(false),
    expect: { state: 'refining', effect: effect('refine', 2), context: { attempt: 2 } },
  },
  {
    name: 'a run booty could not read, attempts left: refine, never pass',
    given: happy.testing(),
    when: ok.unknownTests(),
    expect: { state: 'refining', effect: effect('refine', 2) },
  },
  {
    name: 'failing tests on the last attempt: the work goes up as a draft PR',
    given: lastAttempt,
    when: ok.tests(false, 3),
    expect: { state: 'openingPr', effect: effect('openPr', 3), context: { attempt: 3, outcome: null } },
  },
  {
    name: 'passing on the last attempt: the PR is opened to be promoted',
    given: lastAttempt,
    when: ok.tests(true, 3),
    expect: { state: 'openingPr', effect: effect('openPr', 3), context: { outcome: null } },
  },
  {
    name: 'a transient failure (a full disk, a lost sandbox) is retried',
    given: happy.testing(),
    when: failed('test', true, 1),
    expect: { state: 'testing', effect: effect('runTests', 1, retryAt(0)) },
  },
  {
    name: 'a permanent failure with a change applied: the draft PR keeps the work',
    given: happy.testing(),
    when: failed('test', false, 1),
    expect: { state: 'openingPr', effect: effect('openPr', 1), context: { outcome: { reason: 'error' } } },
  },
  {
    name: 'a cancel while the tests run',
    given: happy.testing(),
    when: cancelled(),
    expect: { state: 'cancelled', effect: null },
  },
];

describe('decider: testing', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
