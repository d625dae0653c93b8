import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../src/events/catalogue.js';
import { attemptTrend } from '../../../src/machines/attempt-progress.js';
import { foldJob } from '../../../src/machines/fold.js';
import { effectInput } from '../../../src/machines/job-context.js';
import { lintRun, testRun } from '../../support/scripted-effects.js';
import {
  cancelled,
  check,
  command,
  effect,
  expectNotTaken,
  failed,
  happy,
  ok,
  type Row,
  requested,
  requestedBeforeControls,
  requestedBeforeQualityProgress,
  succeeded,
} from './decider.js';

// The refine loop's controls (#15 items 4–6): a loop that stops improving stops early; a job that
// gives up asks the people `escalate` names for help; a plan can wait for a writer's approval.

const failing = (n: number, attempt: number): DomainEvent =>
  succeeded(
    'test',
    testRun(
      false,
      Array.from({ length: n }, (_, i) => `test/index.test.js > case ${i}`),
    ),
    attempt,
  );

/** A job with five attempts and `stallAfter: 2`, its attempts failing these many tests. */
function attempts(config: object, ...counts: number[]): DomainEvent[] {
  const log: DomainEvent[] = [requested(), ok.prepared(5, config), ok.baseline(), ok.analyzed()];
  counts.forEach((n, i) => {
    const a = i + 1;
    log.push(a === 1 ? ok.generated(1) : ok.refined(a), ok.applied(a), failing(n, a));
  });
  return log;
}
const stall2 = { stallAfter: 2 };

/** Attempts whose tests pass and whose lint blocks them with these many new findings. */
function linted(first: DomainEvent, ...findings: number[]): DomainEvent[] {
  const log: DomainEvent[] = [first, ok.prepared(5, stall2), ok.baseline(), ok.analyzed()];
  findings.forEach((n, i) => {
    const a = i + 1;
    log.push(a === 1 ? ok.generated(1) : ok.refined(a), ok.applied(a), succeeded('test', lintRun(n), a));
  });
  return log;
}
const lintNext = (attempt: number) => [ok.refined(attempt), ok.applied(attempt)];
const escalating = { stallAfter: 2, escalate: ['alice', 'acme/reviewers'] };

const escalated = succeeded(
  'escalate',
  { on: 'pr', number: 7, users: ['alice'], teams: ['acme/reviewers'], refused: [] },
  3,
);

const planned = (extra: object = { approval: 'plan' }) => [
  requested(),
  ok.prepared(3, extra),
  ok.baseline(),
  ok.analyzed(),
];
const planPosted = (n = 1) => succeeded('plan', { commentId: 900 + n, url: 'http://x/issues/1#plan' });

