import { BootyError } from '../errors.js';
import type { JobContext } from '../machines/job-context.js';
import { assertBootyBranch, type BranchRemote, fetchBranch, pushLeased, remoteTip } from './branch-remote.js';
import { type Author, type BaseEntries, buildCommit } from './commit-build.js';
import { JOB_TRAILER } from './commit-push.js';
import { git, hasCommit } from './git.js';
import { withLock } from './keyed-lock.js';

// A follow-up round's push: the round's logged changes as one commit on top of the PR head the
// round started from, pushed as a fast-forward only while the branch is still there
// (force-with-lease). When someone pushed meanwhile, a commit of this round already on the branch
// means a crashed run pushed it (nothing is pushed twice); a push that touched none of the
// round's files gets the same change rebuilt on top of it; one that did ends the round, which
// starts again from the new head.

export const ROUND_TRAILER = 'Booty-Round';
/** How many times a branch that keeps moving is caught up with before the round gives up. */
const MAX_REBASES = 3;

export interface Round {
  /** The round's number: with the job id, it names the round's commit. */
  n: number;
  /** The commit's date, in seconds since the epoch. */
  at: number;
  /** Subject and body; the trailers are added here. */
  message: string;
}

export interface RoundPushed {
  /** The round's commit on the branch. */
  commit: string;
  /** The branch's head after the push: the commit, or what a human pushed on top of an earlier run's. */
  headSha: string;
  /** The commit's parent is not the round's base: someone pushed while booty worked. */
  rebased: boolean;
}

export const roundMessage = (message: string, jobId: string, n: number) =>
  `${message.trimEnd()}\n\n${JOB_TRAILER}: ${jobId}\n${ROUND_TRAILER}: ${n}\n`;

export async function pushRound(input: {
  mirror: string;
  /** Its workspace's base is the PR head the round started from; its changes are the round's. */
  job: Pick<JobContext, 'jobId' | 'branch' | 'workspace' | 'changes' | 'request'>;
  /** The base's entries at the changed paths: a tip the round is rebuilt on has the same. */
  base: BaseEntries;
  round: Round;
  author: Author;
  /** Where the mirror holds the branch: refs/heads/<branch>, or a fork's ref (branch-home.ts). */
  ref: string;
  /** The repository the branch is in: the repository's own, or the fork. */
  remote: BranchRemote;
}): Promise<RoundPushed> {
  const { mirror, job, round, remote, ref } = input;
  // Someone else's pull request: commits go on top of its branch, never over it; a fork's only
  // when its author lets maintainers edit it (the forge refuses the push otherwise).
  const onPr = job.request.onPr;
  assertBootyBranch(
    job.branch,
    onPr && (onPr.fork === null || onPr.maintainerCanModify) ? onPr.headRef : null,
  );
  if (!job.workspace)
    throw new BootyError('BOOTY_E_GIT_FAILED', { op: 'commit', reason: 'the job has no workspace yet' });
  const start = job.workspace.baseSha;
  const paths = job.changes.map((c) => c.path);
  const commitOn = (parent: string) =>
    buildCommit({
      mirror,
      ref,
      parent,
      base: input.base,
      changes: job.changes,
      author: input.author,
      at: round.at,
      message: roundMessage(round.message, job.jobId, round.n),
    });
  // Only what writes a ref in the mirror (the commit's build, a fetch of the tip) holds its lock:
  // the push names the commit by its sha, and the reads need only objects, as openPr's push.
  let parent = start;
  for (let rebases = 0; ; rebases++) {
    const commit = await withLock(mirror, () => commitOn(parent));
    const failed = await pushLeased(remote, job.branch, commit, parent).then(
      () => null,
      (err: unknown) => err,
    );
    if (!failed) return { commit, headSha: commit, rebased: parent !== start };
    const tip = await remoteTip(remote, job.branch);
    if (tip === null) throw new BootyError('BOOTY_E_BRANCH_MISSING', { branch: job.branch });
    if (tip === parent) throw failed; // the lease held: the push failed for another reason
    await withLock(mirror, () => fetchTip(remote, job.branch, ref, tip));
    const earlier = await roundCommit(mirror, start, tip, job.jobId, round.n);
    if (earlier) return { commit: earlier.sha, headSha: tip, rebased: earlier.parent !== start };
    const touched = overlap(paths, await changedPaths(mirror, start, tip));
    if (touched.length > 0 || rebases === MAX_REBASES) {
      throw new BootyError('BOOTY_E_HEAD_MOVED', {
        branch: job.branch,
        sha: tip,
        paths: touched.join(', '),
      });
    }
    // The round's paths are untouched since its base: their entries there are the tip's too.
    parent = tip;
  }
}

/** Brings the remote's tip into the mirror, on the branch's ref as a sync would. */
async function fetchTip(remote: BranchRemote, branch: string, ref: string, tip: string) {
  if (await hasCommit(remote.mirror, tip)) return;
  await fetchBranch(remote, branch, ref);
}

/** This round's commit among those reachable from `tip` and not from `start`, if one is there. */
async function roundCommit(mirror: string, start: string, tip: string, jobId: string, n: number) {
  const trailer = (key: string) => `%(trailers:key=${key},valueonly,separator=%x2C)`;
  const listed = await git(
    ['log', '-z', `--format=%H%n%P%n${trailer(JOB_TRAILER)}%n${trailer(ROUND_TRAILER)}`, `${start}..${tip}`],
    { cwd: mirror, op: 'log' },
  );
  for (const entry of listed.split('\0')) {
    const [sha, parents, job, round] = entry.split('\n');
    if (job === jobId && round === String(n)) return { sha: sha!, parent: parents!.split(' ')[0] };
  }
  return null;
}

/** The paths that differ between two commits, both sides of a rename included. */
async function changedPaths(mirror: string, from: string, to: string): Promise<string[]> {
  const out = await git(['diff', '--name-only', '-z', '--no-renames', from, to], { cwd: mirror, op: 'diff' });
  return out.split('\0').filter(Boolean);
}

/** The round's paths that another change touched: the same file, or a directory one of them is in. */
function overlap(paths: readonly string[], changed: readonly string[]): string[] {
  const inside = (p: string, dir: string) => p.startsWith(`${dir}/`);
  return paths.filter((p) => changed.some((c) => c === p || inside(p, c) || inside(c, p))).sort();
}
