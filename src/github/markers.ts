// Hidden HTML comments that let booty find its own PR and comment again after a restart, without
// keeping their ids anywhere but on GitHub itself.

export const prMarker = (jobId: string) => `<!-- booty:job=${jobId} -->`;
export const progressMarker = (jobId: string) => `<!-- booty:progress job=${jobId} -->`;

/** Any job's progress comment: booty's own voice, not part of the discussion. */
export const isProgressComment = (body: string | null | undefined) =>
  (body ?? '').includes('<!-- booty:progress ');
