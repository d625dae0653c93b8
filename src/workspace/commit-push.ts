import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BootyError } from '../errors.js';
import type { FileChange } from '../events/effect-results.js';
import type { JobContext } from '../machines/job-context.js';
import { type GitAuth, git } from './git.js';
import { withLock } from './keyed-lock.js';

// The job's work as one commit on top of the base commit, pushed to the job's branch only. The
// commit is built from the log, not from the work tree: each recorded change is written as a blob
// into the repository's mirror (which no test ever touched), placed in a tree read from the base
// commit, and checked by hash before the push. Whatever a test did to the files on disk, what is
// pushed is what was logged. The commit is deterministic (fixed author, committer and date, parent
// the base commit), so a re-run after a crash makes the same sha and the push is a no-op.
// Force-with-lease names the sha booty last saw on the remote, and a tip that is not this job's
// own commit is refused: a human's push, or another job's branch, is never overwritten.

export interface Author {
  name: string;
  email: string;
}

const TRAILER = 'Booty-Job';

export function commitMessage(job: Pick<JobContext, 'issue' | 'analysis' | 'jobId' | 'lastTest'>): string {
  const kind = job.analysis?.changeKind ?? 'feat';
  const summary = (job.analysis?.summary || job.issue.title).split('\n')[0]!.trim().replace(/\.$/, '');
  const subject = summary.length > 72 ? `${summary.slice(0, 69).trimEnd()}...` : summary;
  // Only a change whose tests were seen passing closes the issue.
  const link = job.lastTest?.passed ? 'Closes' : 'Refs';
  return `${kind}: ${subject} (#${job.issue.number})\n\n${link} #${job.issue.number}.\n\n${TRAILER}: ${job.jobId}\n`;
}

/** git's id for a blob: what `git hash-object` prints for this content. */
export function blobSha(content: string): string {
  const body = Buffer.from(content);
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

export async function commitAndPush(input: {
  /** The repository's bare mirror: booty's own objects, never a work tree a test ran in. */
  mirror: string;
  job: JobContext;
  author: Author;
  url: string;
  auth: GitAuth | null;
  signal?: AbortSignal;
}): Promise<{ headSha: string }> {
  const { mirror, job, author, auth, signal, url } = input;
  if (!job.workspace)
    throw new BootyError('BOOTY_E_GIT_FAILED', { op: 'commit', reason: 'the job has no workspace yet' });
  const branch = job.branch;
  if (!branch.startsWith('booty/')) {
    throw new BootyError('BOOTY_E_GIT_FAILED', {
      op: 'push',
      reason: `refusing to push ${branch}: not a booty/ branch`,
    });
  }
  return withLock(mirror, async () => {
    const headSha = await commitFromLog(mirror, job, author);
    const remoteRef = `refs/heads/${branch}`;
    const listed = await git(['ls-remote', '--quiet', url, remoteRef], {
      cwd: mirror,
      auth,
      signal,
      op: 'ls-remote',
      remote: true,
    });
    const remoteSha = listed.split(/\s+/)[0] || null;
    if (remoteSha === headSha) return { headSha };
    if (
      remoteSha !== null &&
      !(await isThisJobs({ mirror, sha: remoteSha, job, author, url, auth, signal }))
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
      { cwd: mirror, auth, signal, op: 'push', remote: true },
    );
    return { headSha };
  });
}

/** Writes the logged changes onto the base commit's tree, in a private index, and commits. */
async function commitFromLog(mirror: string, job: JobContext, author: Author): Promise<string> {
  const baseSha = job.workspace!.baseSha;
  const index = path.join(mirror, `booty-index-${job.jobId}`);
  // update-index wants a work tree even with --cacheinfo; an empty one is never read.
  const emptyTree = await mkdtemp(path.join(tmpdir(), 'booty-no-tree-'));
  const env = { GIT_INDEX_FILE: index, GIT_WORK_TREE: emptyTree };
  const run = (args: string[], op: string, input?: string) => git(args, { cwd: mirror, env, op, input });
  try {
    await run(['read-tree', baseSha], 'read-tree');
    for (const change of job.changes) await stage(run, baseSha, change);
    const tree = await run(['write-tree'], 'write-tree');
    const baseTree = await run(['rev-parse', `${baseSha}^{tree}`], 'rev-parse');
    if (tree === baseTree) {
      throw new BootyError('BOOTY_E_GIT_FAILED', {
        op: 'commit',
        reason: 'the logged changes leave the tree as it was',
      });
    }
    const date = `${Math.floor(job.requestedAt / 1000)} +0000`;
    const sha = await git(['commit-tree', tree, '-p', baseSha, '-F', '-'], {
      cwd: mirror,
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
    await verifyAgainstLog(mirror, sha, job.changes);
    return sha;
  } finally {
    await rm(index, { force: true });
    await rm(emptyTree, { recursive: true, force: true });
  }
}

type Run = (args: string[], op: string, input?: string) => Promise<string>;

async function stage(run: Run, baseSha: string, change: FileChange) {
  if (change.content === null) {
    await run(['update-index', '--force-remove', '--', change.path], 'update-index');
    return;
  }
  // --no-filters: the bytes the log holds, whatever .gitattributes says.
  const sha = await run(['hash-object', '-w', '--no-filters', '--stdin'], 'hash-object', change.content);
  const listed = await run(['ls-tree', baseSha, '--', change.path], 'ls-tree');
  const mode = /^(100755|100644) blob /.exec(listed)?.[1] ?? '100644';
  await run(['update-index', '--add', '--cacheinfo', `${mode},${sha},${change.path}`], 'update-index');
}

/** The commit holds exactly the logged content at every changed path, checked by hash. */
async function verifyAgainstLog(mirror: string, sha: string, changes: FileChange[]) {
  for (const change of changes) {
    const listed = await git(['ls-tree', sha, '--', change.path], { cwd: mirror, op: 'ls-tree' });
    const actual = /^\d+ blob ([0-9a-f]{40})\t/.exec(listed)?.[1] ?? null;
    const expected = change.content === null ? null : blobSha(change.content);
    if (actual !== expected) {
      throw new BootyError('BOOTY_E_GIT_FAILED', {
        op: 'commit',
        reason: `${change.path} in the commit (${actual ?? 'absent'}) is not what the log recorded (${expected ?? 'absent'})`,
      });
    }
  }
}

/** Whether the remote branch's tip is this job's own earlier push. */
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
  const have = await git(['cat-file', '-t', sha], { cwd: mirror, op: 'cat-file' }).catch(() => '');
  if (have !== 'commit') {
    await git(['fetch', '--quiet', '--no-write-fetch-head', url, `refs/heads/${job.branch}`], {
      cwd: mirror,
      auth,
      signal,
      op: 'fetch',
      remote: true,
    });
  }
  const [email, trailer] = (
    await git(['log', '-1', `--format=%ae%n%(trailers:key=${TRAILER},valueonly)`, sha], {
      cwd: mirror,
      op: 'log',
    })
  ).split('\n');
  // Commits from before the trailer existed carry only booty's author.
  return email === author.email && (trailer?.trim() === job.jobId || !trailer?.trim());
}
