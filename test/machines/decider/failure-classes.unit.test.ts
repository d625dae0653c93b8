import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../src/events/catalogue.js';
import { FailureClass } from '../../../src/events/effect-results.js';
import { foldJob } from '../../../src/machines/fold.js';
import { effectInput } from '../../../src/machines/job-context.js';
import { stateName } from '../../../src/machines/job-states.js';
import { failsFast } from '../../../src/refine/failure-class.js';
import { testRun } from '../../support/scripted-effects.js';
import { check, effect, happy, later, ok, outside, type Row, succeeded } from './decider.js';

// Failure classes (#15): every failed attempt's event names its class; policy and environment stop
// the loop at once, with no further request to the model, and the rest refine as before.

const testsFailed = (cls: FailureClass, attempt = 1, outputTail = 'not ok'): DomainEvent =>
  succeeded(
    'test',
    { ...testRun(false, ['test/index.test.js > adds']), outputTail, failureClass: cls },
    attempt,
  );

const protectedOnly = (attempt = 1): DomainEvent =>
  succeeded(
    'apply',
    {
      applied: [],
      rejected: [
        {
          path: '.github/workflows/ci.yml',
          rule: 'path-protected',
          reason: '.github/workflows/ci.yml is protected',
        },
      ],
      addedTests: [],
      failureClass: 'policy',
    },
    attempt,
  );

/** Every class but those that fail fast (unreadable has its own table: unreadable.unit.test.ts). */
const refinable = FailureClass.options.filter((c) => !failsFast(c));

const NETWORK = 'Error: getaddrinfo ENOTFOUND registry.npmjs.org';

const rows: Row[] = [
  ...refinable.map(
    (cls): Row => ({
      name: `${cls}: the class is kept with the attempt, and the model refines`,
      given: happy.testing(),
      when: testsFailed(cls),
      expect: {
        state: 'refining',
        effect: effect('refine', 2),
        context: { attempt: 2, outcome: null, attempts: [{ n: 1, failureClass: cls }] },
      },
    }),
  ),
  {
    name: 'environment on the first attempt: no refine, the work goes up as a draft with the reason',
    given: happy.testing(),
    when: testsFailed('environment', 1, NETWORK),
    expect: {
      state: 'openingPr',
      effect: effect('openPr', 1),
      context: {
        attempt: 1,
        outcome: { reason: 'environment' },
        attempts: [{ failureClass: 'environment' }],
      },
    },
  },
  {
    name: 'a sandbox denial in the tests: policy, no refine',
    given: happy.testing(),
    when: testsFailed('policy', 1, 'sh: 1: cannot create /etc/x: Read-only file system'),
    expect: { state: 'openingPr', effect: effect('openPr', 1), context: { outcome: { reason: 'policy' } } },
  },
  {
    name: 'the draft of a job that failed fast waits with its reason; nothing more is asked of the model',
    given: [...happy.testing(), testsFailed('environment', 1, NETWORK)],
    when: ok.pr(1),
    expect: { state: 'prOpened', effect: null, context: { outcome: { reason: 'environment' } } },
  },
  {
    name: 'every change on a protected path, nothing applied before: the job fails with policy',
    given: happy.applying(),
    when: protectedOnly(1),
    expect: {
      state: 'failed',
      effect: null,
      context: { attempt: 1, changes: [], pr: null, outcome: { reason: 'policy' } },
    },
  },
  {
    name: "every change on a protected path after earlier work: that work goes up, policy's the reason",
    given: [...later.refining(), ok.refined(2)],
    when: protectedOnly(2),
    expect: { state: 'openingPr', effect: effect('openPr', 2), context: { outcome: { reason: 'policy' } } },
  },
  {
    name: 'an answer with nothing to apply (a weakened test refused): the model refines',
    given: happy.applying(),
    when: succeeded(
      'apply',
      {
        applied: [],
        rejected: [{ path: 'test/a.test.js', rule: 'test-skipped', reason: 'skips a test' }],
        addedTests: [],
        failureClass: 'invalid-model-output',
      },
      1,
    ),
    expect: { state: 'refining', effect: effect('refine', 2), context: { attempt: 2 } },
  },
  {
    name: 'environment in a follow-up round: answered with what a human must change, nothing pushed',
    given: [...happy.promoted(), outside.review(), ok.synced(2), ok.generated(2), ok.applied(2)],
    when: testsFailed('environment', 2, 'sh: 1: jq: not found'),
    expect: { state: 'answering', effect: effect('answerRound', 2), context: { attempt: 2 } },
  },
];

describe('decider: failure classes', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));

  it('says what a human must change: the network, which the sandbox does not give', () => {
    const job = foldJob(events([...happy.testing(), testsFailed('environment', 1, NETWORK)]));
    expect(job.context.outcome).toEqual({
      reason: 'environment',
      message:
        "The tests need network access, which booty's sandbox does not give them (`Error: getaddrinfo ENOTFOUND registry.npmjs.org`); booty stopped after attempt 1: another attempt cannot fix this. Make them run offline (a fake in place of the service), or fetch what they need in booty.yml's `install.command`, which runs with network; an operator can also run tests without the sandbox (`BOOTY_SANDBOX=off`), at the cost of its isolation; then ask booty again: `@booty retry` on its pull request, or label the issue again.",
    });
  });

  it('says what a human must change: a missing program, a protected path', () => {
    const missing = foldJob(
      events([...happy.testing(), testsFailed('environment', 1, 'sh: 1: jq: not found')]),
    );
    expect(missing.context.outcome?.message).toContain(
      'The tests need a program that is not available where booty runs them (`sh: 1: jq: not found`)',
    );
    const refused = foldJob(events([...happy.applying(), protectedOnly(1)]));
    expect(refused.context.outcome?.message).toContain(
      'Every change the model made is on a protected path (`.github/workflows/ci.yml`), so nothing could be applied',
    );
  });

  it('the round keeps the reason as its note', () => {
    const given = [...happy.promoted(), outside.review(), ok.synced(2), ok.generated(2), ok.applied(2)];
    const job = foldJob(events([...given, testsFailed('environment', 2, 'sh: 1: jq: not found')]));
    expect(stateName(job)).toBe('answering');
    expect(effectInput(job.context, 'answerRound').job.round?.note).toMatch(/^The tests need a program/);
  });
});

const events = (list: DomainEvent[]) => list.map(({ type, ...data }) => ({ type, data }));
