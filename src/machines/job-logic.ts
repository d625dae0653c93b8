import { assertEvent } from 'xstate';
import type {
  Analyzed,
  Answered,
  Applied,
  CiRead,
  CiRerun,
  EffectFailure,
  Generated,
  Prepared,
  Promoted,
  PullRequest,
  Synced,
  TestRun,
} from '../events/effect-results.js';
import { failFastMessage } from '../refine/class-guidance.js';
import {
  type AttemptRecord,
  addUsage,
  type Conversation,
  currentRound,
  type JobState,
  lastTestOf,
  maxAttemptsOf,
  mergeChanges,
  type Outcome,
  type RoundTrigger,
  retryDeadline,
  roundAttempt,
  tokensSpent,
  usdCapOf,
} from './job-context.js';
import {
  type Args,
  done,
  ended,
  failedStep,
  failingFast,
  failureOf,
  output,
  overBudget,
  retriesUsed,
  talk,
  update,
  withCurrent,
  withRound,
} from './logic-kit.js';
import { loopActions, loopGuards } from './loop-logic.js';
import type { MachineEvent } from './machine-events.js';
import { newRound, nextRoundTriggers, queued, talkActions, talkGuards } from './talk-logic.js';

// The job machine's guards and context updates. Pure functions of (context, event): no clock,
// no randomness, no I/O, so folding the log always lands on the same snapshot. The refine loop's
// controls (budget, plan, stall, escalation) are in loop-logic.ts.

/** CI as the event at hand carries it: read now, read by the promotion, or as last read. */
/**
 * The draft state a PrUpdated tells. A push's delivery (`synchronize`) carries the state as it was
 * when GitHub sent it, which may be before booty's own promotion: from machine 9 only the
 * deliveries that change the state are read for it.
 */
function toldDraft(context: JobState, event: Extract<MachineEvent, { type: 'PrUpdated' }>): boolean {
  if (event.action === 'synchronize' && context.request.draftByAction && context.pr) return context.pr.draft;
  return event.draft;
}

function ciOf(context: JobState, event: MachineEvent): Omit<CiRead, 'at'> | null {
  const out = output<{ sha?: unknown; state?: unknown; ci?: Promoted['ci'] } | undefined>(event);
  if (out && typeof out.sha === 'string' && typeof out.state === 'string') return out as CiRead;
  if (out && 'ci' in out) return out.ci ?? null;
  return context.conversation.ci;
}

const ciFixesUsed = (c: Conversation) =>
  c.rounds.filter((r) => r.triggers.every((t) => t.kind === 'ci')).length;
const maxCiFixes = (s: JobState) => (s.config?.maxCiFixes ?? 3) + s.conversation.lifted.ciFixes;

function rerunAllowed(context: JobState, event: MachineEvent): boolean {
  const ci = ciOf(context, event);
  return ci?.state === 'failed' && ci.rerunnable.length > 0 && !context.conversation.reruns.includes(ci.sha);
}
const ciFixAllowed = (context: JobState, event: MachineEvent) =>
  ciOf(context, event)?.state === 'failed' && ciFixesUsed(context.conversation) < maxCiFixes(context);

/** The attempt under way, for the fail-fast message; its class is what the event recorded. */
function failFastOutcome(context: JobState): Outcome {
  const attempt = context.attempts.at(-1)!;
  const cls = attempt.failureClass as 'policy' | 'environment' | 'unreadable';
  const message = failFastMessage(cls, attempt);
  return { reason: cls === 'unreadable' ? 'tests-unreadable' : cls, message };
}

/** A step that failed for good: the job's outcome, unless one was decided before. */
function errorOutcome(context: JobState, failure: EffectFailure): Outcome {
  if (context.outcome) return context.outcome;
  // Past an applied change, the machine goes on to open a draft pull request with the work.
  const kept =
    context.changes.length > 0 && failure.src !== 'openPr'
      ? ' The work so far goes up as a draft pull request.'
      : '';
  return failure.code === 'BOOTY_E_BUDGET_EXCEEDED'
    ? { reason: 'budget', message: `${failure.message}${kept}` }
    : { reason: 'error', message: `${failure.src} failed: ${failure.message}${kept}` };
}

