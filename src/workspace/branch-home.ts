import type { RepoRef } from '../events/job-events.js';
import type { JobContext } from '../machines/job-context.js';
import { type BranchRemote, fetchBranch, remoteTip } from './branch-remote.js';
import { git } from './git.js';
import { withLock } from './keyed-lock.js';

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

/**
 * The fork's branch fetched into the mirror at `ref`; a branch the fork no longer has leaves no
 * ref (the round then finds its branch missing). Under the mirror's lock, as every write to it.
 */
export function fetchFork(remote: BranchRemote, branch: string, ref: string): Promise<void> {
  const { mirror } = remote;
  return withLock(mirror, async () => {
    const fetched = await fetchBranch(remote, branch, ref).then(
      () => true,
      async (err: unknown) => {
        if ((await remoteTip(remote, branch)) !== null) throw err;
        return false;
      },
    );
    if (!fetched) await git(['update-ref', '-d', ref], { cwd: mirror, op: 'update-ref' });
  });
}
