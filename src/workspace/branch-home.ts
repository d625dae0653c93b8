import type { RepoRef } from '../events/job-events.js';
import type { JobContext } from '../machines/job-context.js';

// Where a job's branch lives: the repository's own remote, or, on a fork's pull request whose
// author lets maintainers edit it, the fork. A fork's branch is kept in the repository's mirror
// under refs/booty/forks/, apart from the repository's own branches (which the mirror's fetch
// overwrites and prunes), and is pushed to the fork itself.

export interface BranchHome {
  /** The clone URL of the repository the branch is in. */
  url: string;
  /** The ref in the repository's mirror that holds the branch's tip. */
  ref: string;
  /** The branch is in a fork, not in the repository's own remote. */
  fork: boolean;
}

export function branchHome(
  job: Pick<JobContext, 'repo' | 'branch' | 'request'>,
  remoteUrl: (repo: RepoRef) => string,
): BranchHome {
  const fork = job.request.onPr?.fork;
  if (!fork) return { url: remoteUrl(job.repo), ref: `refs/heads/${job.branch}`, fork: false };
  const [owner, name] = fork.split('/') as [string, string];
  return {
    url: remoteUrl({ forge: job.repo.forge, owner, name }),
    ref: `refs/booty/forks/${fork}/${job.branch}`,
    fork: true,
  };
}
