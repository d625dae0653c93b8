import { z } from 'zod';

// The records of a PR conversation: reviews and their inline comments, and who may do what in a
// repository. Every field has a default where it is new, so an older state file still loads.

const Iso = z.string();

export const ReviewState = z.enum(['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED', 'PENDING']);
export type ReviewState = z.infer<typeof ReviewState>;

export const SimReview = z.object({
  id: z.number(),
  nodeId: z.string(),
  pullNumber: z.number(),
  author: z.string(),
  body: z.string(),
  state: ReviewState,
  commitId: z.string(),
  /** Null while the review is pending. */
  submittedAt: Iso.nullable(),
});
export type SimReview = z.infer<typeof SimReview>;

export const SimReviewComment = z.object({
  id: z.number(),
  nodeId: z.string(),
  pullNumber: z.number(),
  reviewId: z.number(),
  /** The thread's first comment, for a reply. */
  inReplyTo: z.number().nullable(),
  author: z.string(),
  body: z.string(),
  path: z.string(),
  /** Where it sits: a line of the file on one side of the diff, and its position in the diff. */
  line: z.number().nullable(),
  side: z.enum(['LEFT', 'RIGHT']),
  startLine: z.number().nullable(),
  startSide: z.enum(['LEFT', 'RIGHT']).nullable(),
  position: z.number().nullable(),
  subjectType: z.enum(['line', 'file']),
  commitId: z.string(),
  diffHunk: z.string(),
  createdAt: Iso,
  updatedAt: Iso,
  /** On a thread's first comment: who resolved the thread (GraphQL `resolveReviewThread`), or null. */
  resolvedBy: z.string().nullable().default(null),
});
export type SimReviewComment = z.infer<typeof SimReviewComment>;

/** The fine roles GitHub gives a collaborator; GitHub's `permission` folds them into four. */
export const Role = z.enum(['admin', 'maintain', 'write', 'triage', 'read', 'none']);
export type Role = z.infer<typeof Role>;
