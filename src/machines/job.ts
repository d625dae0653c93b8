import { fromPromise, setup } from 'xstate';
import type { ConversationEvent } from '../events/conversation-events.js';
import type { EffectName, EffectOutput } from '../events/effect-results.js';
import type { JobCancelled, JobRequested } from '../events/job-events.js';
import { type EffectInput, effectInput, initialContext, type JobState } from './job-context.js';
import { actions, guards } from './job-logic.js';

// One job's whole lifecycle. The machine decides and never acts: every effect is an invoked actor
// named by a string `src`, provided by the runtime (or by a test), and every result or failure
// arrives as an event that the runner has already written to the log.

/** Placeholder for an effect: the runtime replaces it with `machine.provide({ actors })`. */
const effect = <K extends EffectName>(src: K) =>
  fromPromise<EffectOutput<K>, EffectInput>(async () => {
    throw {
      src,
      code: 'BOOTY_E_EFFECT_NOT_PROVIDED',
      message: `effect ${src} has no implementation`,
      retryable: false,
      at: 0,
    };
  });

type Action = keyof typeof actions;

/** Where a job waits with its open PR: `prOpened` while it is draft, `promoted` once it is ready. */
const toWaiting = (...actions: Action[]) => [
  { guard: 'prIsDraft' as const, target: '#job.prOpened', actions },
  { target: '#job.promoted', actions },
];

/**
 * A transient failure re-enters the same state after a backoff. Anything else ends a follow-up
 * round with the reason, or fails the job; once a change has been applied, the work goes up first
 * as a draft pull request that states the reason.
 */
const retryOrFail = (state: string) => [
  { guard: 'canRetry' as const, target: `#job.${state}`, reenter: true, actions: 'scheduleRetry' as const },
  { guard: 'inRound' as const, target: '#job.answering', actions: 'noteRoundError' as const },
  { guard: 'hasChanges' as const, target: '#job.openingPr', actions: 'recordError' as const },
  { target: '#job.failed', actions: 'recordError' as const },
];

/** A model step: one that cannot afford its request waits for a writer's `@booty continue`. */
const retryOrPark = (state: string) => {
  const [retry, ...rest] = retryOrFail(state);
  return [
    retry!,
    { guard: 'budgetParks' as const, target: '#job.budgetExhausted', actions: 'parkOnBudget' as const },
    ...rest,
  ];
};

/** A step of the PR's life that failed for good: noted, and the job goes back to waiting. */
const retryOrWait = (state: string) => [
  { guard: 'canRetry' as const, target: `#job.${state}`, reenter: true, actions: 'scheduleRetry' as const },
  ...toWaiting('recordAside'),
];

/** Over the token budget: the job waits for `@booty continue` (or, stamped before machine 5, stops). */
const overBudget = [
  { guard: 'overBudgetParks' as const, target: 'budgetExhausted', actions: 'recordProposal' as const },
  {
    guard: 'overBudgetInRound' as const,
    target: 'answering',
    actions: ['recordProposal', 'noteBudget'] as const,
  },
  {
    guard: 'overBudgetWithChanges' as const,
    target: 'openingPr',
    actions: ['recordProposal', 'failBudget'] as const,
  },
  { guard: 'overBudget' as const, target: 'failed', actions: ['recordProposal', 'failBudget'] as const },
];

/**
 * After CI was read: red CI on the PR's head re-runs the failed jobs once, then starts a round with
 * the failure, within the bound; anything else (pending, or past the bound) waits.
 */
const afterCi = (action: Action, wait: { target: string; guard?: 'prIsDraft' }[] = toWaiting()) => [
  { guard: 'rerunAllowed' as const, target: '#job.rerunningCi', actions: [action] },
  { guard: 'ciFixAllowed' as const, target: '#job.syncing', actions: [action, 'startCiRound' as const] },
  ...wait.map((w) => ({ ...w, actions: [action] })),
];

