import { assertEvent } from 'xstate';
import type { CommandWord } from '../events/conversation-events.js';
import type { Applied, Escalated, TestRun } from '../events/effect-results.js';
import { attemptsWithoutImprovement, improvementRule, improvements } from './attempt-progress.js';
import {
  currentRound,
  type JobState,
  lastTestOf,
  maxAttemptsOf,
  type OutcomeReason,
  roundAttempt,
  usdBaseOf,
} from './job-context.js';
import {
  type Args,
  done,
  ended,
  failedStep,
  failureOf,
  output,
  overBudget,
  update,
  withCurrent,
} from './logic-kit.js';
import type { MachineEvent } from './machine-events.js';

// The refine loop's controls (#15, machine 5), as guards and context updates of the job machine:
// the budget that parks a job until `@booty continue`, the plan that waits for a writer, the stall
// that stops a loop going nowhere, and escalation when a job gives up. Pure, like job-logic.ts.

/** Jobs requested under the loop's controls (machine 5) wait at their budget for `@booty continue`. */
const parksOnBudget = (context: JobState) => context.request.loopControls;
const budgetError = (event: MachineEvent) => failureOf(event).code === 'BOOTY_E_BUDGET_EXCEEDED';
/** The job parked on a step that could not afford its request: that step runs again. */
const stoppedIn = (context: JobState, src: string) =>
  context.error?.step === src && context.error.code === 'BOOTY_E_BUDGET_EXCEEDED';
const command = (event: MachineEvent, word: CommandWord) =>
  event.type === 'CommandReceived' && event.command === word;

/** The plan waits for a writer: `approval: plan` in booty.yml, or the issue's `booty:plan` label. */
const planNeedsApproval = (context: JobState) =>
  // Machine 4 logged booty.yml's `approval` before it meant anything: only later requests heed it.
  context.request.loopControls &&
  (context.config?.approval === 'plan' || context.request.planApproval) &&
  context.checkpoints.approvedBy === null;

/** booty.yml's stallAfter: attempts in a row without improvement that stop the loop. */
const stallAfterOf = (context: JobState) => context.config?.stallAfter ?? 2;

/**
 * The round's attempts stopped improving: `stallAfter` in a row (default 2) brought none
 * (attempt-progress.ts), and attempts are left, so this stop is early. The result at hand is the
 * current attempt's: its test run, or an apply that wrote nothing (no run, so no improvement).
 */
function stalled(context: JobState, event: MachineEvent): boolean {
  if (!context.request.loopControls || roundAttempt(context) >= maxAttemptsOf(context)) return false;
  const after = stallAfterOf(context);
  const out = output<TestRun | Applied>(event);
  const attempts = withCurrent(context, { test: 'verdict' in out ? out : null });
  const from = currentRound(context)?.firstAttempt ?? 1;
  return (
    attemptsWithoutImprovement(improvements(attempts, from, { quality: context.request.qualityProgress })) >=
    after
  );
}

/** Outcomes of a job that gave up: who `escalate` lists is asked for help. */
const GAVE_UP = new Set<OutcomeReason>([
  'tests-failing',
  'tests-unknown',
  'tests-unreadable',
  'stalled',
  'policy',
  'environment',
  'no-changes',
]);
/** Machine 4 logged `escalate` too, before it meant anything: only later requests heed it. */
const escalates = (context: JobState) =>
  context.request.loopControls && (context.config?.escalate?.length ?? 0) > 0;

/** The current attempt's proposal is recorded and not yet applied. */
const proposalWaiting = (context: JobState) => {
  const current = context.attempts.at(-1);
  return current !== undefined && current.n === context.attempt && !current.applied;
};

function stallOutcome(context: JobState) {
  const after = stallAfterOf(context);
  return {
    reason: 'stalled' as const,
    message: `${after} attempt${after === 1 ? '' : 's'} in a row brought no improvement (${improvementRule(context.request.qualityProgress)}), so booty stopped early, at attempt ${roundAttempt(context)} of ${maxAttemptsOf(context)}.${context.changes.length ? ' The work so far is up as a draft pull request.' : ''}`,
  };
}

