import type {
  CommandReceived,
  FeedbackReceived,
  PrClosed,
  PrUpdated,
} from '../events/conversation-events.js';
import type {
  Analyzed,
  Answered,
  Applied,
  CiRead,
  CiRerun,
  Generated,
  Prepared,
  Promoted,
  PullRequest,
  Synced,
  TestRun,
} from '../events/effect-results.js';
import type { JobCancelled } from '../events/job-events.js';
import { failFastMessage } from '../refine/class-guidance.js';
import {
  type AttemptRecord,
  addUsage,
  asFailure,
  type Conversation,
  currentRound,
  type JobState,
  lastTestOf,
  maxAttemptsOf,
  mergeChanges,
  type Outcome,
  type Round,
  type RoundTrigger,
  retryDeadline,
  roundAttempt,
  tokensSpent,
} from './job-context.js';
import {
  type Args,
  done,
  failedStep,
  failingFast,
  output,
  overBudget,
  retriesUsed,
  talk,
  update,
  withCurrent,
  withRound,
} from './logic-kit.js';
import { loopActions, loopGuards } from './loop-logic.js';

// The job machine's guards and context updates. Pure functions of (context, event): no clock,
// no randomness, no I/O, so folding the log always lands on the same snapshot. The refine loop's
// controls (budget, plan, stall, escalation) are in loop-logic.ts.

/** CI as the event at hand carries it: read now, read by the promotion, or as last read. */
function ciOf(context: JobState, event: any): Omit<CiRead, 'at'> | null {
  const out = event?.output;
  if (out && typeof out.sha === 'string' && typeof out.state === 'string') return out as CiRead;
  if (out && 'ci' in out) return (out as Promoted).ci ?? null;
  return context.conversation.ci;
}

const isFollowUp = (t: RoundTrigger) => t.kind !== 'ci';
const followUpsUsed = (c: Conversation) =>
  c.rounds.filter((r) => r.triggers.some(isFollowUp)).length + (c.inbox.some(isFollowUp) ? 1 : 0);
const ciFixesUsed = (c: Conversation) =>
  c.rounds.filter((r) => r.triggers.every((t) => t.kind === 'ci')).length;
const maxFollowUps = (s: JobState) => (s.config?.maxFollowUps ?? 5) + s.conversation.lifted.followUps;
const maxCiFixes = (s: JobState) => (s.config?.maxCiFixes ?? 3) + s.conversation.lifted.ciFixes;

function rerunAllowed(context: JobState, event: unknown): boolean {
  const ci = ciOf(context, event);
  return ci?.state === 'failed' && ci.rerunnable.length > 0 && !context.conversation.reruns.includes(ci.sha);
}
const ciFixAllowed = (context: JobState, event: unknown) =>
  ciOf(context, event)?.state === 'failed' && ciFixesUsed(context.conversation) < maxCiFixes(context);

/**
 * Queues a request for the next round. A request past the bound on follow-up rounds is dropped
 * and the bound noted, unless it called on booty by name: that lifts the bound once.
 */
function queued(context: JobState, trigger: RoundTrigger, mention: boolean): Partial<JobState> {
  const c = context.conversation;
  const joins = c.inbox.some(isFollowUp) || currentRound(context) === null;
  const room = followUpsUsed(c) < maxFollowUps(context) || (joins && c.inbox.some(isFollowUp));
  if (!room && !mention) return talk(context, { bounded: 'followUps' });
  const lifted = room
    ? c.lifted
    : {
        followUps: c.lifted.followUps + 1,
        // A writer's word also lifts a reached CI bound: the next red CI gets a round again.
        ciFixes: c.lifted.ciFixes + (c.bounded === 'ciFixes' ? 1 : 0),
      };
  return talk(context, { inbox: [...c.inbox, trigger], lifted, bounded: null });
}

