import { createHash } from 'node:crypto';
import { BootyError } from '../errors.js';
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
  if (!branch.startsWith('booty/')) {
    throw new BootyError('BOOTY_E_GIT_FAILED', {
      op: 'push',
      reason: `refusing to push ${branch}: not a booty/ branch`,
    });
  }
  return withLock(mirror, async () => {
    const headSha = await commitFromLog(mirror, job, author, base);
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
    if (pushedFresh) return { headSha, branchCreated: true };
    const listed = await git(['ls-remote', '--quiet', url, remoteRef], {
      cwd: mirror,
      auth,
      signal,
      op: 'ls-remote',
      remote: true,
    });
    const remoteSha = listed.split(/\s+/)[0] || null;
    if (remoteSha === headSha) return { headSha, branchCreated: false };
    if (
      remoteSha !== null &&
      !(await isThisJobs({ mirror, sha: remoteSha, job, author, url, auth, signal }))
    ) {
      throw new BootyError('BOOTY_E_BRANCH_FOREIGN', { branch, sha: remoteSha });
    }
    await push(remoteSha);
    return { headSha, branchCreated: false };
  });
}

/** The blob entries at these paths in a commit's tree: what the mode of a rewritten file keeps. */
export type BaseEntries = Map<string, { mode: string; sha: string }>;

/**
 * The entries at the job's changed paths in its base commit, read from the mirror; null when the
 * mirror does not hold the base commit (it left the remote's branches, or the mirror is new).
 */
export async function baseEntries(mirror: string, job: JobContext): Promise<BaseEntries | null> {
  const baseSha = job.workspace!.baseSha;
  try {
    return await treeEntries(
      mirror,
      baseSha,
      job.changes.map((c) => c.path),
    );
  } catch (err) {
    const type = await git(['cat-file', '-t', baseSha], { cwd: mirror, op: 'cat-file' }).catch(() => '');
    if (type !== 'commit') return null;
    throw err;
  }
}

/**
 * Writes the logged changes onto the base commit as one commit, with one `git fast-import`: it
 * stores each change's bytes as a blob (no filters, whatever .gitattributes says), builds the
 * trees, commits, and then lists every changed path in the new commit, so the same process that
 * wrote the commit proves it holds the log's content. The commit lands on the branch's ref in the
 * mirror, which keeps it from gc until the push.
 */
async function commitFromLog(mirror: string, job: JobContext, author: Author, base: BaseEntries) {
  const baseSha = job.workspace!.baseSha;
  if (
    job.changes.every((c) => base.get(c.path)?.sha === (c.content === null ? undefined : blobSha(c.content)))
  ) {
    throw new BootyError('BOOTY_E_GIT_FAILED', {
      op: 'commit',
      reason: 'the logged changes leave the tree as it was',
    });
  }
  const who = `${identity(author.name)} <${identity(author.email)}> ${Math.floor(job.requestedAt / 1000)} +0000`;
  const stream = [
    `commit refs/heads/${job.branch}`,
    'mark :1',
    `author ${who}`,
    `committer ${who}`,
    data(commitMessage(job)),
    `from ${baseSha}`,
    // A file keeps its base mode (an executable stays one); a new file is a plain one.
    ...job.changes.map((c) =>
      c.content === null
        ? `D ${quoted(c.path)}`
        : `M ${base.get(c.path)?.mode === '100755' ? '100755' : '100644'} inline ${quoted(c.path)}\n${data(c.content)}`,
    ),
    '',
    'get-mark :1',
    ...job.changes.map((c) => `ls :1 ${quoted(c.path)}`),
    'done',
    '',
  ].join('\n');
  const out = await git(['fast-import', '--quiet', '--force', '--done'], {
    cwd: mirror,
    op: 'commit',
    input: stream,
  });
  const [sha, ...listed] = out.split('\n');
  job.changes.forEach((change, i) => {
    const actual = /^\d+ blob ([0-9a-f]{40,64})\t/.exec(listed[i] ?? '')?.[1] ?? null;
    const expected = change.content === null ? null : blobSha(change.content);
    if (actual !== expected) {
      throw new BootyError('BOOTY_E_GIT_FAILED', {
        op: 'commit',
        reason: `${change.path} in the commit (${actual ?? 'absent'}) is not what the log recorded (${expected ?? 'absent'})`,
      });
    }
  });
  return sha!;
}

/** fast-import's `data`: a byte count, then the bytes. */
const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}`;

/** A path in C-style quotes, which fast-import takes for any path, whatever it holds. */
function quoted(p: string): string {
  let out = '"';
  for (const ch of p) {
    const code = ch.charCodeAt(0);
    if (ch === '\\' || ch === '"') out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A name or email as git writes it: no angle brackets or line breaks. */
const identity = (text: string) => text.replace(/[<>\n]/g, '').trim();

/** The blob entries at these paths in a commit's tree, read with one ls-tree. */
async function treeEntries(mirror: string, sha: string, paths: string[]): Promise<BaseEntries> {
  // Literal: a path like `docs/*.md` names that one file, not a glob.
  const listed = await git(['ls-tree', '-z', '--full-tree', sha, '--', ...paths], {
    cwd: mirror,
    op: 'ls-tree',
    env: { GIT_LITERAL_PATHSPECS: '1' },
  });
  const entries: BaseEntries = new Map();
  for (const line of listed.split('\0')) {
    const m = /^(\d+) blob ([0-9a-f]{40,64})\t(.*)$/s.exec(line);
    if (m) entries.set(m[3]!, { mode: m[1]!, sha: m[2]! });
  }
  return entries;
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
