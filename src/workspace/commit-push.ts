import { BootyError } from '../errors.js';
import type { JobContext } from '../machines/job-context.js';
import { type GitAuth, git } from './git.js';

// The job's work as one commit on top of the base commit, pushed to the job's branch only.
// The commit is deterministic (fixed author, committer and date, parent the base commit), so a
// re-run after a crash, even on a rebuilt workspace, makes the same sha and the push is a no-op.
// Force-with-lease names the sha booty last saw on the remote: a human's push is never overwritten.

export interface Author {
  name: string;
  email: string;
}

export function commitMessage(job: Pick<JobContext, 'issue' | 'analysis'>): string {
  const kind = job.analysis?.changeKind ?? 'feat';
  const summary = (job.analysis?.summary || job.issue.title).split('\n')[0]!.trim().replace(/\.$/, '');
  const subject = summary.length > 72 ? `${summary.slice(0, 69).trimEnd()}...` : summary;
  return `${kind}: ${subject} (#${job.issue.number})\n\nCloses #${job.issue.number}.\n`;
}

export async function commitAndPush(input: {
  dir: string;
  job: JobContext;
  author: Author;
  /** booty's URL for the repository, not the clone's origin: the clone has held generated code. */
  url: string;
  auth: GitAuth | null;
  signal?: AbortSignal;
}): Promise<{ headSha: string }> {
  const { dir, job, author, auth, signal, url } = input;
  if (!job.workspace)
    throw new BootyError('BOOTY_E_GIT_FAILED', { op: 'commit', reason: 'the job has no workspace yet' });
  const { baseSha } = job.workspace;
  const branch = job.branch;
  if (!branch.startsWith('booty/')) {
    throw new BootyError('BOOTY_E_GIT_FAILED', {
      op: 'push',
      reason: `refusing to push ${branch}: not a booty/ branch`,
    });
  }
  const headSha = await commitTree(dir, job, author, baseSha);

  // What is on the remote now decides the lease.
  const remoteRef = `refs/heads/${branch}`;
  const listed = await git(['ls-remote', '--quiet', url, remoteRef], {
    cwd: dir,
    auth,
    signal,
    op: 'ls-remote',
    remote: true,
  });
  const remoteSha = listed.split(/\s+/)[0] || null;
  if (remoteSha === headSha) return { headSha };
  if (
    remoteSha !== null &&
    !(await isBootys({ dir, sha: remoteSha, author, url, auth, signal, ref: remoteRef }))
  ) {
    throw new BootyError('BOOTY_E_BRANCH_FOREIGN', { branch, sha: remoteSha });
  }
  await git(
    [
      'push',
      '--quiet',
      '--porcelain',
      `--force-with-lease=${remoteRef}:${remoteSha ?? ''}`,
      url,
      `${headSha}:${remoteRef}`,
    ],
    { cwd: dir, auth, signal, op: 'push', remote: true },
  );
  return { headSha };
}

/** Stages exactly the job's changes (never build output) and commits them onto the base commit. */
async function commitTree(dir: string, job: JobContext, author: Author, baseSha: string): Promise<string> {
  const spec = (changes: typeof job.changes) => changes.map((c) => `:(literal)${c.path}`);
  const written = job.changes.filter((c) => c.content !== null);
  const deleted = job.changes.filter((c) => c.content === null);
  // --force: a file the model wrote on purpose is committed even if a .gitignore matches it.
  if (written.length) await git(['add', '--force', '--', ...spec(written)], { cwd: dir, op: 'add' });
  if (deleted.length) {
    await git(['rm', '--cached', '--quiet', '--ignore-unmatch', '--', ...spec(deleted)], {
      cwd: dir,
      op: 'rm',
    });
  }
  const tree = await git(['write-tree'], { cwd: dir, op: 'write-tree' });
  const head = await git(['rev-parse', 'HEAD'], { cwd: dir, op: 'rev-parse' });
  const headTree = await git(['rev-parse', 'HEAD^{tree}'], { cwd: dir, op: 'rev-parse' });
  if (headTree === tree) return head; // nothing new since the last commit (or no changes at all)
  const date = `${Math.floor(job.requestedAt / 1000)} +0000`;
  const sha = await git(['commit-tree', tree, '-p', baseSha, '-F', '-'], {
    cwd: dir,
    op: 'commit',
    input: commitMessage(job),
    env: {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
      GIT_COMMITTER_DATE: date,
    },
  });
  // Move the branch to the new commit without touching the work tree (it already matches).
  await git(['update-ref', `refs/heads/${job.branch}`, sha], { cwd: dir, op: 'update-ref' });
  await git(['symbolic-ref', 'HEAD', `refs/heads/${job.branch}`], { cwd: dir, op: 'symbolic-ref' });
  return sha;
}

/** Whether the remote branch's tip is booty's own work (an earlier push of this job). */
async function isBootys(p: {
  dir: string;
  sha: string;
  author: Author;
  url: string;
  auth: GitAuth | null;
  signal: AbortSignal | undefined;
  ref: string;
}): Promise<boolean> {
  const { dir, sha, author, url, auth, signal, ref } = p;
  const have = await git(['cat-file', '-t', sha], { cwd: dir, op: 'cat-file' }).catch(() => '');
  if (have !== 'commit') {
    await git(['fetch', '--quiet', url, ref], { cwd: dir, auth, signal, op: 'fetch', remote: true });
  }
  const email = await git(['log', '-1', '--format=%ae', sha], { cwd: dir, op: 'log' });
  return email === author.email;
}
