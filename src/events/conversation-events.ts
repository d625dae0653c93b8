import { z } from 'zod';

// The forge's events that wake a job whose pull request is open, in booty's words. The gateway
// appends one to the job's log before the job acts on it; times are epoch milliseconds from the
// payload's arrival, so the machine never reads a clock.

const at = z.number().int();
const deliveryId = z.string().min(1);

/** Where a person said something booty answers: the thread a reply goes to. */
export const FeedbackPlace = z.enum(['review', 'issue-comment', 'pr-comment']);
export type FeedbackPlace = z.infer<typeof FeedbackPlace>;

/** One comment of a review, on a file and line: its thread gets booty's reply. */
export const ReviewComment = z.object({
  id: z.number().int(),
  path: z.string().nullable(),
  line: z.number().int().nullable(),
  body: z.string(),
});
export type ReviewComment = z.infer<typeof ReviewComment>;

/**
 * A writer asking for a change: a review (with its comments, read when it arrived, so the log holds
 * them) or `@booty <request>` on the issue or the PR.
 */
export const FeedbackReceived = z.object({
  type: z.literal('FeedbackReceived'),
  place: FeedbackPlace,
  author: z.string().min(1),
  body: z.string(),
  /** The review's or the comment's id. */
  commentId: z.number().int(),
  comments: z.array(ReviewComment),
  /** It called on booty by name: such a request lifts a reached bound once. */
  mention: z.boolean(),
  deliveryId,
  at,
});
export type FeedbackReceived = z.infer<typeof FeedbackReceived>;

/**
 * `continue` resumes a job parked at its token budget; `approve` and `revise` answer a plan that
 * waits for approval (machine 5); `apply` (`@booty apply suggestions`) commits the pull request's
 * suggestion blocks as written (machine 9). Old logs hold only the first three.
 */
export const CommandWord = z.enum(['retry', 'stop', 'cancel', 'continue', 'approve', 'revise', 'apply']);
export type CommandWord = z.infer<typeof CommandWord>;

/**
 * `@booty retry`, `stop`, `cancel`, `continue`, `approve`, `revise <what to change>` or `apply
 * suggestions` from a writer.
 */
export const CommandReceived = z.object({
  type: z.literal('CommandReceived'),
  command: CommandWord,
  place: FeedbackPlace,
  author: z.string().min(1),
  commentId: z.number().int(),
  /** What `revise` asks to change in the plan (absent for the other commands). */
  text: z.string().min(1).optional(),
  deliveryId,
  at,
});
export type CommandReceived = z.infer<typeof CommandReceived>;

/**
 * A writer's `@booty <question>`: answered in one reply, with the lines it read, and never a
 * commit (machine 8).
 */
export const QuestionAsked = z.object({
  type: z.literal('QuestionAsked'),
  place: FeedbackPlace,
  author: z.string().min(1),
  body: z.string(),
  commentId: z.number().int(),
  deliveryId,
  at,
});
export type QuestionAsked = z.infer<typeof QuestionAsked>;

/**
 * CI finished something on a commit: on GitHub a check suite, check run, status or workflow run,
 * on GitLab a pipeline or a job (v2; v1 knew GitHub's four). The job reads CI again.
 */
export const CiCompleted = z.object({
  type: z.literal('CiCompleted'),
  headSha: z.string().min(7),
  source: z.enum(['check_suite', 'check_run', 'status', 'workflow_run', 'pipeline', 'job']),
  /** What the one event said (success, failure, ...); the job reads the whole picture itself. */
  conclusion: z.string().nullable(),
  deliveryId,
  at,
});
export type CiCompleted = z.infer<typeof CiCompleted>;

/** The pull request was merged or closed. */
export const PrClosed = z.object({
  type: z.literal('PrClosed'),
  merged: z.boolean(),
  sender: z.string(),
  deliveryId,
  at,
});
export type PrClosed = z.infer<typeof PrClosed>;

/** Someone moved the pull request: pushed to its branch, or turned it draft or ready. */
export const PrUpdated = z.object({
  type: z.literal('PrUpdated'),
  action: z.enum(['synchronize', 'converted_to_draft', 'ready_for_review', 'reopened']),
  headSha: z.string().nullable(),
  draft: z.boolean(),
  sender: z.string(),
  deliveryId,
  at,
});
export type PrUpdated = z.infer<typeof PrUpdated>;

export type ConversationEvent =
  | FeedbackReceived
  | CommandReceived
  | QuestionAsked
  | CiCompleted
  | PrClosed
  | PrUpdated;
