import { BootyError } from '../errors.js';
import type { JobContext } from '../machines/job-context.js';
import { assertBootyBranch, type BranchRemote, pushLeased, remoteTip } from './branch-remote.js';
import { type Author, type BaseEntries, buildCommit, entriesAt } from './commit-build.js';
import { type GitAuth, git, hasCommit } from './git.js';
import { withLock } from './keyed-lock.js';

// The job's first push: its work as one commit on top of the base commit, built from the log
// (commit-build.ts), pushed to the job's branch only. The commit is deterministic (fixed author,
// committer and date, parent the base commit), so a re-run after a crash makes the same sha and
// the push is a no-op. Force-with-lease names the sha booty last saw on the remote, and a tip that
// is not this job's own commit is refused: a human's push, or another job's branch, is never overwritten.

export const JOB_TRAILER = 'Booty-Job';

export function commitMessage(job: Pick<JobContext, 'issue' | 'analysis' | 'jobId' | 'lastTest'>): string {
  const kind = job.analysis?.changeKind ?? 'feat';
  const summary = (job.analysis?.summary || job.issue.title).split('\n')[0]!.trim().replace(/\.$/, '');
  const subject = summary.length > 72 ? `${summary.slice(0, 69).trimEnd()}...` : summary;
  // Only a change whose tests were seen passing closes the issue.
  const link = job.lastTest?.passed ? 'Closes' : 'Refs';
  return `${kind}: ${subject} (#${job.issue.number})\n\n${link} #${job.issue.number}.\n\n${JOB_TRAILER}: ${job.jobId}\n`;
}

export async function commitAndPush(input: {
  /** The repository's bare mirror: booty's own objects, never a work tree a test ran in. */
  mirror: string;
  job: JobContext;
  /** The base commit's entries at the changed paths (baseEntries). */
  base: BaseEntries;
  author: Author;
  url: string;
  auth: GitAuth | null;
  signal?: AbortSignal;
}): Promise<{ headSha: string; branchCreated: boolean }> {
  const { mirror, job, author, auth, signal, url, base } = input;
  if (!job.workspace)
    throw new BootyError('BOOTY_E_GIT_FAILED', { op: 'commit', reason: 'the job has no workspace yet' });
  const branch = job.branch;
  assertBootyBranch(branch);
  const remote: BranchRemote = { mirror, url, auth, signal };
  // Only the build writes a ref in the mirror, so only it waits for the mirror's lock. The pushes
  // name the commit by its sha and write no ref here: they run beside other jobs' syncs and pushes
  // (a sync that prunes the branch's ref meanwhile leaves the fresh objects, which gc keeps weeks).
  const headSha = await withLock(mirror, () =>
    buildCommit({
      mirror,
      ref: `refs/heads/${branch}`,
      parent: job.workspace!.baseSha,
      base,
      changes: job.changes,
      author,
      at: job.requestedAt / 1000,
      message: commitMessage(job),
    }),
  );
  // A job's branch is new on its first push: the lease says it must not exist, so the common case
  // costs one round trip. When it exists (a re-run after a crash, or someone else's), look first.
  const pushedFresh = await pushLeased(remote, branch, headSha, null).then(
    () => true,
    () => false,
  );
  if (pushedFresh) return { headSha, branchCreated: true };
  const remoteSha = await remoteTip(remote, branch);
  if (remoteSha === headSha) return { headSha, branchCreated: false };
  if (remoteSha !== null && !(await isThisJobs({ mirror, sha: remoteSha, job, author, url, auth, signal }))) {
    throw new BootyError('BOOTY_E_BRANCH_FOREIGN', { branch, sha: remoteSha });
  }
  await pushLeased(remote, branch, headSha, remoteSha);
  return { headSha, branchCreated: false };
}

/**
 * The entries at the job's changed paths in its base commit, read from the mirror; null when the
 * mirror does not hold the base commit (it left the remote's branches, or the mirror is new).
 */
export const baseEntries = (mirror: string, job: JobContext): Promise<BaseEntries | null> =>
  entriesAt(
    mirror,
    job.workspace!.baseSha,
    job.changes.map((c) => c.path),
  );

/**
 * Whether the remote branch holds only this job's own earlier pushes since the base commit: a tip
 * by booty with a human's commit beneath it is not booty's to replace.
 */
async function isThisJobs(p: {
  mirror: string;
  sha: string;
  job: JobContext;
  author: Author;
  url: string;
  auth: GitAuth | null;
  signal: AbortSignal | undefined;
}): Promise<boolean> {
  const { mirror, sha, job, author, url, auth, signal } = p;
  if (!(await hasCommit(mirror, sha))) {
    await git(['fetch', '--quiet', '--no-write-fetch-head', url, `refs/heads/${job.branch}`], {
      cwd: mirror,
      auth,
      signal,
      op: 'fetch',
      remote: true,
    });
  }
  // Newest first, so a branch from another base shows a foreign commit within the first few.
  const listed = await git(
    [
      'log',
      '-z',
      '--max-count=100',
      `--format=%ae%n%(trailers:key=${JOB_TRAILER},valueonly)`,
      `${job.workspace!.baseSha}..${sha}`,
    ],
    { cwd: mirror, op: 'log' },
  );
  return listed
    .split('\0')
    .filter(Boolean)
    .every((entry) => {
      const [email, trailer] = entry.split('\n');
      // Commits from before the trailer existed carry only booty's author.
      return email === author.email && (trailer?.trim() === job.jobId || !trailer?.trim());
    });
}
