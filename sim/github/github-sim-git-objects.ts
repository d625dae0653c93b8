import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SimCommit } from './github-sim-state-ci.js';

// What the simulator reads from and writes into a bare repository beyond serving it: refs, commits,
// diffs for review comments and PR counts, a person's commit made without a clone, and a merge.

const run = promisify(execFile);
const git = async (bare: string, args: string[], env: NodeJS.ProcessEnv = {}, input?: string) => {
  const child = run('git', ['--git-dir', bare, ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (input !== undefined) {
    child.child.stdin?.end(input);
  }
  return (await child).stdout;
};

/** The commits branches point at (every branch when none is named), read with one git process. */
export async function branchShas(bare: string, branches?: string[]): Promise<Map<string, string>> {
  const out = await git(bare, [
    'for-each-ref',
    '--format=%(refname) %(objectname)',
    ...(branches ? branches.map((b) => `refs/heads/${b}`) : ['refs/heads']),
  ]);
  const shas = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [ref, sha] = line.split(' ');
    if (ref && sha) shas.set(ref.replace(/^refs\/heads\//, ''), sha);
  }
  rememberCommits(bare, shas.values());
  return shas;
}

/** A ref as the REST API takes one (a sha, a branch, a tag, `heads/x`) to its commit, or null. */
export async function resolveCommit(bare: string, ref: string): Promise<string | null> {
  if (ref.startsWith('-')) return null;
  // A commit, once in the repository, stays: a full sha seen before needs no process (CI reads ask
  // about the same head again and again).
  if (knownCommits.get(bare)?.has(ref)) return ref;
  try {
    const sha = (await git(bare, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim() || null;
    if (sha) rememberCommits(bare, [sha]);
    return sha;
  } catch {
    return null;
  }
}

const knownCommits = new Map<string, Set<string>>();
function rememberCommits(bare: string, shas: Iterable<string>) {
  const known = knownCommits.get(bare) ?? new Set<string>();
  for (const sha of shas) known.add(sha);
  knownCommits.set(bare, known);
}

export async function readCommit(bare: string, sha: string): Promise<SimCommit> {
  const out = await git(bare, ['show', '-s', '--format=%H%n%T%n%an%n%ae%n%cn%n%ce%n%cI%n%B', sha]);
  const [id, treeId, an, ae, cn, ce, date, ...message] = out.split('\n');
  return {
    id: id!,
    treeId: treeId!,
    message: message.join('\n').trimEnd(),
    timestamp: new Date(date!).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    author: { name: an!, email: ae! },
    committer: { name: cn!, email: ce! },
  };
}

/** Commits, lines and files a PR changes, counted from the merge base as GitHub counts them. */
export async function diffStats(bare: string, baseSha: string, headSha: string) {
  // `base..head` counts the commits since the merge base; `base...head` diffs from it.
  const [count, numstat] = await Promise.all([
    git(bare, ['rev-list', '--count', `${baseSha}..${headSha}`]),
    // Branches with no history in common have no diff to count.
    git(bare, ['diff', '--numstat', `${baseSha}...${headSha}`]).catch(() => ''),
  ]);
  const commits = Number(count.trim());
  let additions = 0;
  let deletions = 0;
  let changedFiles = 0;
  for (const line of numstat.split('\n').filter(Boolean)) {
    const [a, d] = line.split('\t');
    additions += Number(a) || 0;
    deletions += Number(d) || 0;
    changedFiles += 1;
  }
  return { commits, additions, deletions, changedFiles };
}

/** One file's diff between the PR's merge base and a commit, as GitHub shows it in a review. */
export async function fileDiff(
  bare: string,
  baseSha: string,
  headSha: string,
  file: string,
): Promise<string> {
  const base = (await git(bare, ['merge-base', baseSha, headSha])).trim();
  return git(bare, ['diff', '--no-color', '--no-ext-diff', base, headSha, '--', file]);
}

export async function branchesAt(bare: string, sha: string): Promise<string[]> {
  const out = await git(bare, [
    'for-each-ref',
    '--points-at',
    sha,
    '--format=%(refname:short)',
    'refs/heads',
  ]);
  return out.split('\n').filter(Boolean);
}

export interface Person {
  name: string;
  email: string;
}

const identity = (author: Person, committer: Person = author, date = new Date()) => ({
  GIT_AUTHOR_NAME: author.name,
  GIT_AUTHOR_EMAIL: author.email,
  GIT_AUTHOR_DATE: date.toISOString(),
  GIT_COMMITTER_NAME: committer.name,
  GIT_COMMITTER_EMAIL: committer.email,
  GIT_COMMITTER_DATE: date.toISOString(),
});

/**
 * Commits files onto a branch straight in the bare repository (a temporary index, no clone), as a
 * person pushing from elsewhere would; null content deletes a file. Returns the old and new heads.
 */
export async function commitFiles(
  bare: string,
  input: {
    branch: string;
    files: Record<string, string | null>;
    message: string;
    author: Person;
    /** Where a new branch starts; else it has no history. */
    from?: string;
  },
): Promise<{ before: string | null; after: string }> {
  const before = await resolveCommit(bare, `refs/heads/${input.branch}`);
  const parent = before ?? (input.from ? await resolveCommit(bare, `refs/heads/${input.from}`) : null);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-index-'));
  const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
  try {
    if (parent) await git(bare, ['read-tree', parent], env);
    for (const [file, content] of Object.entries(input.files)) {
      if (content === null) {
        await git(bare, ['update-index', '--force-remove', '--', file], env);
        continue;
      }
      const blob = (await git(bare, ['hash-object', '-w', '--stdin'], env, content)).trim();
      await git(bare, ['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`], env);
    }
    const tree = (await git(bare, ['write-tree'], env)).trim();
    const parents = parent ? ['-p', parent] : [];
    const after = (
      await git(bare, ['commit-tree', tree, ...parents, '-m', input.message], identity(input.author))
    ).trim();
    await git(bare, ['update-ref', `refs/heads/${input.branch}`, after, before ?? '']);
    return { before, after };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Merges head into base in the bare repository as GitHub's merge button does: a merge commit, or
 * for `squash` one commit with the PR's changes. Null when the branches conflict.
 */
export async function mergeBranches(
  bare: string,
  input: { base: string; head: string; message: string; method: 'merge' | 'squash'; committer: Person },
): Promise<string | null> {
  const baseSha = await resolveCommit(bare, `refs/heads/${input.base}`);
  const headSha = await resolveCommit(bare, `refs/heads/${input.head}`);
  if (!baseSha || !headSha) return null;
  let tree: string;
  try {
    tree = (await git(bare, ['merge-tree', '--write-tree', baseSha, headSha])).split('\n')[0]!.trim();
  } catch {
    return null; // merge-tree exits 1 on a conflict
  }
  const parents = input.method === 'merge' ? ['-p', baseSha, '-p', headSha] : ['-p', baseSha];
  const sha = (
    await git(bare, ['commit-tree', tree, ...parents, '-m', input.message], identity(input.committer))
  ).trim();
  await git(bare, ['update-ref', `refs/heads/${input.base}`, sha, baseSha]);
  return sha;
}