const rows: Row[] = [
  // Stall.
  {
    name: 'one attempt without improvement refines again',
    given: attempts(stall2, 1).concat(ok.refined(2), ok.applied(2)),
    when: failing(1, 2),
    expect: { state: 'refining', effect: effect('refine', 3) },
  },
  {
    name: 'a stall stops at attempt stallAfter + 1: the work goes up as a draft with the reason',
    given: attempts(stall2, 1, 1).concat(ok.refined(3), ok.applied(3)),
    when: failing(1, 3),
    expect: {
      state: 'openingPr',
      effect: effect('openPr', 3),
      context: { attempt: 3, outcome: { reason: 'stalled' } },
    },
  },
  {
    name: 'fewer failures is an improvement: the count starts again',
    given: attempts(stall2, 3, 2, 2).concat(ok.refined(4), ok.applied(4)),
    when: failing(2, 4),
    expect: { state: 'openingPr', effect: effect('openPr', 4), context: { outcome: { reason: 'stalled' } } },
  },
  {
    name: 'an improvement on the attempt before the last keeps the loop going',
    given: attempts(stall2, 3, 2).concat(ok.refined(3), ok.applied(3)),
    when: failing(2, 3),
    expect: { state: 'refining', effect: effect('refine', 4) },
  },
  {
    name: 'no stallAfter in the config: two attempts in a row without improvement, as by default',
    given: attempts({}, 1, 1).concat(ok.refined(3), ok.applied(3)),
    when: failing(1, 3),
    expect: { state: 'openingPr', effect: effect('openPr', 3), context: { outcome: { reason: 'stalled' } } },
  },
  {
    name: 'the last attempt is exhaustion, not a stall: the reason stays tests-failing',
    given: [
      requested(),
      ok.prepared(3, stall2),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(1),
      ok.applied(1),
      failing(1, 1),
      ok.refined(2),
      ok.applied(2),
      failing(1, 2),
      ok.refined(3),
      ok.applied(3),
      failing(1, 3),
    ],
    when: ok.pr(3),
    expect: { state: 'prOpened', effect: null, context: { outcome: { reason: 'tests-failing' } } },
  },
  {
    name: 'a job requested before the loop’s controls never stalls, so its log folds as it ran',
    given: [requestedBeforeControls(), ...attempts(stall2, 1, 1).slice(1), ok.refined(3), ok.applied(3)],
    when: failing(1, 3),
    expect: { state: 'refining', effect: effect('refine', 4) },
  },
  // Quality: fewer new findings is improvement, as fewer failing tests is (attempt-progress.ts).
  {
    name: 'tests passing and lint findings fixed one by one: each attempt improves, so no stall',
    given: [...linted(requested(), 3, 2), ...lintNext(3)],
    when: succeeded('test', lintRun(1), 3),
    expect: { state: 'refining', effect: effect('refine', 4) },
  },
  {
    name: 'as many new lint findings twice in a row: the loop stalls, saying the rule with quality',
    given: [...linted(requested(), 2, 2), ...lintNext(3)],
    when: succeeded('test', lintRun(2), 3),
    expect: {
      state: 'openingPr',
      effect: effect('openPr', 3),
      context: {
        outcome: {
          reason: 'stalled',
          message:
            '2 attempts in a row brought no improvement (fewer new failures against the baseline, or as many and fewer failing tests, or as many of both and fewer new quality findings), so booty stopped early, at attempt 3 of 5. The work so far is up as a draft pull request.',
        },
      },
    },
  },
  {
    name: 'failing tests fixed into a lint finding: fewer new failures improves, whatever lint finds',
    given: [
      ...attempts(stall2, 1),
      ok.refined(2),
      ok.applied(2),
      succeeded('test', lintRun(4), 2),
      ...lintNext(3),
    ],
    when: succeeded('test', lintRun(4), 3),
    expect: { state: 'refining', effect: effect('refine', 4) },
  },
  {
    name: 'a job requested before quality counted (JobRequested v4) stalls as machine 5 did, so its log folds as it ran',
    given: [...linted(requestedBeforeQualityProgress(), 3, 2), ...lintNext(3)],
    when: succeeded('test', lintRun(1), 3),
    expect: {
      state: 'openingPr',
      effect: effect('openPr', 3),
      context: {
        outcome: {
          reason: 'stalled',
          message:
            '2 attempts in a row brought no improvement (fewer new failures against the baseline, or as many and fewer failing tests), so booty stopped early, at attempt 3 of 5. The work so far is up as a draft pull request.',
        },
      },
    },
  },
  {
    name: 'a round that stops improving ends with the stall noted, nothing pushed',
    given: [
      requested(),
      ok.prepared(5, stall2),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(1),
      ok.applied(1),
      ok.tests(true, 1),
      ok.pr(1),
      ok.promoted(1),
      command('retry'),
      ok.synced(2),
      ok.generated(2),
      ok.applied(2),
      failing(1, 2),
      ok.refined(3),
      ok.applied(3),
      failing(1, 3),
      ok.refined(4),
      ok.applied(4),
    ],
    when: failing(1, 4),
    expect: {
      state: 'answering',
      effect: { src: 'answerRound', attempt: 4, notBefore: null },
      context: {
        conversation: {
          rounds: [{ n: 1, note: expect.stringContaining('2 attempts in a row brought no improvement') }],
        },
      },
    },
  },
  {
    name: 'attempts that write nothing bring no improvement: the loop stops with the work it has',
    given: [...attempts(stall2, 1), ok.refined(2), ok.rejected(2), ok.refined(3)],
    when: ok.rejected(3),
    expect: { state: 'openingPr', effect: effect('openPr', 3), context: { outcome: { reason: 'stalled' } } },
  },
  {
    name: 'nothing written by any attempt: the stall fails the job, or escalates it first',
    given: [
      requested(),
      ok.prepared(5, stall2),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(1),
      ok.rejected(1),
      ok.refined(2),
      ok.rejected(2),
      ok.refined(3),
    ],
    when: ok.rejected(3),
    expect: { state: 'failed', effect: null, context: { outcome: { reason: 'stalled' }, pr: null } },
  },
  {
    name: 'nothing written, with `escalate`: the issue is escalated before the job fails',
    given: [
      requested(),
      ok.prepared(5, escalating),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(1),
      ok.rejected(1),
      ok.refined(2),
      ok.rejected(2),
      ok.refined(3),
    ],
    when: ok.rejected(3),
    expect: {
      state: 'escalating',
      effect: effect('escalate', 3),
      context: { outcome: { reason: 'stalled' } },
    },
  },
  // Escalation.
  {
    name: 'a stalled job with `escalate` asks for help once its draft is open',
    given: attempts(escalating, 1, 1, 1),
    when: ok.pr(3),
    expect: { state: 'escalating', effect: effect('escalate', 3), context: { pr: { number: 7 } } },
  },
  {
    name: 'asked, the job waits with its draft and keeps who it asked',
    given: [...attempts(escalating, 1, 1, 1), ok.pr(3)],
    when: escalated,
    expect: {
      state: 'prOpened',
      effect: null,
      context: {
        checkpoints: { escalation: { on: 'pr', users: ['alice'] } },
        outcome: { reason: 'stalled' },
      },
    },
  },
  {
    name: 'asking for help that fails for good leaves the job waiting with its draft all the same',
    given: [...attempts(escalating, 1, 1, 1), ok.pr(3)],
    when: failed('escalate', false, 3),
    expect: { state: 'prOpened', effect: null, context: { outcome: { reason: 'stalled' } } },
  },
  {
    name: 'exhausted attempts escalate too, with the tests-failing reason',
    given: [
      requested(),
      ok.prepared(2, { escalate: ['alice'] }),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(1),
      ok.applied(1),
      ok.tests(false, 1),
      ok.refined(2),
      ok.applied(2),
      ok.tests(false, 2),
    ],
    when: ok.pr(2),
    expect: {
      state: 'escalating',
      effect: effect('escalate', 2),
      context: { outcome: { reason: 'tests-failing' } },
    },
  },
  {
    name: 'a job requested before the controls (machine 4 logged `escalate` already) does not escalate',
    given: [
      requestedBeforeControls(),
      ok.prepared(2, { escalate: ['alice'] }),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(1),
      ok.applied(1),
      ok.tests(false, 1),
      ok.refined(2),
      ok.applied(2),
      ok.tests(false, 2),
    ],
    when: ok.pr(2),
    expect: { state: 'prOpened', effect: null, context: { outcome: { reason: 'tests-failing' } } },
  },
  {
    name: 'a job requested before the controls (machine 4 logged `approval` already) writes without a plan',
    given: [requestedBeforeControls(), ok.prepared(3, { approval: 'plan' }), ok.baseline()],
    when: ok.analyzed(),
    expect: { state: 'generating', effect: effect('generate', 1) },
  },
  {
    name: 'failing fast with nothing applied escalates on the issue, then the job fails',
    given: [
      requested(),
      ok.prepared(3, { escalate: ['alice'] }),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(1),
    ],
    when: succeeded(
      'apply',
      {
        applied: [],
        rejected: [{ path: '.github/workflows/ci.yml', rule: 'path-protected', reason: 'protected' }],
        addedTests: [],
        failureClass: 'policy',
      },
      1,
    ),
    expect: {
      state: 'escalating',
      effect: effect('escalate', 1),
      context: { pr: null, outcome: { reason: 'policy' } },
    },
  },
  {
    name: 'no change applied in any attempt: the issue is escalated, then the job fails',
    given: [
      requested(),
      ok.prepared(3, { escalate: ['alice'] }),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(1),
      ok.rejected(1),
      ok.refined(2),
      ok.rejected(2),
      ok.refined(3),
    ],
    when: ok.rejected(3),
    expect: {
      state: 'escalating',
      effect: effect('escalate', 3),
      context: { outcome: { reason: 'no-changes' } },
    },
  },
  {
    name: 'without `escalate`, a job that gives up waits with its draft as before',
    given: attempts(stall2, 1, 1, 1),
    when: ok.pr(3),
    expect: { state: 'prOpened', effect: null },
  },
  {
    name: 'a job whose tests pass does not escalate',
    given: [requested(), ok.prepared(3, { escalate: ['alice'] }), ...happy.openingPr().slice(2)],
    when: ok.pr(),
    expect: { state: 'promoting', effect: effect('promotePr', 1) },
  },
  // Plan approval.
  {
    name: '`approval: plan`: after the analysis the plan is posted, before any code is written',
    given: planned().slice(0, -1),
    when: ok.analyzed(),
    expect: { state: 'postingPlan', effect: effect('postPlan', 0) },
  },
  {
    name: 'the `booty:plan` label asks for the same',
    given: [{ ...requested(), planApproval: true } as DomainEvent, ok.prepared(), ok.baseline()],
    when: ok.analyzed(),
    expect: { state: 'postingPlan', effect: effect('postPlan', 0) },
  },
  {
    name: 'posted, the plan waits for a writer, holding nothing',
    given: planned(),
    when: planPosted(),
    expect: { state: 'awaitingApproval', effect: null, context: { checkpoints: { plans: 1 } } },
  },
  {
    name: 'approve: the first attempt is written',
    given: [...planned(), planPosted()],
    when: command('approve'),
    expect: {
      state: 'generating',
      effect: effect('generate', 1),
      context: { checkpoints: { approvedBy: 'maintainer' } },
    },
  },
  {
    name: 'revise: the analysis runs again with the revision among the issue comments',
    given: [...planned(), planPosted()],
    when: command('revise', 'keep the old export'),
    expect: {
      state: 'analyzing',
      effect: effect('analyze', 0),
      context: {
        issue: { comments: [{ author: 'maintainer', body: 'Revise the plan: keep the old export' }] },
      },
    },
  },
  {
    name: 'the revised plan is posted again, as a plan of its own',
    given: [...planned(), planPosted(), command('revise', 'keep the old export')],
    when: ok.analyzed(),
    expect: { state: 'postingPlan', effect: effect('postPlan', 0) },
  },
  {
    name: 'a bare revise, or continue, changes nothing while the plan waits',
    given: [...planned(), planPosted()],
    when: command('revise'),
    expect: { state: 'awaitingApproval', effect: null },
  },
  {
    name: 'cancel ends a job whose plan waits',
    given: [...planned(), planPosted()],
    when: cancelled(),
    expect: { state: 'cancelled', effect: null },
  },
  {
    name: "a writer's @booty cancel ends a job whose plan waits",
    given: [...planned(), planPosted()],
    when: command('cancel'),
    expect: { state: 'cancelled', effect: null, context: { outcome: { reason: 'command' } } },
  },
  {
    name: 'an approved plan is not asked for again: the job goes on past the analysis',
    given: [...planned(), planPosted(), command('approve')],
    when: ok.generated(1),
    expect: { state: 'applying', effect: effect('applyChanges', 1) },
  },
];

