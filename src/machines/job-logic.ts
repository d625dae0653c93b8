import { assign } from 'xstate';
import type {
  Analyzed,
  Applied,
  EffectFailure,
  Generated,
  Prepared,
  Promoted,
  PullRequest,
  TestRun,
} from '../events/effect-results.js';
import type { JobCancelled } from '../events/job-events.js';
import {
  type AttemptRecord,
  addUsage,
  asFailure,
  type JobState,
  lastTestOf,
  maxAttemptsOf,
  mergeChanges,
  retryDeadline,
  type StepError,
  tokensSpent,
} from './job-context.js';

// The job machine's guards and context updates. Pure functions of (context, event): no clock,
// no randomness, no I/O, so folding the log always lands on the same snapshot.

interface Args {
  context: JobState;
  // Done, error and outside events all arrive here; each function reads the one it is wired to.
  event: any;
}

const output = <T>(event: any): T => event.output as T;
const update = (fn: (args: Args) => Partial<JobState>) =>
  assign<JobState, JobCancelled, undefined, JobCancelled, any>(fn as any);
/** Records a finished step: its retry count and last error go with it. */
const done = (fn: (args: Args) => Partial<JobState>) => update((args) => ({ error: null, ...fn(args) }));

const retriesUsed = (context: JobState, src: string) =>
  context.error?.step === src ? context.error.retries : 0;

const stepError = (
  context: JobState,
  failure: EffectFailure,
  notBefore: number | null = null,
): StepError => ({
  step: failure.src,
  code: failure.code,
  message: failure.message,
  retries: retriesUsed(context, failure.src) + (notBefore === null ? 0 : 1),
  notBefore,
});

/** The attempt under way, changed. */
const withCurrent = (context: JobState, change: Partial<AttemptRecord>) =>
  context.attempts.map((a, i) => (i === context.attempts.length - 1 ? { ...a, ...change } : a));

function overBudget(context: JobState, event: unknown): boolean {
  const max = context.settings.maxTokens;
  const { usage } = output<Generated>(event);
  return max !== null && tokensSpent(addUsage(context.usage, usage)) > max;
}

export const guards = {
  canRetry: ({ context, event }: Args) => {
    const failure = asFailure(event.error);
    return failure.retryable && retriesUsed(context, failure.src) < context.settings.maxRetries;
  },
  overBudget: ({ context, event }: Args) => overBudget(context, event),
  overBudgetWithChanges: ({ context, event }: Args) =>
    overBudget(context, event) && context.changes.length > 0,
  baselineBroken: ({ event }: Args) => (output<TestRun>(event).broken ?? null) !== null,
  outcomeDecided: ({ context }: Args) => context.outcome !== null,
  appliedSomething: ({ event }: Args) => output<Applied>(event).applied.length > 0,
  attemptsLeft: ({ context }: Args) => context.attempt < maxAttemptsOf(context),
  hasChanges: ({ context }: Args) => context.changes.length > 0,
  testsPassed: ({ event }: Args) => output<TestRun>(event).passed,
  lastTestsFailed: ({ context }: Args) => lastTestOf(context)?.passed !== true,
  selfModification: ({ context }: Args) => context.settings.selfModification,
};

