import { startCi } from './github-sim-ci.js';
import { copyForkHead, pullsHeadedAt } from './github-sim-forks.js';
import { branchShas, diffStats, mergeBranches } from './github-sim-git-objects.js';
import { githubTime } from './github-sim-json.js';
import { pullJson } from './github-sim-json-pulls.js';
import type { SimPull, SimRepo } from './github-sim-state.js';
import { bareOf, type SimWorld } from './github-sim-world.js';

// A pull request's life as GitHub lives it: opened, pushed to (synchronize), turned draft and back,
// closed, reopened, merged, each with its `pull_request` webhook; GitHub Actions' default
// `pull_request` triggers (opened, synchronize, reopened) start the scripted CI.

/**
 * Reads an open PR's head and base from git, as GitHub follows a pushed branch, and recounts its
 * diff when either moved. Returns the head before, when it moved.
 */
export async function refreshPull(world: SimWorld, repo: SimRepo, pr: SimPull): Promise<string | null> {
  if (pr.state !== 'open') return null;
  const bare = bareOf(world, repo);
  const shas = await branchShas(bare, [pr.head, pr.base]);
  const head = (pr.headRepo ? await copyForkHead(world, repo, pr) : shas.get(pr.head)) ?? pr.headSha;
  const base = shas.get(pr.base) ?? pr.baseSha;
  const before = pr.headSha;
  const stale = pr.stats.commits === 0;
  if (head === pr.headSha && base === pr.baseSha && !stale) return null;
  pr.headSha = head;
  pr.baseSha = base;
  // Branches with no history in common have no diff to count.
  if (base) pr.stats = await diffStats(bare, base, head).catch(() => pr.stats);
  world.store.save();
  return head !== before ? before : null;
}

export function emitPullEvent(
  world: SimWorld,
  repo: SimRepo,
  pr: SimPull,
  action: string,
  sender: string,
  extra: Record<string, unknown> = {},
) {
  return world.hooks.emit({
    repo,
    event: 'pull_request',
    action,
    sender,
    fields: { number: pr.number, pull_request: pullJson(world.urls, repo, pr), ...extra },
  });
}

/** After a PR is opened: its webhook, then CI on its head. */
export function pullOpened(world: SimWorld, repo: SimRepo, pr: SimPull, sender: string) {
  return world.background.run('pull_request opened', async () => {
    await emitPullEvent(world, repo, pr, 'opened', sender);
    await ciForPull(world, repo, pr, sender);
  });
}

/**
 * After a push moved branches: every open PR whose head moved is synchronized (a fork's, in its
 * parent), and CI runs. The push's own before and after are sent, as a reader of the PR may have
 * followed the head already.
 */
export async function branchesMoved(
  world: SimWorld,
  repo: SimRepo,
  moved: { branch: string; before: string | null; after: string | null }[],
  pusher: string,
) {
  if (moved.length) {
    repo.pushedAt = githubTime();
    world.store.save();
  }
  for (const move of moved) {
    if (!move.after) continue;
    for (const { repo: base, pr } of pullsHeadedAt(world, repo, move.branch)) {
      await refreshPull(world, base, pr);
      if (pr.headSha !== move.after) continue; // moved again since; that push reports itself
      pr.updatedAt = githubTime();
      world.store.save();
      await emitPullEvent(world, base, pr, 'synchronize', pusher, { before: move.before, after: move.after });
      await ciForPull(world, base, pr, pusher);
    }
  }
}

export async function setDraft(world: SimWorld, repo: SimRepo, pr: SimPull, draft: boolean, sender: string) {
  if (pr.draft === draft) return null;
  pr.draft = draft;
  pr.updatedAt = githubTime();
  world.store.save();
  return emitPullEvent(world, repo, pr, draft ? 'converted_to_draft' : 'ready_for_review', sender);
}

export function closePull(world: SimWorld, repo: SimRepo, pr: SimPull, sender: string) {
  pr.state = 'closed';
  pr.closedAt = githubTime();
  pr.updatedAt = pr.closedAt;
  world.store.save();
  return emitPullEvent(world, repo, pr, 'closed', sender);
}

export async function reopenPull(world: SimWorld, repo: SimRepo, pr: SimPull, sender: string) {
  pr.state = 'open';
  pr.closedAt = null;
  pr.updatedAt = githubTime();
  await refreshPull(world, repo, pr);
  world.store.save();
  await emitPullEvent(world, repo, pr, 'reopened', sender);
  await ciForPull(world, repo, pr, sender);
}

export type MergeOutcome =
  | { merged: true; sha: string; delivered: Promise<unknown> }
  | { merged: false; status: 405 | 409; message: string };

/** Merges as the merge button does: the base branch moves, the PR closes as merged. */
export async function mergePull(
  world: SimWorld,
  repo: SimRepo,
  pr: SimPull,
  input: { sender: string; method?: 'merge' | 'squash'; sha?: string; title?: string; message?: string },
): Promise<MergeOutcome> {
  await refreshPull(world, repo, pr);
  if (pr.state !== 'open' || pr.draft) {
    return { merged: false, status: 405, message: 'Pull Request is not mergeable' };
  }
  if (input.sha && input.sha !== pr.headSha) {
    return {
      merged: false,
      status: 409,
      message: 'Head branch was modified. Review and try the merge again.',
    };
  }
  const method = input.method ?? 'merge';
  const title =
    input.title ??
    (method === 'squash'
      ? `${pr.title} (#${pr.number})`
      : `Merge pull request #${pr.number} from ${repo.owner}/${pr.head}`);
  const sha = await mergeBranches(bareOf(world, repo), {
    base: pr.base,
    head: pr.head,
    method,
    message: input.message ? `${title}\n\n${input.message}` : title,
    committer: { name: 'GitHub', email: 'noreply@github.com' },
  });
  if (!sha) return { merged: false, status: 405, message: 'Pull Request is not mergeable' };
  pr.state = 'closed';
  pr.mergedAt = githubTime();
  pr.closedAt = pr.mergedAt;
  pr.updatedAt = pr.mergedAt;
  pr.mergeCommitSha = sha;
  pr.mergedBy = input.sender;
  world.store.save();
  return { merged: true, sha, delivered: emitPullEvent(world, repo, pr, 'closed', input.sender) };
}

const ciForPull = (world: SimWorld, repo: SimRepo, pr: SimPull, actor: string) =>
  startCi(world, repo, {
    sha: pr.headSha,
    branch: pr.head,
    event: 'pull_request',
    actor,
    title: pr.title,
  });
