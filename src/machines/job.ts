import { fromPromise, setup } from 'xstate';
import type { EffectName, EffectOutput } from '../events/effect-results.js';
import type { JobRequested } from '../events/job-events.js';
import { type EffectInput, effectInput, initialContext, type JobState } from './job-context.js';
import { actions, guards } from './job-logic.js';
import type { MachineEvent } from './machine-events.js';

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

/** A state that runs one effect: its result, or its failure, is the next event, as the log holds it. */
const step = <K extends EffectName, const T extends { onDone: unknown; onError: unknown }>(
  src: K,
  on: T,
) => ({
  invoke: { id: src, src, input: ({ context }: { context: JobState }) => effectInput(context, src), ...on },
});

/** Where a job waits with its open PR: `prOpened` while it is draft, `promoted` once it is ready. */
const toWaiting = (...actions: Action[]) => [
  { guard: 'prIsDraft' as const, target: '#job.prOpened', actions },
  { target: '#job.promoted', actions },
];

/** A transient failure re-enters the same state after a backoff, its deadline in the effect's input. */
const retry = (state: string) => ({
  guard: 'canRetry' as const,
  target: `#job.${state}`,
  reenter: true,
  actions: 'scheduleRetry' as const,
});

/** A step of the loop that failed for good ends it, with the reason. */
const retryOrConclude = (state: string) => [
  retry(state),
  { target: '#job.concluding', actions: 'endOnError' as const },
];

/** A model step: one that cannot afford its request waits for a writer's `@booty continue`. */
const retryOrPark = (state: string) => [
  retry(state),
  { guard: 'budgetParks' as const, target: '#job.budgetExhausted', actions: 'parkOnBudget' as const },
  { target: '#job.concluding', actions: 'endOnError' as const },
];

/** A step of the PR's life that failed for good: noted, and the job goes back to waiting. */
const retryOrWait = (state: string) => [retry(state), ...toWaiting('recordAside')];