export const guards = {
  ...loopGuards,
  ...talkGuards,
  failsFast: ({ event }: Args) => failingFast(event),
  canRetry: ({ context, event }: Args) => {
    const failure = failureOf(event);
    return failure.retryable && retriesUsed(context, failure.src) < context.settings.maxRetries;
  },
  overBudget: ({ context, event }: Args) => overBudget(context, event),
  baselineBroken: ({ event }: Args) => (output<TestRun>(event).broken ?? null) !== null,
  outcomeDecided: ({ context }: Args) => context.outcome !== null,
  appliedSomething: ({ event }: Args) => output<Applied>(event).applied.length > 0,
  attemptsLeft: ({ context }: Args) => roundAttempt(context) < maxAttemptsOf(context),
  hasChanges: ({ context }: Args) => context.changes.length > 0,
  testsPassed: ({ event }: Args) => output<TestRun>(event).passed,
  lastTestsFailed: ({ context }: Args) => lastTestOf(context)?.passed !== true,
  selfModification: ({ context }: Args) => context.settings.selfModification,
  inRound: ({ context }: Args) => currentRound(context) !== null,
  prIsDraft: ({ context }: Args) => context.pr?.draft !== false,
  madeReady: ({ event }: Args) => output<Promoted>(event).draft === false,
  rerunAllowed: ({ context, event }: Args) => rerunAllowed(context, event),
  rerunBeforeDemoting: ({ context, event }: Args) =>
    context.request.collaborator && context.pr?.draft === false && rerunAllowed(context, event),
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
    context.request.onPr === null &&
    context.pr?.draft !== false &&
    !context.conversation.heldDraft &&
    !context.settings.selfModification &&
    // Suggestions pushed as written were not tested by booty: CI judges them.
    currentRound(context)?.suggestions === undefined,
  headMoved: ({ event }: Args) => failureOf(event).code === 'BOOTY_E_HEAD_MOVED',
  ciStale: ({ context }: Args) => context.conversation.ciStale,
  /** CI on the head of a pull request booty opened: someone else's PR's CI is theirs to read. */
  ciForHead: ({ context, event }: Args) =>
    event.type === 'CiCompleted' &&
    context.pr !== null &&
    event.headSha === context.pr.headSha &&
    context.request.onPr === null,
  commandCancel: ({ event }: Args) => event.type === 'CommandReceived' && event.command === 'cancel',
  commandRetry: ({ event }: Args) => event.type === 'CommandReceived' && event.command === 'retry',
  merged: ({ event }: Args) => event.type === 'PrClosed' && event.merged,
  markedReady: ({ context, event }: Args) =>
    event.type === 'PrUpdated' && toldDraft(context, event) === false && context.pr?.draft !== false,
  markedDraft: ({ context, event }: Args) =>
    event.type === 'PrUpdated' && toldDraft(context, event) === true && context.pr?.draft === false,
  /** Someone moved the PR: a new head, or draft turned ready or back. An echo of booty's own move is not news. */
  prChanged: ({ context, event }: Args) => {
    const pr = context.pr;
    return (
      event.type === 'PrUpdated' &&
      pr !== null &&
      (toldDraft(context, event) !== pr.draft || (event.headSha !== null && event.headSha !== pr.headSha))
    );
  },
};

