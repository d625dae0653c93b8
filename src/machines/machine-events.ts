import type { DomainEvent, Step } from '../events/catalogue.js';
import type { EffectFailure, EffectName } from '../events/effect-results.js';

// The one adapter between the log's words and the machine's. The machine takes an effect's result
// as XState's `xstate.done.actor.<invoke id>` and its failure as `xstate.error.actor.<invoke id>`;
// the log says StepSucceeded and StepFailed with the step's own name. Renaming an invoke changes
// this table, never a log.

export const invokeOf: Record<Step, EffectName> = {
  prepare: 'prepare',
  baseline: 'runBaseline',
  analyze: 'analyze',
  generate: 'generate',
  refine: 'refine',
  apply: 'applyChanges',
  test: 'runTests',
  openPr: 'openPr',
  promote: 'promotePr',
  ci: 'readCi',
  rerunCi: 'rerunCi',
  demote: 'demotePr',
  sync: 'syncBranch',
  answer: 'answerRound',
  plan: 'postPlan',
  escalate: 'escalate',
  question: 'answerQuestion',
  suggestions: 'applySuggestions',
};

const stepOf = Object.fromEntries(Object.entries(invokeOf).map(([step, id]) => [id, step])) as Record<
  EffectName,
  Step
>;

export type MachineEvent =
  | { type: `xstate.done.actor.${string}`; output: unknown }
  | { type: `xstate.error.actor.${string}`; error: EffectFailure }
  | Exclude<DomainEvent, { type: 'StepSucceeded' | 'StepFailed' | 'JobRequested' }>;

/** The machine's event for a logged one (JobRequested is the machine's input, not an event). */
export function toMachineEvent(event: DomainEvent): MachineEvent {
  switch (event.type) {
    case 'StepSucceeded':
      return { type: `xstate.done.actor.${invokeOf[event.step]}`, output: event.result };
    case 'StepFailed':
      return {
        type: `xstate.error.actor.${invokeOf[event.step]}`,
        error: { src: invokeOf[event.step], ...event.error },
      };
    case 'JobRequested':
      throw new Error('JobRequested starts a job; it is the machine input, not an event');
    default:
      return event;
  }
}

/** Events from outside the job, logged as they are: they already speak booty's words. */
const OUTSIDE = new Set([
  'JobCancelled',
  'FeedbackReceived',
  'CommandReceived',
  'QuestionAsked',
  'CiCompleted',
  'PrClosed',
  'PrUpdated',
]);

/** The logged event for one the machine received, or null for XState's own (its init). */
export function toDomainEvent(
  event: { type: string } & Record<string, unknown>,
  attempt: number,
): DomainEvent | null {
  const m = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type);
  if (m) {
    const step = stepOf[m[2] as EffectName];
    if (!step) return null;
    if (m[1] === 'done')
      return { type: 'StepSucceeded', step, attempt, result: event.output as Record<string, unknown> };
    const e = event.error as EffectFailure;
    return {
      type: 'StepFailed',
      step,
      attempt,
      error: {
        code: e.code,
        message: e.message,
        retryable: e.retryable,
        at: e.at,
        ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs }),
        ...(e.usage === undefined ? {} : { usage: e.usage }),
      },
    };
  }
  return OUTSIDE.has(event.type) ? (event as unknown as DomainEvent) : null;
}
