import { describe, it } from 'vitest';
import type { DomainEvent } from '../../../src/events/catalogue.js';
import { check, effect, failed, happy, ok, outside, type Row, requested } from './decider.js';

// The job's life with its open PR: CI read, re-run once, fixed in a round; reviews and @booty
// requests answered in rounds through the same bounded loop; bounds; stop; a head that moved.

const HEAD = 'b'.repeat(40);
const SYNCED = 'c'.repeat(40);
const PUSHED = 'd'.repeat(40);

/** A draft with CI pending whose CI then finished: the job reads it. */
const ciFinished = () => [...happy.waitingForCi(), outside.ciDone()];
/** CI red, re-run once, red again: the job starts a round with the failure. */
const ciRound = () => [...ciFinished(), ok.ci('failed'), ok.rerun(), outside.ciDone(), ok.ci('failed')];
/** A review on a ready PR, its round synced and run to passing tests. */
const reviewRound = (): DomainEvent[] => [
  ...happy.promoted(),
  outside.review(),
  ok.synced(2),
  ok.generated(2),
  ok.applied(2),
  ok.tests(true, 2),
];
/** One follow-up round allowed, and used. */
const boundUsed = (): DomainEvent[] => [
  requested(),
  ok.prepared(3, { maxFollowUps: 1 }),
  ...happy.promoted().slice(2),
  outside.review(),
  ok.synced(2),
  ok.generated(2),
  ok.applied(2),
  ok.tests(true, 2),
  ok.answered(2, PUSHED),
];

