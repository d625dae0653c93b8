// Hidden HTML comments that let booty find its own PR and comment again after a restart, without
// keeping their ids anywhere but on GitHub itself.

export const prMarker = (jobId: string) => `<!-- booty:job=${jobId} -->`;
export const progressMarker = (jobId: string) => `<!-- booty:progress job=${jobId} -->`;

/** Any job's progress comment: booty's own voice, not part of the discussion. */
export const isProgressComment = (body: string | null | undefined) =>
  (body ?? '').includes('<!-- booty:progress ');

/** The comment that says red CI sent the PR back to draft: one per job and head. */
export const demotedMarker = (jobId: string, sha: string) => `<!-- booty:demoted job=${jobId} sha=${sha} -->`;

/** booty's answer to one request of a follow-up round: a review comment, a review, or a comment. */
export const replyMarker = (jobId: string, round: number, commentId: number) =>
  `<!-- booty:reply job=${jobId} round=${round} comment=${commentId} -->`;

/** The note to someone without write access that their request was not taken: one per comment. */
export const readerMarker = (commentId: number) => `<!-- booty:reader comment=${commentId} -->`;
