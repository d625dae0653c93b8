import { z } from 'zod';
import {
  CiCompleted,
  CommandReceived,
  type ConversationEvent,
  FeedbackReceived,
  PrClosed,
  PrUpdated,
  QuestionAsked,
} from './conversation-events.js';
import {
  Analyzed,
  Answered,
  Applied,
  CiRead,
  CiRerun,
  Demoted,
  Escalated,
  Generated,
  PlanPosted,
  Prepared,
  Promoted,
  PullRequest,
  QuestionAnswered,
  SuggestionsApplied,
  Synced,
  TestRun,
  Usage,
} from './effect-results.js';
import { JobCancelled, JobRequested } from './job-events.js';

// Every fact booty records about a job, in booty's own words. This is the log's public format: a
// row holds one of these types at its version, and nothing of the machine that decides on it, so
// the machine can change its states and invoke ids without changing a log a year old. Older shapes
// are lifted on read (versions.ts); a row that is none of these is an error that names it.

/** The steps of a job, as the log names them. */
export const STEPS = [
  'prepare',
  'baseline',
  'analyze',
  'generate',
  'refine',
  'apply',
  'test',
  'openPr',
  'promote',
  'ci',
  'rerunCi',
  'demote',
  'sync',
  'answer',
  'plan',
  'escalate',
  'question',
  'suggestions',
] as const;
export const Step = z.enum(STEPS);
export type Step = z.infer<typeof Step>;

/** What each step's success records. */
export const stepResults = {
  prepare: Prepared,
  baseline: TestRun,
  analyze: Analyzed,
  generate: Generated,
  refine: Generated,
  apply: Applied,
  test: TestRun,
  openPr: PullRequest,
  promote: Promoted,
  ci: CiRead,
  rerunCi: CiRerun,
  demote: Demoted,
  sync: Synced,
  answer: Answered,
  plan: PlanPosted,
  escalate: Escalated,
  question: QuestionAnswered,
  suggestions: SuggestionsApplied,
} satisfies Record<Step, z.ZodType>;

export const StepSucceeded = z.object({
  type: z.literal('StepSucceeded'),
  step: Step,
  /** The attempt the step ran for (0 before the first generation). */
  attempt: z.number().int().min(0),
  result: z.record(z.string(), z.unknown()),
});
export type StepSucceeded = z.infer<typeof StepSucceeded>;

export const StepError = z.object({
  /** A stable code from booty's error catalogue, e.g. BOOTY_E_GITHUB_UNAVAILABLE. */
  code: z.string(),
  message: z.string(),
  /** Whether trying the step again may succeed. */
  retryable: z.boolean(),
  /** When it failed (epoch ms): a retry's deadline is computed from it. */
  at: z.number().int(),
  /** The wait GitHub asked for before a retry: the retry waits at least this, up to the cap. */
  retryAfterMs: z.number().int().min(0).optional(),
  /** Tokens the step spent before it failed: they count in the job's budget (absent: none). */
  usage: Usage.optional(),
});
export type StepError = z.infer<typeof StepError>;

export const StepFailed = z.object({
  type: z.literal('StepFailed'),
  step: Step,
  attempt: z.number().int().min(0),
  error: StepError,
});
export type StepFailed = z.infer<typeof StepFailed>;

export type DomainEvent = JobRequested | JobCancelled | StepSucceeded | StepFailed | ConversationEvent;

/** Each type's schema and the version rows are written with now. */
export const catalogue = {
  JobRequested: { version: 8, schema: JobRequested },
  JobCancelled: { version: 3, schema: JobCancelled },
  StepSucceeded: { version: 1, schema: StepSucceeded },
  StepFailed: { version: 1, schema: StepFailed },
  FeedbackReceived: { version: 1, schema: FeedbackReceived },
  CommandReceived: { version: 1, schema: CommandReceived },
  QuestionAsked: { version: 1, schema: QuestionAsked },
  CiCompleted: { version: 2, schema: CiCompleted },
  PrClosed: { version: 1, schema: PrClosed },
  PrUpdated: { version: 1, schema: PrUpdated },
} as const;
export type EventType = keyof typeof catalogue;

export const isEventType = (type: string): type is EventType => Object.hasOwn(catalogue, type);

// A row's payload is parsed as the row holds it, without its type: no copy of it is made to add the
// type for the parse, nor after to take it off (a boot checks every row of every unfinished job).
type PayloadSchema = z.ZodType<Record<string, unknown>>;
let payloadSchemas: { byType: Record<EventType, PayloadSchema>; byStep: Record<Step, PayloadSchema> } | null =
  null;

function buildPayloadSchemas() {
  const byType = Object.fromEntries(
    Object.entries(catalogue).map(([type, { schema }]) => [
      type,
      (schema as z.ZodObject<{ type: z.ZodLiteral<string> }>).omit({ type: true }),
    ]),
  ) as unknown as Record<EventType, PayloadSchema>;
  // StepSucceeded with the result schema of each step, so a row is parsed once, whole.
  const step = StepSucceeded.omit({ type: true });
  const byStep = Object.fromEntries(
    STEPS.map((name) => [name, step.extend({ step: z.literal(name), result: stepResults[name] })]),
  ) as unknown as Record<Step, PayloadSchema>;
  return { byType, byStep };
}

/** Parses a row's payload (the event without its type) as its type; a step's result is checked
 * against that step's schema. */
export function parsePayload(type: EventType, data: Record<string, unknown>): Record<string, unknown> {
  payloadSchemas ??= buildPayloadSchemas();
  const schema =
    type === 'StepSucceeded' &&
    typeof data.step === 'string' &&
    Object.hasOwn(payloadSchemas.byStep, data.step)
      ? payloadSchemas.byStep[data.step as Step]
      : payloadSchemas.byType[type];
  return schema.parse(data);
}
