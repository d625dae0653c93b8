import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
    const push = (expected: string | null) =>
      git(
        [
          'push',
          '--quiet',
          '--porcelain',
          `--force-with-lease=${remoteRef}:${expected ?? ''}`,
          url,
          `${headSha}:${remoteRef}`,
        ],
        { cwd: mirror, auth, signal, op: 'push', remote: true },
      );
    // A job's branch is new on its first push: the lease says it must not exist, so the common case
    // costs one round trip. When it exists (a re-run after a crash, or someone else's), look first.
    const pushedFresh = await push(null).then(
      () => true,
      () => false,
    );
    if (pushedFresh) return { headSha };
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
    await push(remoteSha);
    return { headSha };
  });
}

/**
 * Writes the logged changes onto the base commit's tree, in a private index, and commits. Each git
 * step takes every changed path at once, so the commit costs the same few processes for one file
 * or fifty.
 */
async function commitFromLog(mirror: string, job: JobContext, author: Author): Promise<string> {
  const baseSha = job.workspace!.baseSha;
  const index = path.join(mirror, `booty-index-${job.jobId}`);
  // update-index wants a work tree even with --cacheinfo; this one holds only the blobs to hash.
  const scratch = await mkdtemp(path.join(tmpdir(), 'booty-no-tree-'));
  const env = { GIT_INDEX_FILE: index, GIT_WORK_TREE: scratch };
  const run = (args: string[], op: string, input?: string) => git(args, { cwd: mirror, env, op, input });
  const paths = job.changes.map((c) => c.path);
  try {
    const base = await treeEntries(mirror, baseSha, paths);
    if (
      job.changes.every(
        (c) => base.get(c.path)?.sha === (c.content === null ? undefined : blobSha(c.content)),
      )
    ) {
      throw new BootyError('BOOTY_E_GIT_FAILED', {
        op: 'commit',
        reason: 'the logged changes leave the tree as it was',
      });
    }
    await run(['read-tree', baseSha], 'read-tree');
    const written = job.changes.filter((c) => c.content !== null);
    // --no-filters: the bytes the log holds, whatever .gitattributes says.
    const files = await Promise.all(
      written.map(async (c, i) => {
        const file = path.join(scratch, String(i));
        await writeFile(file, c.content!);
        return file;
      }),
    );
    const shas = files.length
      ? (
          await run(['hash-object', '-w', '--no-filters', '--stdin-paths'], 'hash-object', files.join('\n'))
        ).split('\n')
      : [];
    const shaOf = new Map(written.map((c, i) => [c.path, shas[i]!]));
    // --index-info: mode 0 removes a path; a file keeps its base mode (an executable stays one).
    const info = job.changes.map((c) => {
      const sha = shaOf.get(c.path);
      if (sha === undefined) return `0 ${'0'.repeat(40)}\t${c.path}`;
      const mode = base.get(c.path)?.mode === '100755' ? '100755' : '100644';
      return `${mode} ${sha}\t${c.path}`;
    });
    await run(['update-index', '--index-info'], 'update-index', `${info.join('\n')}\n`);
    const tree = await run(['write-tree'], 'write-tree');
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
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The blob entries at these paths in a commit's tree, read with one ls-tree. */
async function treeEntries(
  mirror: string,
  sha: string,
  paths: string[],
): Promise<Map<string, { mode: string; sha: string }>> {
  // Literal: a path like `docs/*.md` names that one file, not a glob.
  const listed = await git(['ls-tree', '-z', '--full-tree', sha, '--', ...paths], {
    cwd: mirror,
    op: 'ls-tree',
    env: { GIT_LITERAL_PATHSPECS: '1' },
  });
  const entries = new Map<string, { mode: string; sha: string }>();
  for (const line of listed.split('\0')) {
    const m = /^(\d+) blob ([0-9a-f]{40})\t(.*)$/s.exec(line);
    if (m) entries.set(m[3]!, { mode: m[1]!, sha: m[2]! });
  }
  return entries;
}

/** The commit holds exactly the logged content at every changed path, checked by hash. */
async function verifyAgainstLog(mirror: string, sha: string, changes: FileChange[]) {
  const entries = await treeEntries(
    mirror,
    sha,
    changes.map((c) => c.path),
  );
  for (const change of changes) {
    const actual = entries.get(change.path)?.sha ?? null;
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
