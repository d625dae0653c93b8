// Hidden HTML comments that let booty find its own PR and comment again after a restart, without
// keeping their ids anywhere but on the forge itself (any forge that renders markdown hides them).

export const prMarker = (jobId: string) => `<!-- booty:job=${jobId} -->`;
export const progressMarker = (jobId: string) => `<!-- booty:progress job=${jobId} -->`;

/**
 * Any comment booty wrote (progress, replies, notes): its own voice, not the discussion. Every one
 * carries a marker, which matters with a plain token, where booty's author is a user like any other.
 */
export const isBootysOwn = (body: string | null | undefined) => (body ?? '').includes('<!-- booty:');

/** The comment that says red CI sent the PR back to draft: one per job and head. */
export const demotedMarker = (jobId: string, sha: string) => `<!-- booty:demoted job=${jobId} sha=${sha} -->`;

/** booty's answer to one request of a follow-up round: a review comment, a review, or a comment. */
export const replyMarker = (jobId: string, round: number, commentId: number) =>
  `<!-- booty:reply job=${jobId} round=${round} comment=${commentId} -->`;

/** Beside a reply's marker on booty's answer to a question: a later job on the issue reads it back. */
export const ANSWER_TAG = '<!-- booty:answer -->';

/** The note to someone without write access that their request was not taken: one per comment. */
export const readerMarker = (commentId: number) => `<!-- booty:reader comment=${commentId} -->`;
export const ignoredMarker = (commentId: number) => `<!-- booty:ignored comment=${commentId} -->`;

/** The plan posted for approval: one comment per plan (a revision posts the next). */
export const planMarker = (jobId: string, n: number) => `<!-- booty:plan job=${jobId} n=${n} -->`;

/** The note to the people asked for help when the job gave up: once per job. */
export const escalationMarker = (jobId: string) => `<!-- booty:escalated job=${jobId} -->`;