function newRound(context: JobState, triggers: RoundTrigger[]): Round {
  return {
    n: context.conversation.rounds.length + 1,
    triggers,
    firstAttempt: context.attempt + 1,
    base: null,
    result: null,
    commit: null,
    note: null,
  };
}

/** The attempt under way, for the fail-fast message; its class is what the event recorded. */
function failFastOutcome(context: JobState): Outcome {
  const attempt = context.attempts.at(-1)!;
  const cls = attempt.failureClass as 'policy' | 'environment' | 'unreadable';
  const message = failFastMessage(cls, attempt);
  return { reason: cls === 'unreadable' ? 'tests-unreadable' : cls, message };
}

export const guards = {
  ...loopGuards,
  failsFast: ({ event }: Args) => failingFast(event),
  failsFastInRound: ({ context, event }: Args) => currentRound(context) !== null && failingFast(event),
  failsFastWithChanges: ({ context, event }: Args) => failingFast(event) && context.changes.length > 0,
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
  attemptsLeft: ({ context }: Args) => roundAttempt(context) < maxAttemptsOf(context),
  hasChanges: ({ context }: Args) => context.changes.length > 0,
  testsPassed: ({ event }: Args) => output<TestRun>(event).passed,
  lastTestsFailed: ({ context }: Args) => lastTestOf(context)?.passed !== true,
  selfModification: ({ context }: Args) => context.settings.selfModification,
  inRound: ({ context }: Args) => currentRound(context) !== null,
  passedInRound: ({ context, event }: Args) =>
    currentRound(context) !== null && output<TestRun>(event).passed,
  overBudgetInRound: ({ context, event }: Args) =>
    currentRound(context) !== null && overBudget(context, event),
  prIsDraft: ({ context }: Args) => context.pr?.draft !== false,
  madeReady: ({ event }: Args) => output<Promoted>(event).draft === false,
  rerunAllowed: ({ context, event }: Args) => rerunAllowed(context, event),
  ciFixAllowed: ({ context, event }: Args) => ciFixAllowed(context, event),
  /** CI passed (or there is none) on a draft whose head booty's tests passed: it can be made ready. */
  ciLetsPromote: ({ context, event }: Args) => {
    const ci = output<CiRead>(event);
    return (
      (ci.state === 'passed' || ci.state === 'none') &&
      context.pr?.draft !== false &&
      !context.conversation.heldDraft &&
      context.conversation.headTested &&
      !context.settings.selfModification
    );
  },
  ciFailedOnReady: ({ context, event }: Args) =>
    output<CiRead>(event).state === 'failed' && context.pr?.draft === false,
  pushedPassingDraft: ({ context, event }: Args) =>
    output<Answered>(event).commit !== null &&
    context.pr?.draft !== false &&
    !context.conversation.heldDraft &&
    !context.settings.selfModification,
  headMoved: ({ event }: Args) => asFailure(event.error).code === 'BOOTY_E_HEAD_MOVED',
  inboxWaiting: ({ context }: Args) => context.conversation.inbox.length > 0,
  ciStale: ({ context }: Args) => context.conversation.ciStale,
  ciForHead: ({ context, event }: Args) =>
    context.pr !== null && (event as { headSha: string }).headSha === context.pr.headSha,
  commandCancel: ({ event }: Args) => (event as CommandReceived).command === 'cancel',
  commandRetry: ({ event }: Args) => (event as CommandReceived).command === 'retry',
  stopInRound: ({ context, event }: Args) =>
    (event as CommandReceived).command === 'stop' && currentRound(context) !== null,
  merged: ({ event }: Args) => (event as PrClosed).merged,
  markedReady: ({ context, event }: Args) =>
    (event as PrUpdated).draft === false && context.pr?.draft !== false,
  markedDraft: ({ context, event }: Args) =>
    (event as PrUpdated).draft === true && context.pr?.draft === false,
  /** Someone moved the PR: a new head, or draft turned ready or back. An echo of booty's own move is not news. */
  prChanged: ({ context, event }: Args) => {
    const e = event as PrUpdated;
    const pr = context.pr;
    return pr !== null && (e.draft !== pr.draft || (e.headSha !== null && e.headSha !== pr.headSha));
  },
};