export const actions = {
  ...loopActions,
  ...talkActions,
  scheduleRetry: update(({ context, event }) => {
    const failure = failureOf(event);
    const notBefore = retryDeadline(context.settings, failure, retriesUsed(context, failure.src));
    return failedStep(context, failure, notBefore);
  }),
  recordPrepared: done(({ context, event }) => {
    const out = output<Prepared>(event);
    return {
      workspace: {
        baseSha: out.baseSha,
        defaultBranch: out.defaultBranch,
        ...(out.instructions?.length ? { instructions: out.instructions } : {}),
      },
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
      ...(out.repeated !== undefined && { repeated: out.repeated }),
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
  // Why the loop ended, on the way to `concluding` (ended() in logic-kit.ts).
  /** No attempt can fix this: the class as the reason, and what a human must do. */
  endFailFast: update(({ context }) => {
    const outcome = failFastOutcome(context);
    return ended(context, outcome.message, outcome);
  }),
  /** Out of attempts, the last applying nothing: the outcome if none did; else the PR's tests decide. */
  endNoChanges: update(({ context }) =>
    ended(
      context,
      `No change could be applied in ${roundAttempt(context)} of ${maxAttemptsOf(context)} attempts.`,
      context.changes.length > 0
        ? null
        : {
            reason: 'no-changes',
            message: `No change could be applied in ${roundAttempt(context)} of ${maxAttemptsOf(context)} attempts; nothing was pushed.`,
          },
    ),
  ),
  /** Out of attempts with the tests failing: the pull request's tests decide the outcome (failTests). */
  endTestsFailing: update(({ context }) =>
    ended(
      context,
      `The tests still fail after ${roundAttempt(context)} of ${maxAttemptsOf(context)} attempts, so nothing was pushed.`,
      null,
    ),
  ),
  endOverBudget: update(({ context }) => {
    const usd = usdCapOf(context);
    const over =
      usd !== null && context.usage.costUsd > usd
        ? `The job went over its budget of $${usd} (spent $${context.usage.costUsd.toFixed(4)}).`
        : `The job went over its budget of ${context.settings.maxTokens} tokens (spent ${tokensSpent(context.usage)}).`;
    const kept = context.changes.length ? ' The work so far is up as a draft pull request.' : '';
    return ended(context, over, { reason: 'budget', message: `${over}${kept}` });
  }),
  endOnError: update(({ context, event }) => {
    const failure = failureOf(event);
    return {
      ...failedStep(context, failure),
      ...ended(context, `${failure.src} failed: ${failure.message}`, errorOutcome(context, failure)),
    };
  }),
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
    const failure = failureOf(event);
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
    // A round's attempts count from the round's first: never "5 of 3".
    const round = currentRound(context);
    const tried = `${roundAttempt(context)} of ${maxAttemptsOf(context)} attempts${round ? ` in round ${round.n}` : ''}`;
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
  recordError: update(({ context, event }) => {
    const failure = failureOf(event);
    return { ...failedStep(context, failure), outcome: errorOutcome(context, failure) };
  }),
  recordCancel: update(({ event }) => {
    assertEvent(event, 'JobCancelled');
    const why = {
      unlabeled: 'the trigger label was removed',
      closed: 'the issue was closed',
      operator: 'an operator cancelled it',
    };
    return {
      outcome: { reason: event.reason, message: `Cancelled: ${why[event.reason]} (by ${event.sender}).` },
    };
  }),
  // The PR's life: CI, rounds, and what people say.
  recordAside: update(({ context, event }) => failedStep(context, failureOf(event))),
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
    assertEvent(event, 'PrUpdated');
    return {
      pr: context.pr && {
        ...context.pr,
        headSha: event.headSha ?? context.pr.headSha,
        draft: toldDraft(context, event),
      },
    };
  }),
  recordRerun: done(({ context, event }) =>
    talk(context, { reruns: [...context.conversation.reruns, output<CiRerun>(event).sha] }),
  ),
  noteCiStale: update(({ context }) => talk(context, { ciStale: true })),
  clearCiStale: update(({ context }) => talk(context, { ciStale: false })),
  queueFeedback: update(({ context, event }) => {
    assertEvent(event, 'FeedbackReceived');
    const trigger: RoundTrigger = {
      kind: 'feedback',
      place: event.place,
      author: event.author,
      body: event.body,
      commentId: event.commentId,
      comments: event.comments,
      mention: event.mention,
    };
    return queued(context, trigger, event.mention);
  }),
  startCiRound: update(({ context, event }) => {
    const ci = ciOf(context, event)!;
    // Requests waiting join CI's round; questions wait for their own.
    const taken = nextRoundTriggers(context.conversation.inbox);
    const triggers: RoundTrigger[] = [{ kind: 'ci', sha: ci.sha, failing: ci.failing }, ...taken];
    return {
      error: null,
      ...talk(context, {
        rounds: [...context.conversation.rounds, newRound(context, triggers)],
        inbox: context.conversation.inbox.filter((t) => !taken.includes(t)),
      }),
    };
  }),
  /** The round builds on the branch's head as it is now; its changes start empty there. */
  recordSync: done(({ context, event }) => {
    const { headSha, mergeBase } = output<Synced>(event);
    const synced = withRound(context, { base: headSha });
    return {
      workspace: context.workspace && { ...context.workspace, baseSha: headSha },
      changes: [],
      pr: context.pr && { ...context.pr, headSha },
      // Someone else's pull request: its whole diff starts where its branch left the base branch.
      conversation: {
        ...synced.conversation,
        firstBase: context.conversation.firstBase ?? mergeBase ?? null,
      },
    };
  }),
  restartRound: update(({ context, event }) => ({
    ...failedStep(context, failureOf(event)),
    ...withRound(context, { firstAttempt: context.attempt + 1, base: null, note: null }),
  })),
  recordAnswer: done(({ context, event }) => {
    const out = output<Answered>(event);
    const pushed = out.commit !== null;
    return {
      pr: context.pr && { ...context.pr, headSha: out.headSha },
      ...talk(context, {
        rounds: context.conversation.rounds.map((r) =>
          r.result === null
            ? { ...r, result: r.stoppedBy ? 'stopped' : pushed ? 'pushed' : 'not-pushed', commit: out.commit }
            : r,
        ),
        // A writer's suggestions, pushed as written, leave the head untested by booty.
        headTested: pushed
          ? currentRound(context)?.suggestions === undefined
          : context.conversation.headTested,
        ci: pushed ? null : context.conversation.ci,
      }),
    };
  }),
  abandonRound: update(({ context, event }) => {
    const failure = failureOf(event);
    return {
      ...failedStep(context, failure),
      ...withRound(context, { result: 'not-pushed', note: `${failure.src} failed: ${failure.message}` }),
    };
  }),
  recordCommandCancel: update(({ event }) => {
    assertEvent(event, 'CommandReceived');
    return {
      outcome: { reason: 'command', message: `Cancelled by @${event.author} with \`@booty cancel\`.` },
    };
  }),
  recordPrClosed: update(({ event }) => {
    assertEvent(event, 'PrClosed');
    return {
      outcome: event.merged
        ? { reason: 'merged', message: `The pull request was merged by @${event.sender}.` }
        : {
            reason: 'pr-closed',
            message: `The pull request was closed without merging by @${event.sender}.`,
          },
    };
  }),
  recordPrUpdate: update(({ context, event }) => {
    assertEvent(event, 'PrUpdated');
    if (!context.pr) return {};
    const draft = toldDraft(context, event);
    const pr = { ...context.pr, headSha: event.headSha ?? context.pr.headSha, draft };
    // booty's own moves are not news (prChanged): a change of draft here is a person's.
    if (draft === context.pr.draft) return { pr };
    return { pr, ...talk(context, { heldDraft: draft ? event.sender : null }) };
  }),
};