/** What wakes a waiting job: queued feedback starts a round; CI that finished meanwhile is read. */
const wake = [
  { guard: 'inboxWaiting' as const, target: 'syncing', actions: 'startRound' as const },
  { guard: 'ciStale' as const, target: 'checkingCi', actions: 'clearCiStale' as const },
];

/** CI that finished on the head is read at once by a waiting job (the root notes it while it works). */
const ciWakes = { CiCompleted: { guard: 'ciForHead' as const, target: 'checkingCi' } };

const input =
  (src: EffectName) =>
  ({ context }: { context: JobState }) =>
    effectInput(context, src);

export const jobMachine = setup({
  types: {
    context: {} as JobState,
    input: {} as JobRequested,
    events: {} as JobCancelled | ConversationEvent,
  },
  actors: {
    prepare: effect('prepare'),
    runBaseline: effect('runBaseline'),
    analyze: effect('analyze'),
    postPlan: effect('postPlan'),
    generate: effect('generate'),
    refine: effect('refine'),
    applyChanges: effect('applyChanges'),
    runTests: effect('runTests'),
    openPr: effect('openPr'),
    promotePr: effect('promotePr'),
    readCi: effect('readCi'),
    rerunCi: effect('rerunCi'),
    demotePr: effect('demotePr'),
    syncBranch: effect('syncBranch'),
    answerRound: effect('answerRound'),
    escalate: effect('escalate'),
  },
  guards,
  actions,
}).createMachine({
  id: 'job',
  // XState's pure transition() builds a throwaway actor that asks for the initial context with no
  // input; answering cheaply instead of throwing keeps folding a log fast.
  context: ({ input }) => (input ? initialContext(input) : ({} as JobState)),
  initial: 'preparing',
  // While the job works, what people say is queued for the next round, and CI is noted.
  on: {
    JobCancelled: { target: '.cancelled', actions: 'recordCancel' },
    FeedbackReceived: { actions: 'queueFeedback' },
    CommandReceived: [
      { guard: 'commandCancel', target: '.cancelled', actions: 'recordCommandCancel' },
      { guard: 'stopInRound', target: '.prOpened', actions: 'stopRound' },
      { guard: 'commandRetry', actions: 'queueRetry' },
    ],
    CiCompleted: { guard: 'ciForHead', actions: 'noteCiStale' },
    PrClosed: [
      { guard: 'merged', target: '.merged', actions: 'recordPrClosed' },
      { target: '.closed', actions: 'recordPrClosed' },
    ],
    PrUpdated: { guard: 'prChanged', actions: 'recordPrUpdate' },
  },
  states: {
    preparing: {
      invoke: {
        id: 'prepare',
        src: 'prepare',
        input: input('prepare'),
        onDone: { target: 'baselining', actions: 'recordPrepared' },
        onError: retryOrFail('preparing'),
      },
    },
    baselining: {
      invoke: {
        id: 'runBaseline',
        src: 'runBaseline',
        input: input('runBaseline'),
        onDone: [
          // A suite that cannot run cannot judge a change: stop before any request to the model.
          { guard: 'baselineBroken', target: 'failed', actions: ['recordBaseline', 'failBaseline'] },
          { target: 'analyzing', actions: 'recordBaseline' },
        ],
        onError: retryOrFail('baselining'),
      },
    },
    analyzing: {
      invoke: {
        id: 'analyze',
        src: 'analyze',
        input: input('analyze'),
        onDone: [
          { guard: 'overBudgetParks', target: 'budgetExhausted', actions: 'recordAnalysis' },
          { guard: 'overBudget', target: 'failed', actions: ['recordAnalysis', 'failBudget'] },
          { guard: 'planNeedsApproval', target: 'postingPlan', actions: 'recordAnalysis' },
          { target: 'generating', actions: ['recordAnalysis', 'nextAttempt'] },
        ],
        onError: retryOrPark('analyzing'),
      },
    },
    // The plan is posted on the issue, and waits for a writer: approve, revise or cancel.
    postingPlan: {
      invoke: {
        id: 'postPlan',
        src: 'postPlan',
        input: input('postPlan'),
        onDone: { target: 'awaitingApproval', actions: 'recordPlanPosted' },
        // The progress comment shows the plan too: the job waits for its answer all the same.
        onError: [
          { guard: 'canRetry', target: '#job.postingPlan', reenter: true, actions: 'scheduleRetry' },
          { target: 'awaitingApproval', actions: 'recordAside' },
        ],
      },
    },
    awaitingApproval: {
      tags: 'waiting',
      on: {
        CommandReceived: [
          { guard: 'commandApprove', target: 'generating', actions: ['approvePlan', 'nextAttempt'] },
          { guard: 'commandRevise', target: 'analyzing', actions: 'revisePlan' },
          // Nothing is open to run again: not taken (so not queued for a round), and the writer
          // hears what the job waits for.
          { guard: 'commandRetry' },
        ],
      },
    },
    generating: {
      invoke: {
        id: 'generate',
        src: 'generate',
        input: input('generate'),
        onDone: [...overBudget, { target: 'applying', actions: ['recordProposal'] }],
        onError: retryOrPark('generating'),
      },
    },
    applying: {
      invoke: {
        id: 'applyChanges',
        src: 'applyChanges',
        input: input('applyChanges'),
        onDone: [
          { guard: 'appliedSomething', target: 'testing', actions: ['recordApplied'] },
          // Nothing applied, and no attempt can change that (every change on a protected path).
          { guard: 'failsFastInRound', target: 'answering', actions: ['recordApplied', 'noteFailFast'] },
          { guard: 'failsFastWithChanges', target: 'openingPr', actions: ['recordApplied', 'failFast'] },
          { guard: 'escalatesFailFast', target: 'escalating', actions: ['recordApplied', 'failFast'] },
          { guard: 'failsFast', target: 'failed', actions: ['recordApplied', 'failFast'] },
          // An attempt that wrote nothing brings no improvement either.
          { guard: 'stalledInRound', target: 'answering', actions: ['recordApplied', 'noteStall'] },
          { guard: 'stalledWithChanges', target: 'openingPr', actions: ['recordApplied', 'failStall'] },
          { guard: 'stalledEscalating', target: 'escalating', actions: ['recordApplied', 'failStall'] },
          { guard: 'stalled', target: 'failed', actions: ['recordApplied', 'failStall'] },
          {
            guard: 'attemptsLeft',
            target: 'refining',
            actions: ['recordApplied', 'nextAttempt'],
          },
          { guard: 'inRound', target: 'answering', actions: ['recordApplied', 'noteNoChange'] },
          { guard: 'hasChanges', target: 'openingPr', actions: ['recordApplied'] },
          { guard: 'escalatesNoChanges', target: 'escalating', actions: ['recordApplied', 'failNoChanges'] },
          { target: 'failed', actions: ['recordApplied', 'failNoChanges'] },
        ],
        onError: retryOrFail('applying'),
      },
    },
    testing: {
      invoke: {
        id: 'runTests',
        src: 'runTests',
        input: input('runTests'),
        onDone: [
          { guard: 'passedInRound', target: 'answering', actions: ['recordTests'] },
          { guard: 'testsPassed', target: 'openingPr', actions: ['recordTests'] },
          // A failure no attempt can fix (the network, a missing program, the sandbox) stops here.
          { guard: 'failsFastInRound', target: 'answering', actions: ['recordTests', 'noteFailFast'] },
          { guard: 'failsFast', target: 'openingPr', actions: ['recordTests', 'failFast'] },
          // `stallAfter` attempts in a row brought no improvement (attempt-progress.ts): stop early.
          { guard: 'stalledInRound', target: 'answering', actions: ['recordTests', 'noteStall'] },
          { guard: 'stalled', target: 'openingPr', actions: ['recordTests', 'failStall'] },
          {
            guard: 'attemptsLeft',
            target: 'refining',
            actions: ['recordTests', 'nextAttempt'],
          },
          { guard: 'inRound', target: 'answering', actions: ['recordTests', 'noteTestsFailing'] },
          { target: 'openingPr', actions: ['recordTests'] },
        ],
        onError: retryOrFail('testing'),
      },
    },
    refining: {
      invoke: {
        id: 'refine',
        src: 'refine',
        input: input('refine'),
        onDone: [...overBudget, { target: 'applying', actions: ['recordProposal'] }],
        onError: retryOrPark('refining'),
      },
    },
    openingPr: {
      invoke: {
        id: 'openPr',
        src: 'openPr',
        input: input('openPr'),
        onDone: [
          // The job gave up (exhausted, stalled, failed fast): `escalate` in booty.yml is asked for help.
          { guard: 'escalatesDecided', target: 'escalating', actions: ['recordDraft'] },
          { guard: 'escalatesFailing', target: 'escalating', actions: ['recordPr', 'failTests'] },
          // The job already failed (a step error, the budget): its work waits as a draft.
          { guard: 'outcomeDecided', target: 'prOpened', actions: ['recordDraft'] },
          { guard: 'lastTestsFailed', target: 'prOpened', actions: ['recordPr', 'failTests'] },
          { guard: 'selfModification', target: 'prOpened', actions: ['recordPr', 'holdSelf'] },
          { target: 'promoting', actions: ['recordPr'] },
        ],
        onError: [
          { guard: 'canRetry', target: '#job.openingPr', reenter: true, actions: 'scheduleRetry' },
          { target: '#job.failed', actions: 'recordError' },
        ],
      },
    },
    // Reviewers requested on the draft PR, or the issue assigned when there is none, with a summary.
    escalating: {
      invoke: {
        id: 'escalate',
        src: 'escalate',
        input: input('escalate'),
        onDone: [
          { guard: 'hasPr', target: 'prOpened', actions: 'recordEscalation' },
          { target: 'failed', actions: 'recordEscalation' },
        ],
        // Asking for help failing does not change how the job ended.
        onError: [
          { guard: 'canRetry', target: '#job.escalating', reenter: true, actions: 'scheduleRetry' },
          { guard: 'hasPr', target: 'prOpened', actions: 'recordAside' },
          { target: 'failed', actions: 'recordAside' },
        ],
      },
    },
    promoting: {
      invoke: {
        id: 'promotePr',
        src: 'promotePr',
        input: input('promotePr'),
        onDone: [
          { guard: 'madeReady', target: 'promoted', actions: 'recordPromoted' },
          // CI pending or red: the PR stays draft.
          ...afterCi('recordCi', [{ target: '#job.prOpened' }]),
        ],
        // The PR is open and the tests pass: a failed promotion leaves it draft, not the job failed.
        onError: [
          { guard: 'canRetry', target: '#job.promoting', reenter: true, actions: 'scheduleRetry' },
          { target: 'prOpened', actions: 'recordPromotionFailed' },
        ],
      },
    },
    // The PR is draft: the job waits for a review, a writer's @booty, CI, or the PR's end.
    prOpened: {
      tags: 'waiting',
      always: wake,
      on: {
        ...ciWakes,
        PrUpdated: [
          { guard: 'markedReady', target: 'promoted', actions: 'recordPrUpdate' },
          { guard: 'prChanged', actions: 'recordPrUpdate' },
        ],
      },
    },
    // The PR is ready for review: the job still answers reviews, and red CI sends it back to draft.
    promoted: {
      tags: 'waiting',
      always: wake,
      on: {
        ...ciWakes,
        PrUpdated: [
          { guard: 'markedDraft', target: 'prOpened', actions: 'recordPrUpdate' },
          { guard: 'prChanged', actions: 'recordPrUpdate' },
        ],
      },
    },
    checkingCi: {
      invoke: {
        id: 'readCi',
        src: 'readCi',
        input: input('readCi'),
        onDone: [
          { guard: 'ciLetsPromote', target: 'promoting', actions: 'recordCi' },
          { guard: 'ciFailedOnReady', target: 'demoting', actions: 'recordCi' },
          ...afterCi('recordCi'),
        ],
        onError: retryOrWait('checkingCi'),
      },
    },
    demoting: {
      on: { PrUpdated: { guard: 'prChanged', actions: 'recordDemotionEcho' } },
      invoke: {
        id: 'demotePr',
        src: 'demotePr',
        input: input('demotePr'),
        onDone: afterCi('recordDemoted', [{ target: '#job.prOpened' }]),
        onError: retryOrWait('demoting'),
      },
    },
    rerunningCi: {
      invoke: {
        id: 'rerunCi',
        src: 'rerunCi',
        input: input('rerunCi'),
        onDone: toWaiting('recordRerun'),
        onError: retryOrWait('rerunningCi'),
      },
    },
    // A follow-up round: the branch's head as it is now, humans' commits included, then the same
    // bounded loop (generating → applying → testing → refining), then answering.
    syncing: {
      invoke: {
        id: 'syncBranch',
        src: 'syncBranch',
        input: input('syncBranch'),
        onDone: { target: 'generating', actions: ['recordSync', 'nextAttempt'] },
        onError: [
          { guard: 'canRetry', target: '#job.syncing', reenter: true, actions: 'scheduleRetry' },
          { target: 'answering', actions: 'noteRoundError' },
        ],
      },
    },
    answering: {
      invoke: {
        id: 'answerRound',
        src: 'answerRound',
        input: input('answerRound'),
        onDone: [
          { guard: 'pushedPassingDraft', target: 'promoting', actions: 'recordAnswer' },
          ...toWaiting('recordAnswer'),
        ],
        onError: [
          // Someone pushed to the same files while booty worked: the round starts again from there.
          { guard: 'headMoved', target: '#job.syncing', actions: 'restartRound' },
          { guard: 'canRetry', target: '#job.answering', reenter: true, actions: 'scheduleRetry' },
          ...toWaiting('abandonRound'),
        ],
      },
    },
    // At the token budget: parked until a writer's `@booty continue` raises it once by the step and
    // the job resumes where it stopped (the step that could not afford its request runs again; a
    // proposal already paid for is applied).
    budgetExhausted: {
      tags: 'waiting',
      on: {
        CommandReceived: [
          { guard: 'continueAnalysis', target: 'analyzing', actions: 'raiseBudget' },
          { guard: 'continueGenerating', target: 'generating', actions: 'raiseBudget' },
          { guard: 'continueRefining', target: 'refining', actions: 'raiseBudget' },
          { guard: 'continueApplying', target: 'applying', actions: 'raiseBudget' },
          { guard: 'continueToPlan', target: 'postingPlan', actions: 'raiseBudget' },
          { guard: 'commandContinue', target: 'generating', actions: ['raiseBudget', 'nextAttempt'] },
          { guard: 'commandRetry' },
        ],
      },
    },
    merged: { type: 'final' },
    closed: { type: 'final' },
    failed: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

export type JobMachine = typeof jobMachine;

/** Every state of the job, in the order a reader meets them; a test keeps it equal to the machine's. */
export const JOB_STATES = [
  'preparing',
  'baselining',
  'analyzing',
  'postingPlan',
  'awaitingApproval',
  'generating',
  'applying',
  'testing',
  'refining',
  'budgetExhausted',
  'openingPr',
  'escalating',
  'promoting',
  'prOpened',
  'promoted',
  'checkingCi',
  'demoting',
  'rerunningCi',
  'syncing',
  'answering',
  'merged',
  'closed',
  'failed',
  'cancelled',
] as const;
/** A state's name: every renderer maps each one, so a new state is a type error until it is shown. */
export type JobStateName = (typeof JOB_STATES)[number];
export const jobStates: readonly JobStateName[] = JOB_STATES;
export const finalStates = ['merged', 'closed', 'failed', 'cancelled'] as const;
/**
 * Where a job waits (with its PR, for its plan's approval, or at its budget): parked, holding no
 * slot and no process, until an event wakes it.
 */
export const waitingStates = ['prOpened', 'promoted', 'awaitingApproval', 'budgetExhausted'] as const;