describe('decider: the refine loop’s controls', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));

  it.each([
    ['a bare revise', command('revise')],
    ['continue', command('continue')],
    // Not queued for a round after the PR opens, which no one asked for yet.
    ['retry', command('retry')],
  ])('while the plan waits, %s is not taken (nothing logged; the writer is answered)', (_name, when) =>
    expectNotTaken([...planned(), planPosted()], when),
  );

  it('a revised plan gets its own comment key; the first keeps its own', () => {
    const fold = (log: DomainEvent[]) => foldJob(log.map(({ type, ...data }) => ({ type, data })));
    const key = (log: DomainEvent[]) => effectInput(fold(log).context, 'postPlan').key;
    expect(key(planned())).toBe('job-1:postPlan:0:p1');
    expect(key([...planned(), planPosted(), command('revise', 'x'), ok.analyzed()])).toBe(
      'job-1:postPlan:0:p2',
    );
  });

  it('measures each attempt: tests, new failures, lines changed, and whether it improved', () => {
    const job = foldJob(attempts(stall2, 3, 2, 2).map(({ type, ...data }) => ({ type, data })));
    expect(attemptTrend(job.context.attempts)).toEqual([
      { n: 1, passed: 1, failed: 3, newFailures: 3, qualityFindings: 0, diffLines: 2, improved: null },
      { n: 2, passed: 1, failed: 2, newFailures: 2, qualityFindings: 0, diffLines: 2, improved: true },
      { n: 3, passed: 1, failed: 2, newFailures: 2, qualityFindings: 0, diffLines: 2, improved: false },
    ]);
  });

  it('counts new quality findings, a blocking command that names none as one, and only as the job asks', () => {
    const job = foldJob(linted(requested(), 3, 2, 2).map(({ type, ...data }) => ({ type, data })));
    const [a1, a2, a3] = job.context.attempts;
    const nameless = {
      ...a3!,
      test: { ...a3!.test!, quality: [{ ...a3!.test!.quality![0]!, newFindings: [] }] },
    };
    const measure = (options?: { quality?: boolean }) =>
      attemptTrend([a1!, a2!, nameless], 1, options).map((p) => [p.qualityFindings, p.improved]);
    expect(measure()).toEqual([
      [3, null],
      [2, true],
      [1, true],
    ]);
    expect(measure({ quality: false })).toEqual([
      [3, null],
      [2, false],
      [1, false],
    ]);
  });
});
