import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Caller } from './github-sim-auth.js';
import { mayAccess } from './github-sim-auth.js';
import { resolveCommit } from './github-sim-git-objects.js';
import type { SimPull, SimRepo, SimState, SimStore } from './github-sim-state.js';
import { bareOf, type SimWorld } from './github-sim-world.js';

// Forks as GitHub keeps them: a repository of its own under its owner's name (a bare clone of its
// parent's, served like any other), whose branches pull requests into the parent come from.
// GitHub copies such a PR's head into the parent as refs/pull/N/head, so the parent can diff, check
// and merge it; so does the simulator. Anyone who reaches the parent (an App installed there, a
// person's token) reads the (public) fork, and pushes to it only on the heads of the parent's PRs
// whose authors allow edits by maintainers.

const run = promisify(execFile);

export const fullName = (repo: Pick<SimRepo, 'owner' | 'name'>) => `${repo.owner}/${repo.name}`;

const repoNamed = (store: SimStore, full: string) => {
  const [owner, name] = full.split('/') as [string, string];
  return store.repo(owner, name);
};

/** The fork of `parent` that `owner` holds, if any. */
export function forkOwnedBy(store: SimStore, parent: SimRepo, owner: string): SimRepo | undefined {
  return Object.values(store.state.repos).find(
    (r) => r.forkOf === fullName(parent) && r.owner.toLowerCase() === owner.toLowerCase(),
  );
}

/** The fork's owner, by their own token, does as they please in it. */
export const ownsFork = (caller: Caller, fork: SimRepo) =>
  caller.kind === 'token' &&
  caller.token.kind === 'pat' &&
  caller.token.login.toLowerCase() === fork.owner.toLowerCase();

/**
 * What a caller who is not the fork's may do in it through its parent: read it when they may read
 * the parent, and push to the refs named (none: not at all).
 */
export function forkGrant(
  state: SimState,
  store: SimStore,
  caller: Caller,
  fork: SimRepo,
): { read: boolean; pushable: string[] } {
  const parent = fork.forkOf ? repoNamed(store, fork.forkOf) : undefined;
  if (!parent || !mayAccess(state, caller, parent.owner)) return { read: false, pushable: [] };
  const pushable = parent.pulls
    .filter((p) => p.state === 'open' && p.headRepo === fullName(fork) && p.maintainerCanModify)
    .map((p) => `refs/heads/${p.head}`);
  return { read: true, pushable };
}

/** Copies a fork PR's head into its parent as refs/pull/N/head; its sha, or null when the branch is gone. */
export async function copyForkHead(
  world: SimWorld,
  parent: SimRepo,
  pr: Pick<SimPull, 'number' | 'head' | 'headRepo'>,
): Promise<string | null> {
  const fork = pr.headRepo ? repoNamed(world.store, pr.headRepo) : undefined;
  if (!fork) return null;
  const ref = `refs/pull/${pr.number}/head`;
  const copied = await run(
    'git',
    ['fetch', '--quiet', '--no-tags', bareOf(world, fork), `+refs/heads/${pr.head}:${ref}`],
    { cwd: bareOf(world, parent) },
  ).then(
    () => true,
    () => false,
  );
  return copied ? resolveCommit(bareOf(world, parent), ref) : null;
}

/**
 * The open pull requests whose head is this branch of this repository: its own, and, for a fork,
 * its parent's from it.
 */
export function pullsHeadedAt(world: SimWorld, repo: SimRepo, branch: string) {
  const at = (r: SimRepo, home: string | null) =>
    r.pulls
      .filter((p) => p.state === 'open' && p.head === branch && p.headRepo === home)
      .map((pr) => ({ repo: r, pr }));
  const parent = repo.forkOf ? repoNamed(world.store, repo.forkOf) : undefined;
  return [...at(repo, null), ...(parent ? at(parent, fullName(repo)) : [])];
}