/** Over the token budget after a model step: parked for `@booty continue` (before machine 5: the end). */
const overBudget = (record: 'recordAnalysis' | 'recordProposal') => [
  { guard: 'overBudgetParks' as const, target: '#job.budgetExhausted', actions: record },
  { guard: 'overBudget' as const, target: '#job.concluding', actions: [record, 'endOverBudget' as const] },
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

/** Questions waiting are answered first, in a round of their own. */
const answerQuestions = {
  guard: 'questionWaiting' as const,
  target: '#job.answeringQuestion',
  actions: 'startQuestions' as const,
};

/**
 * What wakes a waiting job: questions are answered; queued feedback starts a round; CI that
 * finished meanwhile is read (on a pull request booty opened).
 */
const wake = [
  answerQuestions,
  { guard: 'inboxWaiting' as const, target: 'syncing', actions: 'startRound' as const },
  { guard: 'ciStale' as const, target: 'checkingCi', actions: 'clearCiStale' as const },
];

/** CI that finished on the head is read at once by a waiting job (the root notes it while it works). */
const ciWakes = { CiCompleted: { guard: 'ciForHead' as const, target: 'checkingCi' } };

/** Where a round of questions leads once answered: back to where the job waited. */
const afterQuestions = (action: 'recordQuestion' | 'abandonQuestion') => [
  { guard: 'hasDraftPr' as const, target: '#job.prOpened', actions: action },
  { guard: 'hasPr' as const, target: '#job.promoted', actions: action },
  { guard: 'planWaiting' as const, target: '#job.awaitingApproval', actions: action },
  // A job that only answers: more questions are answered, a request for a change starts the work.
  {
    guard: 'questionWaiting' as const,
    target: '#job.answeringQuestion',
    reenter: true,
    actions: [action, 'startQuestions' as const],
  },
  { guard: 'inboxWaiting' as const, target: '#job.baselining', actions: [action, 'takeRequests' as const] },
  { target: '#job.answered', actions: action },
];

export const jobMachine = setup({
  types: {
    context: {} as JobState,
    input: {} as JobRequested,
    events: {} as MachineEvent,
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
    answerQuestion: effect('answerQuestion'),
    applySuggestions: effect('applySuggestions'),
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
    QuestionAsked: { actions: 'queueQuestion' },
    CommandReceived: [
      { guard: 'commandCancel', target: '.cancelled', actions: 'recordCommandCancel' },
      // The round ends where it stands, and answering tells who asked, and who stopped it.
      { guard: 'stopsRound', target: '.answering', actions: 'stopRound' },
      { guard: 'stopInRound', target: '.prOpened', actions: 'stopRoundLegacy' },
      { guard: 'retryTaken', actions: 'queueRetry' },
      { guard: 'applyTaken', actions: 'queueApply' },
    ],
    CiCompleted: { guard: 'ciForHead', actions: 'noteCiStale' },
    PrClosed: [
      { guard: 'merged', target: '.merged', actions: 'recordPrClosed' },
      { target: '.closed', actions: 'recordPrClosed' },
    ],
    PrUpdated: { guard: 'prChanged', actions: 'recordPrUpdate' },
  },
  states: {
    preparing: step('prepare', {
      onDone: [
        // A writer's question is answered, with nothing run and nothing changed.
        { ...answerQuestions, actions: ['recordPrepared', 'startQuestions'] },
        // Asked on someone else's pull request: a round on its branch, its tests run at its head first.
        { guard: 'onPersonPr', target: 'syncing', actions: ['recordPrepared', 'startRound'] },
        { target: 'baselining', actions: 'recordPrepared' },
      ],
      onError: retryOrConclude('preparing'),
    }),
    baselining: step('runBaseline', {
      onDone: [
        // A suite that cannot run cannot judge a change: stop before any request to the model.
        { guard: 'baselineBroken', target: 'failed', actions: ['recordBaseline', 'failBaseline'] },
        // A round on someone else's pull request needs no analysis: the request says what to do.
        { guard: 'inRound', target: 'generating', actions: ['recordBaseline', 'nextAttempt'] },
        { target: 'analyzing', actions: 'recordBaseline' },
      ],
      onError: retryOrConclude('baselining'),
    }),
    analyzing: step('analyze', {
      onDone: [
        ...overBudget('recordAnalysis'),
        { guard: 'planNeedsApproval', target: 'postingPlan', actions: 'recordAnalysis' },
        { target: 'generating', actions: ['recordAnalysis', 'nextAttempt'] },
      ],
      onError: retryOrPark('analyzing'),
    }),
    // The plan is posted on the issue, and waits for a writer: approve, revise or cancel.
    postingPlan: step('postPlan', {
      onDone: { target: 'awaitingApproval', actions: 'recordPlanPosted' },
      // The progress comment shows the plan too: the job waits for its answer all the same.
      onError: [retry('postingPlan'), { target: 'awaitingApproval', actions: 'recordAside' }],
    }),
    awaitingApproval: {
      tags: 'waiting',
      always: answerQuestions,
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
    // The bounded loop: generating → applying → testing → (refining → applying → testing)*, until
    // the tests pass or the loop ends for a reason (recorded by an `end…` action) in `concluding`.
    generating: step('generate', {
      onDone: [...overBudget('recordProposal'), { target: 'applying', actions: 'recordProposal' }],
      onError: retryOrPark('generating'),
    }),
    applying: step('applyChanges', {
      onDone: [
        { guard: 'appliedSomething', target: 'testing', actions: 'recordApplied' },
        // Nothing applied, and no attempt can change that (every change on a protected path).
        { guard: 'failsFast', target: 'concluding', actions: ['recordApplied', 'endFailFast'] },
        // An attempt that wrote nothing brings no improvement either.
        { guard: 'stalled', target: 'concluding', actions: ['recordApplied', 'endStalled'] },
        { guard: 'attemptsLeft', target: 'refining', actions: ['recordApplied', 'nextAttempt'] },
        { target: 'concluding', actions: ['recordApplied', 'endNoChanges'] },
      ],
      onError: retryOrConclude('applying'),
    }),
    testing: step('runTests', {
      onDone: [
        { guard: 'testsPassed', target: 'concluding', actions: 'recordTests' },
        // A failure no attempt can fix (the network, a missing program, the sandbox) stops here.
        { guard: 'failsFast', target: 'concluding', actions: ['recordTests', 'endFailFast'] },
        // `stallAfter` attempts in a row brought no improvement (attempt-progress.ts): stop early.
        { guard: 'stalled', target: 'concluding', actions: ['recordTests', 'endStalled'] },
        { guard: 'attemptsLeft', target: 'refining', actions: ['recordTests', 'nextAttempt'] },
        { target: 'concluding', actions: ['recordTests', 'endTestsFailing'] },
      ],
      onError: retryOrConclude('testing'),
    }),
    refining: step('refine', {
      onDone: [...overBudget('recordProposal'), { target: 'applying', actions: 'recordProposal' }],
      onError: retryOrPark('refining'),
    }),
    // Where the loop's end leads: a choice, left at once, so no job rests (or is logged) here. A
    // round answers; work that was applied goes up as a pull request (a draft that states the
    // reason, unless the tests pass); a job that gave up asks for help; anything else has failed.
    concluding: {
      always: [
        { guard: 'inRound', target: 'answering' },
        { guard: 'hasChanges', target: 'openingPr' },
        { guard: 'asksForHelp', target: 'escalating' },
        { target: 'failed' },
      ],
    },
    openingPr: step('openPr', {
      onDone: [
        // The job gave up (exhausted, stalled, failed fast): `escalate` in booty.yml is asked for help.
        { guard: 'asksForHelp', target: 'escalating', actions: 'recordDraft' },
        { guard: 'escalatesFailing', target: 'escalating', actions: ['recordPr', 'failTests'] },
        // The job already failed (a step error, the budget): its work waits as a draft.
        { guard: 'outcomeDecided', target: 'prOpened', actions: 'recordDraft' },
        { guard: 'lastTestsFailed', target: 'prOpened', actions: ['recordPr', 'failTests'] },
        { guard: 'selfModification', target: 'prOpened', actions: ['recordPr', 'holdSelf'] },
        { target: 'promoting', actions: 'recordPr' },
      ],
      onError: [retry('openingPr'), { target: '#job.failed', actions: 'recordError' }],
    }),
    // Reviewers requested on the draft PR, or the issue assigned when there is none, with a summary.
    escalating: step('escalate', {
      onDone: [
        { guard: 'hasPr', target: 'prOpened', actions: 'recordEscalation' },
        { target: 'failed', actions: 'recordEscalation' },
      ],
      // Asking for help failing does not change how the job ended.
      onError: [
        retry('escalating'),
        { guard: 'hasPr', target: 'prOpened', actions: 'recordAside' },
        { target: 'failed', actions: 'recordAside' },
      ],
    }),
    promoting: step('promotePr', {
      onDone: [
        { guard: 'madeReady', target: 'promoted', actions: 'recordPromoted' },
        // CI pending or red: the PR stays draft.
        ...afterCi('recordCi', [{ target: '#job.prOpened' }]),
      ],
      // The PR is open and the tests pass: a failed promotion leaves it draft, not the job failed.
      onError: [retry('promoting'), { target: 'prOpened', actions: 'recordPromotionFailed' }],
    }),
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
    checkingCi: step('readCi', {
      onDone: [
        { guard: 'ciLetsPromote', target: 'promoting', actions: 'recordCi' },
        // A ready pull request stays ready while a flaky check runs again: only a red re-run demotes.
        { guard: 'rerunBeforeDemoting', target: 'rerunningCi', actions: 'recordCi' },
        { guard: 'ciFailedOnReady', target: 'demoting', actions: 'recordCi' },
        ...afterCi('recordCi'),
      ],
      onError: retryOrWait('checkingCi'),
    }),
    demoting: {
      on: { PrUpdated: { guard: 'prChanged', actions: 'recordDemotionEcho' } },
      ...step('demotePr', {
        onDone: afterCi('recordDemoted', [{ target: '#job.prOpened' }]),
        onError: retryOrWait('demoting'),
      }),
    },
    rerunningCi: step('rerunCi', { onDone: toWaiting('recordRerun'), onError: retryOrWait('rerunningCi') }),
    // A follow-up round: the branch's head as it is now, humans' commits included, then the same
    // bounded loop, then answering.
    syncing: step('syncBranch', {
      onDone: [
        // `@booty apply suggestions`: the writers' suggestion blocks, as written, at the head.
        { guard: 'appliesSuggestions', target: 'applyingSuggestions', actions: 'recordSync' },
        // Someone else's pull request: its tests run at its head first, to judge the round by.
        { guard: 'noBaseline', target: 'baselining', actions: 'recordSync' },
        { target: 'generating', actions: ['recordSync', 'nextAttempt'] },
      ],
      onError: retryOrConclude('syncing'),
    }),
    // No model and no tests: the round's answer pushes the suggestions in one commit.
    applyingSuggestions: step('applySuggestions', {
      onDone: { target: 'answering', actions: 'recordSuggestions' },
      onError: retryOrConclude('applyingSuggestions'),
    }),
    answering: {
      // The push may be under way: too late to stop it (not taken, so the writer hears why).
      on: { CommandReceived: { guard: 'stopWhileAnswering' } },
      ...step('answerRound', {
        onDone: [
          { guard: 'pushedPassingDraft', target: 'promoting', actions: 'recordAnswer' },
          ...toWaiting('recordAnswer'),
        ],
        onError: [
          // Someone pushed to the same files while booty worked: the round starts again from there.
          { guard: 'headMoved', target: '#job.syncing', actions: 'restartRound' },
          retry('answering'),
          ...toWaiting('abandonRound'),
        ],
      }),
    },
    // A round of questions: the model reads the code at the head and answers each in one reply.
    answeringQuestion: step('answerQuestion', {
      onDone: afterQuestions('recordQuestion'),
      onError: [retry('answeringQuestion'), ...afterQuestions('abandonQuestion')],
    }),
    // At the token budget: parked until a writer's `@booty continue` raises it once by the step and
    // the job resumes where it stopped (the step that could not afford its request runs again; a
    // proposal already paid for is applied).
    budgetExhausted: {
      tags: 'waiting',
      on: {
        // A question cannot be paid for here: not taken, so the writer hears what the job waits for.
        QuestionAsked: {},
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
    // A job that only answered a question: the next `@booty` on the issue starts a new one.
    answered: { type: 'final' },
    failed: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

export type JobMachine = typeof jobMachine;
