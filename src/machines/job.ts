import { fromPromise, setup } from 'xstate';
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

/**
 * A transient failure re-enters the same state after a backoff. Anything else fails the job; once a
 * change has been applied, the work goes up first as a draft pull request that states the reason.
 */
const retryOrFail = (state: string) => [
  { guard: 'canRetry' as const, target: `#job.${state}`, reenter: true, actions: 'scheduleRetry' as const },
  { guard: 'hasChanges' as const, target: '#job.openingPr', actions: 'recordError' as const },
  { target: '#job.failed', actions: 'recordError' as const },
];

/** Over the token budget: the same, with the budget as the reason. */
const overBudget = [
  {
    guard: 'overBudgetWithChanges' as const,
    target: 'openingPr',
    actions: ['recordProposal', 'failBudget'] as const,
  },
  { guard: 'overBudget' as const, target: 'failed', actions: ['recordProposal', 'failBudget'] as const },
];

const input =
  (src: EffectName) =>
  ({ context }: { context: JobState }) =>
    effectInput(context, src);

export const jobMachine = setup({
  types: {
    context: {} as JobState,
    input: {} as JobRequested,
    events: {} as JobCancelled,
  },
  actors: {
    prepare: effect('prepare'),
    runBaseline: effect('runBaseline'),
    analyze: effect('analyze'),
    generate: effect('generate'),
    refine: effect('refine'),
    applyChanges: effect('applyChanges'),
    runTests: effect('runTests'),
    openPr: effect('openPr'),
    promotePr: effect('promotePr'),
  },
  guards,
  actions,
}).createMachine({
  id: 'job',
  // XState's pure transition() builds a throwaway actor that asks for the initial context with no
  // input; answering cheaply instead of throwing keeps folding a log fast.
  context: ({ input }) => (input ? initialContext(input) : ({} as JobState)),
  initial: 'preparing',
  on: { JobCancelled: { target: '.cancelled', actions: 'recordCancel' } },
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
          { guard: 'overBudget', target: 'failed', actions: ['recordAnalysis', 'failBudget'] },
          { target: 'generating', actions: ['recordAnalysis', 'nextAttempt'] },
        ],
        onError: retryOrFail('analyzing'),
      },
    },
    generating: {
      invoke: {
        id: 'generate',
        src: 'generate',
        input: input('generate'),
        onDone: [...overBudget, { target: 'applying', actions: ['recordProposal'] }],
        onError: retryOrFail('generating'),
      },
    },
    applying: {
      invoke: {
        id: 'applyChanges',
        src: 'applyChanges',
        input: input('applyChanges'),
        onDone: [
          { guard: 'appliedSomething', target: 'testing', actions: ['recordApplied'] },
          {
            guard: 'attemptsLeft',
            target: 'refining',
            actions: ['recordApplied', 'nextAttempt'],
          },
          { guard: 'hasChanges', target: 'openingPr', actions: ['recordApplied'] },
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
          { guard: 'testsPassed', target: 'openingPr', actions: ['recordTests'] },
          {
            guard: 'attemptsLeft',
            target: 'refining',
            actions: ['recordTests', 'nextAttempt'],
          },
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
        onError: retryOrFail('refining'),
      },
    },
    openingPr: {
      invoke: {
        id: 'openPr',
        src: 'openPr',
        input: input('openPr'),
        onDone: [
          // The job already failed (a step error, the budget): its work is up as a draft.
          { guard: 'outcomeDecided', target: 'failed', actions: ['recordDraft'] },
          { guard: 'lastTestsFailed', target: 'failed', actions: ['recordPr', 'failTests'] },
          {
            guard: 'selfModification',
            target: 'heldAsDraft',
            actions: ['recordPr', 'holdSelf'],
          },
          { target: 'prOpened', actions: ['recordPr'] },
        ],
        onError: [
          { guard: 'canRetry', target: '#job.openingPr', reenter: true, actions: 'scheduleRetry' },
          { target: '#job.failed', actions: 'recordError' },
        ],
      },
    },
    prOpened: {
      invoke: {
        id: 'promotePr',
        src: 'promotePr',
        input: input('promotePr'),
        onDone: { target: 'promoted', actions: 'recordPromoted' },
        // The PR is open and the tests pass: a failed promotion leaves it draft, not the job failed.
        onError: [
          { guard: 'canRetry', target: '#job.prOpened', reenter: true, actions: 'scheduleRetry' },
          { target: 'heldAsDraft', actions: 'recordPromotionFailed' },
        ],
      },
    },
    promoted: { type: 'final' },
    heldAsDraft: { type: 'final' },
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
  'generating',
  'applying',
  'testing',
  'refining',
  'openingPr',
  'prOpened',
  'promoted',
  'heldAsDraft',
  'failed',
  'cancelled',
] as const;
/** A state's name: every renderer maps each one, so a new state is a type error until it is shown. */
export type JobStateName = (typeof JOB_STATES)[number];
export const jobStates: readonly JobStateName[] = JOB_STATES;
export const finalStates = ['promoted', 'heldAsDraft', 'failed', 'cancelled'] as const;