export const actions = {
  scheduleRetry: update(({ context, event }) => {
    const failure = asFailure(event.error);
    const notBefore = retryDeadline(context.settings, failure, retriesUsed(context, failure.src));
    return { error: stepError(context, failure, notBefore) };
  }),
  recordPrepared: done(({ context, event }) => {
    const out = output<Prepared>(event);
    return {
      workspace: { baseSha: out.baseSha, defaultBranch: out.defaultBranch },
      config: out.config,
      issue: { ...context.issue, comments: out.comments },
    };
  }),
  recordBaseline: done(({ event }) => ({ baseline: output<TestRun>(event) })),
  recordAnalysis: done(({ context, event }) => {
    const out = output<Analyzed>(event);
    return { analysis: out.analysis, usage: addUsage(context.usage, out.usage) };
  }),
  nextAttempt: update(({ context }) => ({ attempt: context.attempt + 1 })),
  recordProposal: done(({ context, event }) => {
    const out = output<Generated>(event);
    const attempt: AttemptRecord = {
      n: context.attempt,
      explanation: out.explanation,
      proposed: out.changes,
      files: [],
      rejected: [],
      addedTests: [],
      applied: false,
      test: null,
    };
    return { attempts: [...context.attempts, attempt], usage: addUsage(context.usage, out.usage) };
  }),
  recordApplied: done(({ context, event }) => {
    const out = output<Applied>(event);
    return {
      changes: mergeChanges(context.changes, out.applied),
      attempts: withCurrent(context, {
        files: out.applied.map((c) => c.path),
        rejected: out.rejected,
        addedTests: out.addedTests,
        applied: true,
      }),
    };
  }),
  recordTests: done(({ context, event }) => ({
    attempts: withCurrent(context, { test: output<TestRun>(event) }),
  })),
  recordPr: done(({ event }) => ({ pr: output<PullRequest>(event) })),
  /** The draft of a job that already failed: the error that failed it stays on record. */
  recordDraft: update(({ event }) => ({ pr: output<PullRequest>(event) })),
  recordPromoted: done(({ context, event }) => ({
    pr: context.pr && { ...context.pr, draft: output<Promoted>(event).draft },
    outcome: { reason: 'tests-passed', message: 'The tests pass; the pull request is ready for review.' },
  })),
  holdSelf: update(() => ({
    outcome: {
      reason: 'self-modification',
      message:
        'The tests pass, but this change modifies booty itself: the pull request stays draft until a human reviews it.',
    },
  })),
  recordPromotionFailed: update(({ context, event }) => {
    const failure = asFailure(event.error);
    return {
      error: stepError(context, failure),
      outcome: {
        reason: 'promotion-failed',
        message: `The tests pass, but marking the pull request ready for review failed: ${failure.message}`,
      },
    };
  }),
  failTests: update(({ context }) => {
    const unknown = lastTestOf(context)?.verdict === 'unknown';
    const tried = `${context.attempt} of ${maxAttemptsOf(context)} attempts`;
    return {
      outcome: unknown
        ? {
            reason: 'tests-unknown',
            message: `After ${tried}, booty could not see the tests pass, so it does not call the change done; the work is up as a draft pull request.`,
          }
        : {
            reason: 'tests-failing',
            message: `The tests still fail after ${tried}; the work is up as a draft pull request.`,
          },
    };
  }),
  failBaseline: update(({ event }) => {
    const run = output<TestRun>(event);
    const broken = run.broken!;
    return {
      outcome: {
        reason: broken.reason,
        message:
          broken.reason === 'test-command-timeout'
            ? `The test command \`${run.command}\` did not finish on the base branch before the timeout, so booty cannot judge a change with it. Nothing was sent to the model.`
            : `The test command \`${run.command}\` does not work on the base branch: ${broken.message}. Nothing was sent to the model.`,
      },
    };
  }),
  failNoChanges: update(({ context }) => ({
    outcome: {
      reason: 'no-changes',
      message: `No change could be applied in ${context.attempt} of ${maxAttemptsOf(context)} attempts; nothing was pushed.`,
    },
  })),
  failBudget: update(({ context }) => ({
    outcome: {
      reason: 'budget',
      message: `The job went over its budget of ${context.settings.maxTokens} tokens (spent ${tokensSpent(context.usage)}).${context.changes.length ? ' The work so far is up as a draft pull request.' : ''}`,
    },
  })),
  recordError: update(({ context, event }) => {
    const failure = asFailure(event.error);
    const budget = failure.code === 'BOOTY_E_BUDGET_EXCEEDED';
    // Past an applied change, the machine goes on to open a draft pull request with the work.
    const kept =
      context.changes.length > 0 && failure.src !== 'openPr'
        ? ' The work so far goes up as a draft pull request.'
        : '';
    return {
      error: stepError(context, failure),
      outcome:
        context.outcome ??
        (budget
          ? { reason: 'budget', message: `${failure.message}${kept}` }
          : { reason: 'error', message: `${failure.src} failed: ${failure.message}${kept}` }),
    };
  }),
  recordCancel: update(({ event }) => {
    const cancel = event as JobCancelled;
    const why = {
      unlabeled: 'the trigger label was removed',
      closed: 'the issue was closed',
      operator: 'an operator cancelled it',
    };
    return {
      outcome: { reason: cancel.reason, message: `Cancelled: ${why[cancel.reason]} (by ${cancel.sender}).` },
    };
  }),
};
