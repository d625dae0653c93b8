import { BootyError } from '../errors.js';
import { type GitAuth, git } from './git.js';

// The job's branch on the remote: only booty/ branches are ever pushed, and the branch of a pull
// request a writer asked booty to work on; every push names the sha booty expects there
// (force-with-lease), so a commit someone else pushed is never dropped.

export interface BranchRemote {
  /** The repository's bare mirror, which holds the commits pushed. */
  mirror: string;
  url: string;
  auth: GitAuth | null;
  signal?: AbortSignal;
}

/** `askedOn`: the head branch of the pull request the job was asked on, which it may add commits to. */
export function assertBootyBranch(branch: string, askedOn: string | null = null): void {
  if (!branch.startsWith('booty/') && branch !== askedOn) {
    throw new BootyError('BOOTY_E_GIT_FAILED', {
      op: 'push',
      reason: `refusing to push ${branch}: not a booty/ branch`,
    });
  }
}

/** Pushes `sha` to the branch only if the remote's branch is at `expected` (null: absent). */
export function pushLeased(remote: BranchRemote, branch: string, sha: string, expected: string | null) {
  const ref = `refs/heads/${branch}`;
  return git(
    [
      'push',
      '--quiet',
      '--porcelain',
      `--force-with-lease=${ref}:${expected ?? ''}`,
      remote.url,
      `${sha}:${ref}`,
    ],
    { cwd: remote.mirror, auth: remote.auth, signal: remote.signal, op: 'push', remote: true },
  );
}

/** The branch's tip on the remote itself, or null when the remote has no such branch. */
export async function remoteTip(remote: BranchRemote, branch: string): Promise<string | null> {
  const listed = await git(['ls-remote', '--quiet', remote.url, `refs/heads/${branch}`], {
    cwd: remote.mirror,
    auth: remote.auth,
    signal: remote.signal,
    op: 'ls-remote',
    remote: true,
  });
  return listed.split(/\s+/)[0] || null;
}

/** The remote's branch fetched into the mirror at `ref` (the caller holds the mirror's lock). */
export async function fetchBranch(remote: BranchRemote, branch: string, ref: string): Promise<void> {
  await git(
    ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', remote.url, `+refs/heads/${branch}:${ref}`],
    { cwd: remote.mirror, auth: remote.auth, signal: remote.signal, op: 'fetch', remote: true },
  );
}