const rows: Row[] = [
  {
    name: 'CI finished on the head of a draft: the job reads CI',
    given: happy.waitingForCi(),
    when: outside.ciDone(),
    expect: { state: 'checkingCi', effect: effect('readCi', 1) },
  },
  {
    name: 'CI finished on another commit: nothing to do',
    given: happy.waitingForCi(),
    when: outside.ciDone('e'.repeat(40)),
    expect: { state: 'prOpened', effect: null },
  },
  {
    name: 'CI green on a draft whose tests passed: promote it',
    given: ciFinished(),
    when: ok.ci('passed'),
    expect: {
      state: 'promoting',
      effect: effect('promotePr', 1),
      context: { conversation: { ci: { state: 'passed' } } },
    },
  },
  {
    name: 'a person turned the ready PR back to draft: the job waits with it, held',
    given: happy.promoted(),
    when: outside.draft(true),
    expect: {
      state: 'prOpened',
      effect: null,
      context: { pr: { draft: true }, conversation: { heldDraft: 'maintainer' } },
    },
  },
  {
    name: 'CI green on a draft a person held: it stays draft, booty does not overrule them',
    given: [...happy.promoted(), outside.draft(true), outside.ciDone()],
    when: ok.ci('passed'),
    expect: { state: 'prOpened', effect: null, context: { conversation: { ci: { state: 'passed' } } } },
  },
  {
    name: 'the person marks it ready again: the hold is lifted',
    given: [...happy.promoted(), outside.draft(true)],
    when: outside.draft(false),
    expect: {
      state: 'promoted',
      effect: null,
      context: { pr: { draft: false }, conversation: { heldDraft: null } },
    },
  },
  {
    name: 'CI red the first time: re-run the failed jobs once, no round, no tokens',
    given: ciFinished(),
    when: ok.ci('failed'),
    expect: { state: 'rerunningCi', effect: effect('rerunCi', 1), context: { usage: { inputTokens: 200 } } },
  },
  {
    name: 'the re-run started: the job waits for CI again',
    given: [...ciFinished(), ok.ci('failed')],
    when: ok.rerun(),
    expect: { state: 'prOpened', effect: null, context: { conversation: { reruns: [HEAD] } } },
  },
  {
    name: 'a flaky check green on its re-run: promote, with no round',
    given: [...ciFinished(), ok.ci('failed'), ok.rerun(), outside.ciDone()],
    when: ok.ci('passed'),
    expect: { state: 'promoting', effect: effect('promotePr', 1), context: { conversation: { rounds: [] } } },
  },
  {
    name: 'still red after the re-run: a round with the failure starts from the branch head',
    given: [...ciFinished(), ok.ci('failed'), ok.rerun(), outside.ciDone()],
    when: ok.ci('failed'),
    expect: {
      state: 'syncing',
      effect: effect('syncBranch', 1),
      context: {
        conversation: {
          rounds: [{ n: 1, firstAttempt: 2, result: null, triggers: [{ kind: 'ci', sha: HEAD }] }],
        },
      },
    },
  },
  {
    name: "the round builds on the branch's head: its changes start empty there",
    given: ciRound(),
    when: ok.synced(),
    expect: {
      state: 'generating',
      effect: effect('generate', 2),
      context: { attempt: 2, changes: [], workspace: { baseSha: SYNCED }, pr: { headSha: SYNCED } },
    },
  },
  {
    name: 'tests pass in the round: booty answers, pushing the change',
    given: [...ciRound(), ok.synced(2), ok.generated(2), ok.applied(2)],
    when: ok.tests(true, 2),
    expect: { state: 'answering', effect: effect('answerRound', 2) },
  },
  {
    name: 'pushed on a draft: promote when CI allows',
    given: [...ciRound(), ok.synced(2), ok.generated(2), ok.applied(2), ok.tests(true, 2)],
    when: ok.answered(2, PUSHED),
    expect: {
      state: 'promoting',
      effect: effect('promotePr', 2),
      context: { pr: { headSha: PUSHED }, conversation: { rounds: [{ result: 'pushed', commit: PUSHED }] } },
    },
  },
  {
    name: 'CI red on a ready PR: it goes back to draft',
    given: [...happy.promoted(), outside.ciDone()],
    when: ok.ci('failed'),
    expect: { state: 'demoting', effect: effect('demotePr', 1) },
  },
  {
    name: 'back to draft: then the same re-run once',
    given: [...happy.promoted(), outside.ciDone(), ok.ci('failed')],
    when: ok.demoted(),
    expect: { state: 'rerunningCi', effect: effect('rerunCi', 1), context: { pr: { draft: true } } },
  },
  {
    name: 'a review on the ready PR starts a round with its words',
    given: happy.promoted(),
    when: outside.review(),
    expect: {
      state: 'syncing',
      effect: effect('syncBranch', 1),
      context: {
        conversation: { inbox: [], rounds: [{ n: 1, triggers: [{ kind: 'feedback', author: 'reviewer' }] }] },
      },
    },
  },
  {
    name: 'a review while a round runs is queued for the next one',
    given: [...happy.promoted(), outside.review(), ok.synced(2)],
    when: outside.review('And zero.'),
    expect: {
      state: 'generating',
      effect: effect('generate', 2),
      context: { conversation: { inbox: [{ kind: 'feedback', body: 'And zero.' }] } },
    },
  },
  {
    name: 'CI finished again while the job reads CI: noted, and the read it resumes still runs',
    given: ciFinished(),
    when: outside.ciDone(),
    expect: {
      state: 'checkingCi',
      effect: effect('readCi', 1),
      context: { conversation: { ciStale: true } },
    },
  },
  {
    name: 'the round answered: the ready PR keeps waiting as promoted',
    given: reviewRound(),
    when: ok.answered(2, PUSHED),
    expect: { state: 'promoted', effect: null, context: { conversation: { headTested: true, ci: null } } },
  },
  {
    name: "tests that still fail after the round's attempts: answered with the reason, nothing pushed",
    given: [
      ...happy.promoted(),
      outside.review(),
      ok.synced(2),
      ok.generated(2),
      ok.applied(2),
      ok.tests(false, 2),
      ok.refined(3),
      ok.applied(3),
      ok.tests(false, 3),
      ok.refined(4),
      ok.applied(4),
    ],
    when: ok.tests(false, 4),
    expect: {
      state: 'answering',
      effect: effect('answerRound', 4),
      context: {
        conversation: {
          rounds: [{ note: 'The tests still fail after 3 of 3 attempts, so nothing was pushed.' }],
        },
      },
    },
  },
  {
    name: 'the branch moved under booty on the same files: the round starts again from the new head',
    given: reviewRound(),
    when: {
      type: 'StepFailed',
      step: 'answer',
      attempt: 2,
      error: { code: 'BOOTY_E_HEAD_MOVED', message: 'moved', retryable: false, at: 1_700_000_000_000 },
    },
    expect: {
      state: 'syncing',
      effect: effect('syncBranch', 2),
      context: { conversation: { rounds: [{ firstAttempt: 3, result: null }] } },
    },
  },
  {
    name: 'past maxFollowUps a review waits, and the bound is noted',
    given: boundUsed(),
    when: outside.review('One more thing.'),
    expect: {
      state: 'promoted',
      effect: null,
      context: { conversation: { bounded: 'followUps', inbox: [] } },
    },
  },
  {
    name: 'past maxFollowUps a writer calling on @booty lifts the bound once',
    given: boundUsed(),
    when: outside.review('@booty one more thing.', true),
    expect: {
      state: 'syncing',
      effect: effect('syncBranch', 2),
      context: { conversation: { bounded: null, lifted: { followUps: 1 } } },
    },
  },
  {
    name: '@booty stop halts the round; its work is not pushed',
    given: [...happy.promoted(), outside.review(), ok.synced(2)],
    when: outside.command('stop'),
    expect: {
      state: 'prOpened',
      effect: null,
      context: { conversation: { rounds: [{ result: 'stopped' }] } },
    },
  },
  {
    name: '@booty retry on a draft with failing tests starts a round',
    given: [
      ...happy.testing(),
      ok.tests(false),
      ok.refined(2),
      ok.applied(2),
      ok.tests(false, 2),
      ok.refined(3),
      ok.applied(3),
      ok.tests(false, 3),
      ok.pr(3),
    ],
    when: outside.command('retry'),
    expect: {
      state: 'syncing',
      effect: effect('syncBranch', 3),
      context: {
        conversation: {
          rounds: [{ n: 1, firstAttempt: 4, triggers: [{ kind: 'command', command: 'retry' }] }],
        },
      },
    },
  },
  {
    name: 'a round whose sync fails for good is answered with the reason',
    given: [...happy.promoted(), outside.review()],
    when: failed('sync', false, 1),
    expect: { state: 'answering', effect: effect('answerRound', 1) },
  },
];

describe('decider: the PR conversation', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => check(row));
});
