import { z } from 'zod';
import { FeedbackPlace } from './conversation-events.js';

// What a job started by a writer's `@booty` (machine 8) records in its request, beside the issue:
// the words that asked, taken as a change or a question, and, when they were said on a pull
// request booty did not open, that pull request, whose branch the job works on.

/** The comment that started the job: a request for a change, or a question to answer. */
export const Ask = z.object({
  kind: z.enum(['change', 'question']),
  place: FeedbackPlace,
  author: z.string().min(1),
  body: z.string(),
  commentId: z.number().int(),
});
export type Ask = z.infer<typeof Ask>;

/**
 * A pull request someone else opened, as it stood when the job was asked on it. booty commits on
 * top of its branch and never pushes over it; a fork's branch only when its author lets
 * maintainers edit it.
 */
export const PersonPr = z.object({
  number: z.number().int().positive(),
  url: z.string(),
  nodeId: z.string(),
  draft: z.boolean(),
  author: z.string(),
  /** The branch the pull request is from, and its head commit then. */
  headRef: z.string().min(1),
  headSha: z.string().min(7),
  /** The repository the branch lives in, as `owner/name`, when it is a fork; null in the same repository. */
  fork: z.string().min(3).nullable(),
  /** The author lets maintainers push to the fork's branch. */
  maintainerCanModify: z.boolean(),
});
export type PersonPr = z.infer<typeof PersonPr>;