export const loopGuards = {
  // The budget: a job under the loop's controls parks at its budget instead of failing.
  overBudgetParks: ({ context, event }: Args) => parksOnBudget(context) && overBudget(context, event),
  budgetParks: ({ context, event }: Args) => parksOnBudget(context) && budgetError(event),
  continueAnalysis: ({ context, event }: Args) => command(event, 'continue') && stoppedIn(context, 'analyze'),
  continueGenerating: ({ context, event }: Args) =>
    command(event, 'continue') && stoppedIn(context, 'generate'),
  continueRefining: ({ context, event }: Args) => command(event, 'continue') && stoppedIn(context, 'refine'),
  /** The proposal that went over the budget was paid for: it is applied. */
  continueApplying: ({ context, event }: Args) => command(event, 'continue') && proposalWaiting(context),
  continueToPlan: ({ context, event }: Args) => command(event, 'continue') && planNeedsApproval(context),
  commandContinue: ({ event }: Args) => command(event, 'continue'),
  // The plan.
  planNeedsApproval: ({ context }: Args) => planNeedsApproval(context),
  commandApprove: ({ event }: Args) => command(event, 'approve'),
  /** A revision says what to change: a bare `@booty revise` changes nothing. */
  commandRevise: ({ event }: Args) =>
    event.type === 'CommandReceived' && event.command === 'revise' && !!event.text,
  // The loop's progress, and who is asked when it gives up.
  stalled: ({ context, event }: Args) => stalled(context, event),
  /** The job gave up, and booty.yml's `escalate` names whom to ask. */
  asksForHelp: ({ context }: Args) =>
    escalates(context) && context.outcome !== null && GAVE_UP.has(context.outcome.reason),
  /** The pull request is open with failing tests, and booty.yml's `escalate` names whom to ask. */
  escalatesFailing: ({ context }: Args) =>
    escalates(context) && context.outcome === null && lastTestOf(context)?.passed !== true,
  hasPr: ({ context }: Args) => context.pr !== null,
};

export const loopActions = {
  /** A writer's `@booty continue`: the budget is raised once by the step, and the stop forgotten. */
  raiseBudget: update(({ context }) => {
    const { maxTokens, budgetStep } = context.settings;
    // Unset, the step is the budget the job started with, kept so each continue adds the same.
    const step = budgetStep ?? maxTokens ?? 0;
    // A dollar cap is raised by itself (the base cap, so each continue adds the same); a job with
    // one and no token budget keeps having none.
    const usd = usdBaseOf(context);
    const tokens = maxTokens !== null || usd === null;
    return {
      error: null,
      settings: {
        ...context.settings,
        ...(tokens ? { budgetStep: step, maxTokens: (maxTokens ?? 0) + step } : {}),
        ...(usd === null ? {} : { usdAdded: (context.settings.usdAdded ?? 0) + usd }),
      },
    };
  }),
  /** A step that could not afford its request: the job waits where it stopped. */
  parkOnBudget: update(({ context, event }) => failedStep(context, failureOf(event))),
  recordPlanPosted: done(({ context }) => ({
    checkpoints: { ...context.checkpoints, plans: context.checkpoints.plans + 1 },
  })),
  approvePlan: update(({ context, event }) => {
    assertEvent(event, 'CommandReceived');
    return { checkpoints: { ...context.checkpoints, approvedBy: event.author } };
  }),
  /** The revision joins the issue's comments, which the analysis reads: no prompt changes for it. */
  revisePlan: update(({ context, event }) => {
    assertEvent(event, 'CommandReceived');
    const body = `Revise the plan: ${event.text ?? ''}`.trim();
    const comments = [...context.issue.comments, { author: event.author, body }];
    return { issue: { ...context.issue, comments } };
  }),
  /** The loop stopped early, going nowhere (on the way to `concluding`). */
  endStalled: update(({ context }) => {
    const outcome = stallOutcome(context);
    return ended(context, outcome.message, outcome);
  }),
  recordEscalation: done(({ context, event }) => ({
    checkpoints: { ...context.checkpoints, escalation: output<Escalated>(event) },
  })),
};