export const actions = {
  ...loopActions,
  scheduleRetry: update(({ context, event }) => {
    const failure = asFailure(event.error);
    const notBefore = retryDeadline(context.settings, failure, retriesUsed(context, failure.src));
    return failedStep(context, failure, notBefore);
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
        ...(out.failureClass && { failureClass: out.failureClass }),
      }),
    };
  }),
  recordTests: done(({ context, event }) => {
    const test = output<TestRun>(event);
    return {
      attempts: withCurrent(context, { test, ...(test.failureClass && { failureClass: test.failureClass }) }),
    };
  }),
  /** No attempt can fix this: the job stops with the class as its reason and what a human must do. */
  failFast: update(({ context }) => ({ outcome: failFastOutcome(context) })),
  noteFailFast: update(({ context }) => withRound(context, { note: failFastOutcome(context).message })),
  recordPr: done(({ context, event }) => ({
    pr: output<PullRequest>(event),
    ...talk(context, {
      firstBase: context.workspace?.baseSha ?? null,
      headTested: lastTestOf(context)?.passed === true,
    }),
  })),
  /** The draft of a job that already failed: the error that failed it stays on record. */
  recordDraft: update(({ context, event }) => ({
    pr: output<PullRequest>(event),
    ...talk(context, { firstBase: context.workspace?.baseSha ?? null }),
  })),
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
      ...failedStep(context, failure),
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
            : broken.reason === 'tests-unreadable'
              ? `booty cannot read the results of the test command \`${run.command}\` on the base branch: ${broken.message}. A change cannot be judged by tests booty cannot see, so nothing was sent to the model.`
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
      ...failedStep(context, failure),
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
  // The PR's life: CI, rounds, and what people say.
  recordAside: update(({ context, event }) => failedStep(context, asFailure(event.error))),
  /** CI as read; past every bound, the bound is noted for the progress comment. */
  recordCi: done(({ context, event }) => {
    const ci = ciOf(context, event);
    if (!ci) return {};
    const { at: _at, ...read } = ci as CiRead;
    const stuck = ci.state === 'failed' && !rerunAllowed(context, event) && !ciFixAllowed(context, event);
    return talk(context, {
      ci: read,
      ciStale: false,
      bounded: stuck ? 'ciFixes' : context.conversation.bounded,
    });
  }),
  recordDemoted: done(({ context }) => ({ pr: context.pr && { ...context.pr, draft: true } })),
  /** GitHub's word of the demotion booty is making, come before its result: no person holds it draft. */
  recordDemotionEcho: update(({ context, event }) => {
    const e = event as PrUpdated;
    return { pr: context.pr && { ...context.pr, headSha: e.headSha ?? context.pr.headSha, draft: e.draft } };
  }),
  recordRerun: done(({ context, event }) =>
    talk(context, { reruns: [...context.conversation.reruns, output<CiRerun>(event).sha] }),
  ),
  noteCiStale: update(({ context }) => talk(context, { ciStale: true })),
  clearCiStale: update(({ context }) => talk(context, { ciStale: false })),
  queueFeedback: update(({ context, event }) => {
    const e = event as FeedbackReceived;
    const trigger: RoundTrigger = {
      kind: 'feedback',
      place: e.place,
      author: e.author,
      body: e.body,
      commentId: e.commentId,
      comments: e.comments,
      mention: e.mention,
    };
    return queued(context, trigger, e.mention);
  }),
  queueRetry: update(({ context, event }) => {
    const e = event as CommandReceived;
    return queued(
      context,
      { kind: 'command', command: e.command, place: e.place, author: e.author, commentId: e.commentId },
      true,
    );
  }),
  startRound: update(({ context }) => ({
    error: null,
    ...talk(context, {
      rounds: [...context.conversation.rounds, newRound(context, context.conversation.inbox)],
      inbox: [],
    }),
  })),
  startCiRound: update(({ context, event }) => {
    const ci = ciOf(context, event)!;
    const triggers: RoundTrigger[] = [
      { kind: 'ci', sha: ci.sha, failing: ci.failing },
      ...context.conversation.inbox,
    ];
    return {
      error: null,
      ...talk(context, { rounds: [...context.conversation.rounds, newRound(context, triggers)], inbox: [] }),
    };
  }),
  /** The round builds on the branch's head as it is now; its changes start empty there. */
  recordSync: done(({ context, event }) => {
    const { headSha } = output<Synced>(event);
    return {
      workspace: context.workspace && { ...context.workspace, baseSha: headSha },
      changes: [],
      pr: context.pr && { ...context.pr, headSha },
      ...withRound(context, { base: headSha }),
    };
  }),
  restartRound: update(({ context, event }) => ({
    ...failedStep(context, asFailure(event.error)),
    ...withRound(context, { firstAttempt: context.attempt + 1, base: null, note: null }),
  })),
  noteRoundError: update(({ context, event }) => {
    const failure = asFailure(event.error);
    return {
      ...failedStep(context, failure),
      ...withRound(context, { note: `${failure.src} failed: ${failure.message}` }),
    };
  }),
  noteBudget: update(({ context }) =>
    withRound(context, {
      note: `The job went over its budget of ${context.settings.maxTokens} tokens (spent ${tokensSpent(context.usage)}).`,
    }),
  ),
  noteNoChange: update(({ context }) =>
    withRound(context, {
      note: `No change could be applied in ${roundAttempt(context)} of ${maxAttemptsOf(context)} attempts.`,
    }),
  ),
  noteTestsFailing: update(({ context }) =>
    withRound(context, {
      note: `The tests still fail after ${roundAttempt(context)} of ${maxAttemptsOf(context)} attempts, so nothing was pushed.`,
    }),
  ),
  recordAnswer: done(({ context, event }) => {
    const out = output<Answered>(event);
    const pushed = out.commit !== null;
    return {
      pr: context.pr && { ...context.pr, headSha: out.headSha },
      ...talk(context, {
        rounds: context.conversation.rounds.map((r) =>
          r.result === null ? { ...r, result: pushed ? 'pushed' : 'not-pushed', commit: out.commit } : r,
        ),
        headTested: pushed || context.conversation.headTested,
        ci: pushed ? null : context.conversation.ci,
      }),
    };
  }),
  abandonRound: update(({ context, event }) => {
    const failure = asFailure(event.error);
    return {
      ...failedStep(context, failure),
      ...withRound(context, { result: 'not-pushed', note: `${failure.src} failed: ${failure.message}` }),
    };
  }),
  stopRound: update(({ context, event }) =>
    withRound(context, { result: 'stopped', note: `Stopped by @${(event as CommandReceived).author}.` }),
  ),
  recordCommandCancel: update(({ event }) => ({
    outcome: {
      reason: 'command',
      message: `Cancelled by @${(event as CommandReceived).author} with \`@booty cancel\`.`,
    },
  })),
  recordPrClosed: update(({ event }) => {
    const e = event as PrClosed;
    return {
      outcome: e.merged
        ? { reason: 'merged', message: `The pull request was merged by @${e.sender}.` }
        : { reason: 'pr-closed', message: `The pull request was closed without merging by @${e.sender}.` },
    };
  }),
  recordPrUpdate: update(({ context, event }) => {
    const e = event as PrUpdated;
    if (!context.pr) return {};
    const pr = { ...context.pr, headSha: e.headSha ?? context.pr.headSha, draft: e.draft };
    // booty's own moves are not news (prChanged): a change of draft here is a person's.
    if (e.draft === context.pr.draft) return { pr };
    return { pr, ...talk(context, { heldDraft: e.draft ? e.sender : null }) };
  }),
};
