import { assign } from 'xstate';
import type { Applied, EffectFailure, Generated, TestRun } from '../events/effect-results.js';
import { failsFast } from '../refine/failure-class.js';
import {
  type AttemptRecord,
  addUsage,
  asFailure,
  type Conversation,
  currentRound,
  type JobState,
  type Outcome,
  type Round,
  type StepError,
  tokensSpent,
  type UsageTotals,
  usdCapOf,
} from './job-context.js';
import type { MachineEvent } from './machine-events.js';

// The pieces every guard and context update of the job machine is made of (job-logic.ts,
// loop-logic.ts): reading the event at hand, and changing the context, the attempt under way and
// the round under way. Pure.

export interface Args {
  context: JobState;
  // Done, error and outside events all arrive here; each function reads the one it is wired to.
  event: MachineEvent;
}

/** The result a step's done event carries, as the step that the function is wired to made it. */
export const output = <T>(event: MachineEvent): T => ('output' in event ? event.output : undefined) as T;
/** The failure a step's error event carries, whatever shape it arrived in. */
export const failureOf = (event: MachineEvent): EffectFailure =>
  asFailure('error' in event ? event.error : undefined);

export const update = (fn: (args: Args) => Partial<JobState>) =>
  assign<JobState, MachineEvent, undefined, MachineEvent, never>(fn);
/** Records a finished step: its retry count and last error go with it. */
export const done = (fn: (args: Args) => Partial<JobState>) =>
  update((args) => ({ error: null, ...fn(args) }));

export const retriesUsed = (context: JobState, src: string) =>
  context.error?.step === src ? context.error.retries : 0;

/** A step failure as the context keeps it; the tokens it spent count in the budget all the same. */
export const failedStep = (
  context: JobState,
  failure: EffectFailure,
  notBefore: number | null = null,
): { error: StepError; usage: UsageTotals } => ({
  error: {
    step: failure.src,
    code: failure.code,
    message: failure.message,
    retries: retriesUsed(context, failure.src) + (notBefore === null ? 0 : 1),
    notBefore,
  },
  usage: failure.usage ? addUsage(context.usage, failure.usage) : context.usage,
});

/** The attempt under way, changed. */
export const withCurrent = (context: JobState, change: Partial<AttemptRecord>) =>
  context.attempts.map((a, i) => (i === context.attempts.length - 1 ? { ...a, ...change } : a));

/** The conversation, changed. */
export const talk = (context: JobState, change: Partial<Conversation>) => ({
  conversation: { ...context.conversation, ...change },
});

/** The round under way, changed. */
export const withRound = (context: JobState, change: Partial<Round>) =>
  talk(context, {
    rounds: context.conversation.rounds.map((r) => (r.result === null ? { ...r, ...change } : r)),
  });

/**
 * Why the loop ended, kept where it counts on the way to `concluding`: a follow-up round notes it
 * (the PR keeps its outcome); a job before its PR takes it as its outcome, or none when the pull
 * request's tests will decide.
 */
export const ended = (context: JobState, note: string, outcome: Outcome | null): Partial<JobState> =>
  currentRound(context) ? withRound(context, { note }) : outcome ? { outcome } : {};

export function overBudget(context: JobState, event: MachineEvent): boolean {
  const max = context.settings.maxTokens;
  const { usage } = output<Generated>(event);
  const spent = addUsage(context.usage, usage);
  const usd = usdCapOf(context);
  return (max !== null && tokensSpent(spent) > max) || (usd !== null && spent.costUsd > usd);
}

/** The apply or test result at hand names a failure no attempt can fix (see failure-class.ts). */
export const failingFast = (event: MachineEvent) => failsFast(output<Applied | TestRun>(event).failureClass);
