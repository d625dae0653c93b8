import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../src/events/catalogue.js';
import type { TestRun, VerdictReason } from '../../../src/events/effect-results.js';
import { foldJob } from '../../../src/machines/fold.js';
import { testRun } from '../../support/scripted-effects.js';
import { check, effect, happy, ok, outside, type Row, requested, succeeded } from './decider.js';

// Unreadable is not failing (#36): an attempt whose run exited 0 and named no failing test, held
// back only by what booty could not read, is never refined. It stops with `tests-unreadable`, its
// work up as a draft, saying how to make the runner readable. A run that exited non-zero with
// nothing readable is refined with its output, as before; and a log written before the class
// replays as it ran.

const reason = (code: VerdictReason['code'], message: string, tests: string[] = []): VerdictReason => ({
  code,
  level: 'unknown',
  message,
  tests,
});

/** `npm test` exited 0 and booty read nothing: uvu's lines before booty could read them. */
const readNothing = (exitCode: number): Omit<TestRun, 'at'> => ({
  ...testRun(false),
  exitCode,
  outputTail: 'classnames.js (15 / 15)\nlite.js (5 / 5)\n\n  Total:     20\n  Passed:    20',
  source: 'none',
  cases: [],
  totals: { total: 0, passed: 0, failed: 0, errored: 0, skipped: 0 },
  verdict: 'unknown',
  reasons:
    exitCode === 0
      ? [reason('no-test-passed', 'no test was seen passing after the change')]
      : [
          reason('no-test-passed', 'no test was seen passing after the change'),
          reason('exit-disagrees', `the command exited ${exitCode} and named no failing test`),
        ],
  failingTests: [],
  newFailures: [],
  changedTests: [],
  addedTestsFailing: [],
});

const unreadable = (attempt = 1): DomainEvent =>
  succeeded('test', { ...readNothing(0), failureClass: 'unreadable' }, attempt);

/** Tests seen passing, but not the one the change added: it is named in no report booty read. */
const unseen = succeeded(
  'test',
  {
    ...testRun(true),
    passed: false,
    verdict: 'unknown',
    reasons: [
      reason('changed-test-unseen', 'tests the change added or modified were never seen passing', [
        'test.js > camelCase',
      ]),
    ],
    changedTests: ['test.js > camelCase'],
    addedTestsFailing: ['test.js > camelCase'],
    failureClass: 'unreadable',
  },
  1,
);

const escalating = { escalate: ['alice'] };

const rows: Row[] = [
  {
    name: 'a run that exited 0 with nothing booty could read: no refine, the work goes up as a draft',
    given: happy.testing(),
    when: unreadable(),
    expect: {
      state: 'openingPr',
      effect: effect('openPr', 1),
      context: {
        attempt: 1,
        outcome: { reason: 'tests-unreadable' },
        attempts: [{ n: 1, failureClass: 'unreadable' }],
      },
    },
  },
  {
    name: 'the change’s own test never seen in a run that exited 0: no refine either',
    given: happy.testing(),
    when: unseen,
    expect: {
      state: 'openingPr',
      effect: effect('openPr', 1),
      context: { outcome: { reason: 'tests-unreadable' } },
    },
  },
  {
    name: 'its draft waits with the reason; nothing more is asked of the model',
    given: [...happy.testing(), unreadable()],
    when: ok.pr(1),
    expect: { state: 'prOpened', effect: null, context: { outcome: { reason: 'tests-unreadable' } } },
  },
  {
    name: 'with `escalate` in booty.yml, the people it names are asked to look at the draft',
    given: [requested(), ok.prepared(3, escalating), ...happy.testing().slice(2), unreadable()],
    when: ok.pr(1),
    expect: { state: 'escalating', effect: effect('escalate', 1) },
  },
  {
    name: 'in a follow-up round: answered with how to make the runner readable, nothing pushed',
    given: [...happy.promoted(), outside.review(), ok.synced(2), ok.generated(2), ok.applied(2)],
    when: unreadable(2),
    expect: { state: 'answering', effect: effect('answerRound', 2), context: { attempt: 2 } },
  },
  {
    name: 'a run that exited 1 with nothing readable is refined with its output, as before',
    given: happy.testing(),
    when: succeeded('test', { ...readNothing(1), failureClass: 'unknown' }, 1),
    expect: { state: 'refining', effect: effect('refine', 2), context: { attempt: 2, outcome: null } },
  },
  {
    name: 'a log from before the class: the same run, without it, refines as it did then',
    given: happy.testing(),
    when: succeeded('test', readNothing(0), 1),
    expect: { state: 'refining', effect: effect('refine', 2), context: { attempt: 2 } },
  },
];

describe('decider: a run booty cannot read', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));

  it('says what booty could not read and how to make the runner readable', () => {
    const job = foldJob(events([...happy.testing(), unreadable()]));
    expect(job.context.outcome).toEqual({
      reason: 'tests-unreadable',
      message:
        "The tests exited 0, but booty could not read which tests ran: `npm test` printed no result booty knows how to read, so it cannot tell whether the change works. booty stopped after attempt 1 rather than ask the model to fix a change that may well work. Let booty read the runner: have the tests write a JUnit XML or TAP report and point `test.report` in `.github/booty.yml` at it, or add the runner's TAP or JUnit reporter to `test.command` (for example `ava --tap`, `tape` prints TAP already); or, to accept the exit status alone, set `gate: exit-code` in booty.yml, which the pull request then shows as weak evidence; then ask booty again: `@booty retry` on its pull request, or label the issue again.",
    });
    const named = foldJob(events([...happy.testing(), unseen]));
    expect(named.context.outcome?.message).toMatch(
      /^The tests exited 0 and named no failing test, but booty did not see the tests this change added or modified pass: `test\.js > camelCase`\./,
    );
  });
});

const events = (list: DomainEvent[]) => list.map(({ type, ...data }) => ({ type, data }));
