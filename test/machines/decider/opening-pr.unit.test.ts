import { describe, it } from 'vitest';
import type { DomainEvent } from '../../../src/events/catalogue.js';
import {
  cancelled,
  check,
  effect,
  failed,
  happy,
  later,
  ok,
  type Row,
  requested,
  retryAt,
} from './decider.js';

/** GitHub's rate limit, naming its wait: the one retry layer is the step's. */
const limited = (retryAfterMs: number): DomainEvent => ({
  type: 'StepFailed',
  step: 'openPr',
  attempt: 1,
  error: {
    code: 'BOOTY_E_GITHUB_RATE_LIMITED',
    message: 'limited',
    retryable: true,
    at: retryAt(0) - 1000,
    retryAfterMs,
  },
});

// Stage: openingPr (push the logged change and open the draft PR).
const failedTests = [...later.lastTest(), ok.tests(false, 3)];
const stepError = [...happy.testing(), failed('test', false, 1)];

const rows: Row[] = [
  {
    name: 'the PR of a passing change: promote it',
    given: happy.openingPr(),
    when: ok.pr(),
    expect: {
      state: 'promoting',
      effect: effect('promotePr', 1),
      context: {
        pr: { number: 7, draft: true },
        conversation: { headTested: true, firstBase: 'a'.repeat(40) },
      },
    },
  },
  {
    name: 'the PR of a change whose tests still fail: the draft waits with its PR for a human',
    given: failedTests,
    when: ok.pr(3),
    expect: {
      state: 'prOpened',
      effect: null,
      context: {
        pr: { number: 7 },
        outcome: { reason: 'tests-failing' },
        conversation: { headTested: false },
      },
    },
  },
  {
    name: 'the draft of a job a step error already failed keeps that error as the outcome, and waits',
    given: stepError,
    when: ok.pr(),
    expect: { state: 'prOpened', effect: null, context: { pr: { number: 7 }, outcome: { reason: 'error' } } },
  },
  {
    name: "a change to booty's own repository waits as a draft for a human",
    given: [requested({ selfModification: true }), ...happy.openingPr().slice(1)],
    when: ok.pr(),
    expect: { state: 'prOpened', effect: null, context: { outcome: { reason: 'self-modification' } } },
  },
  {
    name: 'a transient failure (GitHub unavailable) is retried',
    given: happy.openingPr(),
    when: failed('openPr', true, 1),
    expect: { state: 'openingPr', effect: effect('openPr', 1, retryAt(0)) },
  },
  {
    name: 'a rate limit waits what GitHub asked for, not the shorter backoff',
    given: happy.openingPr(),
    when: limited(7000),
    expect: { state: 'openingPr', effect: effect('openPr', 1, retryAt(0) - 1000 + 7000) },
  },
  {
    name: 'a rate limit that asks for an hour waits the cap, so a step retries within a bound',
    given: happy.openingPr(),
    when: limited(3_600_000),
    expect: { state: 'openingPr', effect: effect('openPr', 1, retryAt(0) - 1000 + 60_000) },
  },
  {
    name: 'a permanent failure fails the job',
    given: happy.openingPr(),
    when: failed('openPr', false, 1),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'error' }, pr: null } },
  },
  {
    name: 'a cancel before the push',
    given: happy.openingPr(),
    when: cancelled('unlabeled'),
    expect: { state: 'cancelled', effect: null },
  },
];

describe('decider: openingPr', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
