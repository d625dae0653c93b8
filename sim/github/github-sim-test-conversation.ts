import { commitFiles } from './github-sim-git-objects.js';
import {
  branchesMoved,
  closePull,
  mergePull,
  refreshPull,
  reopenPull,
  setDraft,
} from './github-sim-pull-lifecycle.js';
import type { SimReaction, SimRepo } from './github-sim-state.js';
import type { Role } from './github-sim-state-conversation.js';
import { bareOf, type SimWorld } from './github-sim-world.js';

// What a test does as the people around a PR: who may do what in the repository, a person's
// commit pushed to a branch, merging, closing, reopening and turning a PR draft or ready, and
// reading back the conversation. Reviews and comments by a person go through the REST API with
// that person's token (`tokenFor`), as booty's own requests do. Each method resolves once the
// webhooks it causes have been tried.

interface Helpers {
  repoOrThrow(owner: string, name: string): SimRepo;
  addToken(token?: string, login?: string): string;
}

export function conversationApi(world: SimWorld, { repoOrThrow, addToken }: Helpers) {
  const pullOrThrow = (owner: string, name: string, number: number) => {
    const repo = repoOrThrow(owner, name);
    const pr = repo.pulls.find((p) => p.number === number);
    if (!pr) throw new Error(`the simulator has no pull request ${owner}/${name}#${number}`);
    return { repo, pr };
  };
  const defaultSender = (repo: SimRepo) => repo.owner;

  return {
    /** A personal token acting as this user (made on first use): a person's REST calls and pushes. */
    tokenFor(login: string): string {
      const known = world.store.state.tokens.find((t) => t.kind === 'pat' && t.login === login);
      return known?.token ?? addToken(undefined, login);
    },

    /** A user's role in the repository; anyone not given one reads it (it is public). */
    setRole(owner: string, name: string, login: string, role: Role) {
      repoOrThrow(owner, name).roles[login] = role;
      world.store.save();
    },

    /**
     * A person's commit on a branch (made in the remote, as if pushed from elsewhere; a new branch
     * starts from the default branch): a PR with that head is synchronized and CI runs on it. Null
     * content deletes a file. Resolves with the sha once the webhooks were tried.
     */
    async pushCommit(
      owner: string,
      name: string,
      input: { branch: string; files: Record<string, string | null>; message?: string; author?: string },
    ): Promise<string> {
      const repo = repoOrThrow(owner, name);
      const author = input.author ?? repo.owner;
      const { before, after } = await commitFiles(bareOf(world, repo), {
        branch: input.branch,
        files: input.files,
        message: input.message ?? `Update ${Object.keys(input.files).join(', ')}`,
        author: { name: author, email: `${author}@users.noreply.github.test` },
        from: repo.defaultBranch,
      });
      await branchesMoved(world, repo, [{ branch: input.branch, before, after }], author);
      return after;
    },

    /** The author of a fork's pull request ticking, or unticking, "Allow edits by maintainers". */
    allowMaintainerEdits(owner: string, name: string, number: number, allowed: boolean) {
      const { pr } = pullOrThrow(owner, name, number);
      if (!pr.headRepo) throw new Error(`${owner}/${name}#${number} is not from a fork`);
      pr.maintainerCanModify = allowed;
      world.store.save();
    },

    /** Merges as the merge button does (the base branch moves); rejects as GitHub refuses. */
    async mergePull(
      owner: string,
      name: string,
      number: number,
      opts: { sender?: string; method?: 'merge' | 'squash' } = {},
    ): Promise<string> {
      const { repo, pr } = pullOrThrow(owner, name, number);
      const outcome = await mergePull(world, repo, pr, {
        sender: opts.sender ?? defaultSender(repo),
        method: opts.method,
      });
      if (!outcome.merged) throw new Error(`${outcome.status} ${outcome.message}`);
      await outcome.delivered;
      return outcome.sha;
    },

    async closePull(owner: string, name: string, number: number, opts: { sender?: string } = {}) {
      const { repo, pr } = pullOrThrow(owner, name, number);
      if (pr.state === 'closed') return;
      await closePull(world, repo, pr, opts.sender ?? defaultSender(repo));
    },

    async reopenPull(owner: string, name: string, number: number, opts: { sender?: string } = {}) {
      const { repo, pr } = pullOrThrow(owner, name, number);
      if (pr.state === 'open' || pr.mergedAt) return;
      await reopenPull(world, repo, pr, opts.sender ?? defaultSender(repo));
    },

    /** A person turning the PR draft (or ready for review) on the web page. */
    async setDraft(
      owner: string,
      name: string,
      number: number,
      draft: boolean,
      opts: { sender?: string } = {},
    ) {
      const { repo, pr } = pullOrThrow(owner, name, number);
      await refreshPull(world, repo, pr);
      await setDraft(world, repo, pr, draft, opts.sender ?? defaultSender(repo));
    },

    reviews: (owner: string, name: string, pr?: number) =>
      structuredClone(
        repoOrThrow(owner, name).reviews.filter((r) => pr === undefined || r.pullNumber === pr),
      ),
    reviewComments: (owner: string, name: string, pr?: number) =>
      structuredClone(
        repoOrThrow(owner, name).reviewComments.filter((c) => pr === undefined || c.pullNumber === pr),
      ),
    /** Reactions on an issue comment or a review comment, by the comment's id. */
    commentReactions: (owner: string, name: string, commentId: number): SimReaction[] =>
      structuredClone(repoOrThrow(owner, name).reactions.filter((r) => r.commentId === commentId)),
  };
}
