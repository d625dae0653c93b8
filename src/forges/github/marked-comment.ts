import { BootyError } from '../../errors.js';
import type { RepoRef } from '../../events/job-events.js';
import type { GitHubClient } from './clients.js';
import { githubError, mapped } from './github-errors.js';

// Comments booty posts once: each carries a hidden marker, and is looked for by it before it is
// posted, so an effect run again after a crash (or a lost reply) never says the same thing twice.

interface Comment {
  id: number;
  body?: string | null;
}

/** Every comment on an issue or a pull request's conversation, oldest first. */
export const issueThread = (gh: GitHubClient, repo: RepoRef, issueNumber: number): Promise<Comment[]> =>
  mapped(() =>
    gh.rest.paginate(gh.rest.issues.listComments, {
      owner: repo.owner,
      repo: repo.name,
      issue_number: issueNumber,
      per_page: 100,
    }),
  );

export const hasMarker = (comments: readonly Comment[], marker: string) =>
  comments.some((c) => (c.body ?? '').includes(marker));

/**
 * Posts `marker` + body on the issue or PR unless a comment with the marker is there; `known`
 * is the thread as already listed. Returns true when it posted.
 */
export async function postOnce(
  gh: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  marker: string,
  body: string,
  known?: readonly Comment[],
): Promise<boolean> {
  const comments = known ?? (await issueThread(gh, repo, issueNumber));
  if (hasMarker(comments, marker)) return false;
  await createOnce(
    () =>
      gh.rest.issues.createComment({
        owner: repo.owner,
        repo: repo.name,
        issue_number: issueNumber,
        body: `${marker}\n${body}`,
      }),
    async () => hasMarker(await issueThread(gh, repo, issueNumber), marker),
  );
  return true;
}

/**
 * A create is not idempotent, so it is sent once: when its reply is lost (a retryable failure),
 * `landed` looks for what it made, and only a create that did not land is an error.
 */
export async function createOnce(create: () => Promise<unknown>, landed: () => Promise<boolean>) {
  try {
    await create();
  } catch (err) {
    const mappedErr = githubError(err);
    if (mappedErr instanceof BootyError && mappedErr.retryable && (await landed())) return;
    throw mappedErr;
  }
}
