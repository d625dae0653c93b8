import { assign } from 'xstate';
import type {
  Analyzed,
  Applied,
  Generated,
  Prepared,
  Promoted,
  PullRequest,
  TestRun,
} from '../events/effect-results.js';
import type { JobCancelled } from '../events/job-events.js';
import {
  addUsage,
  asFailure,
  type JobContext,
  mergeChanges,
  retryDeadline,
  tokensSpent,
} from './job-context.js';

// The job machine's guards and context updates. Pure functions of (context, event): no clock,
// no randomness, no I/O, so folding the log always lands on the same snapshot.

interface Args {
  context: JobContext;
  // Done, error and outside events all arrive here; each function reads the one it is wired to.
  event: any;
}

const output = <T>(event: any): T => event.output as T;
const update = (fn: (args: Args) => Partial<JobContext>) =>
  assign<JobContext, JobCancelled, undefined, JobCancelled, any>(fn as any);
/** Records a finished step: its retry count and last error go with it. */
const done = (fn: (args: Args) => Partial<JobContext>) =>
  update((args) => ({ retry: null, error: null, ...fn(args) }));

const retriesUsed = (context: JobContext, src: string) =>
  context.retry?.step === src ? context.retry.count : 0;

export const guards = {
  canRetry: ({ context, event }: Args) => {
    const failure = asFailure(event.error);
    return failure.retryable && retriesUsed(context, failure.src) < context.settings.maxRetries;
  },
  overBudget: ({ context, event }: Args) => {
    const max = context.settings.maxTokens;
    const { usage } = output<Generated>(event);
    return max !== null && tokensSpent(addUsage(context.usage, usage)) > max;
  },
  appliedSomething: ({ event }: Args) => output<Applied>(event).applied.length > 0,
  attemptsLeft: ({ context }: Args) => context.attempt < context.maxAttempts,
  hasChanges: ({ context }: Args) => context.changes.length > 0,
  testsPassed: ({ event }: Args) => output<TestRun>(event).passed,
  lastTestsFailed: ({ context }: Args) => context.lastTest?.passed !== true,
  selfModification: ({ context }: Args) => context.settings.selfModification,
};

export const actions = {
  scheduleRetry: update(({ context, event }) => {
    const failure = asFailure(event.error);
    const count = retriesUsed(context, failure.src);
    return {
      retry: {
        step: failure.src as NonNullable<JobContext['retry']>['step'],
        count: count + 1,
        notBefore: retryDeadline(context.settings, failure, count),
      },
      error: { step: failure.src, code: failure.code, message: failure.message },
    };
  }),
  recordPrepared: done(({ event }) => {
    const out = output<Prepared>(event);
    return {
      workspace: { baseSha: out.baseSha, defaultBranch: out.defaultBranch },
      config: out.config,
      maxAttempts: out.config.maxAttempts,
      comments: out.comments,
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
    return { proposal: out, usage: addUsage(context.usage, out.usage) };
  }),
  recordApplied: done(({ context, event }) => {
    const out = output<Applied>(event);
    return {
      changes: mergeChanges(context.changes, out.applied),
      addedTests: [...new Set([...context.addedTests, ...out.addedTests])].sort(),
      attempts: [
        ...context.attempts,
        {
          n: context.attempt,
          explanation: context.proposal?.explanation ?? '',
          files: out.applied.map((c) => c.path),
          rejected: out.rejected,
          test: null,
        },
      ],
      proposal: null,
    };
  }),
  recordTests: done(({ context, event }) => {
    const run = output<TestRun>(event);
    const summary = {
      passed: run.passed,
      exitCode: run.exitCode,
      timedOut: run.timedOut,
      durationMs: run.durationMs,
      failingTests: run.failingTests,
      newFailures: run.newFailures,
      addedTestsFailing: run.addedTestsFailing,
    };
    const attempts = context.attempts.map((a, i) =>
      i === context.attempts.length - 1 ? { ...a, test: summary } : a,
    );
    return { lastTest: run, attempts };
  }),
  recordPr: done(({ event }) => ({ pr: output<PullRequest>(event) })),
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
  recordPromotionFailed: update(({ event }) => {
    const failure = asFailure(event.error);
    return {
      error: { step: failure.src, code: failure.code, message: failure.message },
      outcome: {
        reason: 'promotion-failed',
        message: `The tests pass, but marking the pull request ready for review failed: ${failure.message}`,
      },
    };
  }),
  failTests: update(({ context }) => ({
    outcome: {
      reason: 'tests-failing',
      message: `The tests still fail after ${context.attempt} of ${context.maxAttempts} attempts; the work is up as a draft pull request.`,
    },
  })),
  failNoChanges: update(({ context }) => ({
    outcome: {
      reason: 'no-changes',
      message: `No change could be applied in ${context.attempt} of ${context.maxAttempts} attempts; nothing was pushed.`,
    },
  })),
  failBudget: update(({ context }) => ({
    outcome: {
      reason: 'budget',
      message: `The job went over its budget of ${context.settings.maxTokens} tokens (spent ${tokensSpent(context.usage)}).`,
    },
  })),
  recordError: update(({ event }) => {
    const failure = asFailure(event.error);
    const budget = failure.code === 'BOOTY_E_BUDGET_EXCEEDED';
    return {
      error: { step: failure.src, code: failure.code, message: failure.message },
      outcome: budget
        ? { reason: 'budget', message: failure.message }
        : { reason: 'error', message: `${failure.src} failed: ${failure.message}` },
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
