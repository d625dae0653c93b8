import { BootyError } from '../../errors.js';
import type { ProgressTarget } from '../forge.js';
import { progressMarker } from '../markers.js';
import type { GitHubClient } from './clients.js';
import { githubError, httpStatus, mapped } from './github-errors.js';
import { allIssueComments } from './issues.js';

// The one progress comment per job, found again by its hidden marker. Upserting is safe to repeat:
// a create whose reply was lost is found by the marker before anything is created again.

type Target = Pick<ProgressTarget, 'jobId' | 'repo' | 'issue'>;

export interface ProgressComment {
  id: number;
  body: string;
}

export async function findProgressComment(gh: GitHubClient, job: Target): Promise<ProgressComment | null> {
  const marker = progressMarker(job.jobId);
  const comments = await allIssueComments(gh, job);
  const found = comments.find((c) => (c.body ?? '').includes(marker));
  return found ? { id: found.id, body: found.body ?? '' } : null;
}

/** Writes the body into the job's comment: edits the known or found one, creates it if there is none. */
export async function upsertProgressComment(
  gh: GitHubClient,
  job: Target,
  body: string,
  known: ProgressComment | null,
): Promise<ProgressComment> {
  const repo = { owner: job.repo.owner, repo: job.repo.name };
  const existing = known ?? (await findProgressComment(gh, job));
  if (existing) {
    if (existing.body === body) return existing;
    try {
      await gh.rest.issues.updateComment({ ...repo, comment_id: existing.id, body });
      return { id: existing.id, body };
    } catch (err) {
      // Someone deleted the comment: write a new one rather than fail forever.
      if (httpStatus(err) !== 404 || !known) throw githubError(err);
      return upsertProgressComment(gh, job, body, null);
    }
  }
  try {
    const { data } = await gh.rest.issues.createComment({
      ...repo,
      issue_number: job.issue.number,
      body,
    });
    return { id: data.id, body };
  } catch (err) {
    const mappedErr = githubError(err);
    if (mappedErr instanceof BootyError && mappedErr.retryable) {
      const again = await findProgressComment(gh, job);
      if (again) return upsertProgressComment(gh, job, body, again);
    }
    throw mappedErr;
  }
}

/** 👀 on the issue. GitHub answers a repeated reaction with the existing one, so this is idempotent. */
export async function reactEyes(gh: GitHubClient, job: Target): Promise<void> {
  await mapped(() =>
    gh.rest.reactions.createForIssue({
      owner: job.repo.owner,
      repo: job.repo.name,
      issue_number: job.issue.number,
      content: 'eyes',
    }),
  );
}
